// The RBAC index's feed inside the server: each of the four RBAC resources is listed, then watched
// from the list's revision (the watch cache answers both), and listed again after a failed or
// ended watch, handing the whole set over so objects deleted meanwhile leave the index too. A
// resource the server does not serve is simply empty.

import type { RbacFeedHandlers, RbacKind, RbacObjectSource } from '../auth/authz/rbac/types.ts';
import { groupName, type NamingProfile } from '../naming/profile.ts';
import type { WireWatch } from '../registry/generic-store.ts';
import type { ServedResource, ServedResources } from './served-resources.ts';

const RESOURCES: readonly [RbacKind, string][] = [
  ['Role', 'roles'],
  ['ClusterRole', 'clusterroles'],
  ['RoleBinding', 'rolebindings'],
  ['ClusterRoleBinding', 'clusterrolebindings'],
];

/** Delay before relisting after a failure, doubled up to the cap while failures repeat. */
const RETRY_MS = 100;
const RETRY_CAP_MS = 5_000;

export function servedRbacSource(
  served: ServedResources,
  profile: NamingProfile,
  log: (message: string) => void = () => {},
): RbacObjectSource {
  const group = groupName(profile, 'rbac.authorization');
  return {
    start(handlers) {
      let stopped = false;
      const watches = new Set<WireWatch>();
      const timers = new Set<NodeJS.Timeout>();
      const synced = RESOURCES.map(([kind, resource]) => {
        const r = served.lookup(group, 'v1', resource);
        if (r === undefined) return Promise.resolve();
        return new Promise<void>((resolve) => {
          void follow(r, kind, handlers, resolve);
        });
      });

      async function follow(
        r: ServedResource,
        kind: RbacKind,
        h: RbacFeedHandlers,
        listed: () => void,
      ): Promise<void> {
        let delay = RETRY_MS;
        while (!stopped) {
          try {
            const list = await r.store.list('');
            if (stopped) return;
            h.replace(kind, list.items);
            listed();
            delay = RETRY_MS;
            const watch = r.store.watch('', { revision: Number(list.metadata.resourceVersion) });
            watches.add(watch);
            try {
              for await (const ev of watch) {
                if (ev.type === 'ADDED' || ev.type === 'MODIFIED') h.upsert(kind, ev.object);
                else if (ev.type === 'DELETED') h.remove(kind, ev.object);
                else if (ev.type === 'ERROR') throw new Error(String(ev.object.message ?? 'watch failed'));
              }
            } finally {
              watches.delete(watch);
              watch.stop();
            }
            if (stopped) return;
            log(`rbac feed: watch of ${r.kind.resource.resource} ended, relisting`);
          } catch (err) {
            if (stopped) return;
            log(`rbac feed: ${r.kind.resource.resource}: ${(err as Error).message}; relisting`);
            await new Promise<void>((res) => {
              const t = setTimeout(() => {
                timers.delete(t);
                res();
              }, delay);
              timers.add(t);
            });
            delay = Math.min(delay * 2, RETRY_CAP_MS);
          }
        }
      }

      return {
        synced: Promise.all(synced).then(() => undefined),
        stop() {
          stopped = true;
          for (const w of watches) w.stop();
          for (const t of timers) clearTimeout(t);
        },
      };
    },
  };
}
