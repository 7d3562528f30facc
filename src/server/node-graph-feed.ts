// The Node authorizer's feed inside the server: Pods and PersistentVolumes are listed, then
// watched from the list's revision (the watch cache answers both, never the store per request),
// and listed again after a failed or ended watch, handing the whole set over so objects deleted
// meanwhile leave the graph too. A kind the server does not serve is simply empty. The authorizer
// is made on first use, so a server whose modes leave Node out watches nothing for it.

import { createNodeAuthorizer, type NodeAuthorizerHandle } from '../auth/authz/node/create.ts';
import type { NodeGraphKind, NodeGraphSource } from '../auth/authz/node/types.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { WireWatch } from '../registry/generic-store.ts';
import type { ServedResources } from './served-resources.ts';

const RESOURCES: readonly [NodeGraphKind, string][] = [
  ['Pod', 'pods'],
  ['PersistentVolume', 'persistentvolumes'],
];

/** Delay before relisting after a failure, doubled up to the cap while failures repeat. */
const RETRY_MS = 100;
const RETRY_CAP_MS = 5_000;

export function servedNodeGraphSource(
  served: ServedResources,
  log: (message: string) => void = () => {},
): NodeGraphSource {
  return {
    start(handlers) {
      let stopped = false;
      const watches = new Set<WireWatch>();
      const timers = new Set<NodeJS.Timeout>();

      const pause = (ms: number) =>
        new Promise<void>((res) => {
          const t = setTimeout(() => {
            timers.delete(t);
            res();
          }, ms);
          timers.add(t);
        });

      async function follow(kind: NodeGraphKind, resource: string, listed: () => void): Promise<void> {
        const r = served.lookup('', 'v1', resource);
        if (r === undefined) return listed();
        let delay = RETRY_MS;
        while (!stopped) {
          try {
            const list = await r.store.list('');
            if (stopped) return;
            handlers.replace(kind, list.items);
            listed();
            delay = RETRY_MS;
            const watch = r.store.watch('', { revision: Number(list.metadata.resourceVersion) });
            watches.add(watch);
            try {
              for await (const ev of watch) {
                if (ev.type === 'ADDED' || ev.type === 'MODIFIED') handlers.upsert(kind, ev.object);
                else if (ev.type === 'DELETED') handlers.remove(kind, ev.object);
                else if (ev.type === 'ERROR') throw new Error(String(ev.object.message ?? 'watch failed'));
              }
            } finally {
              watches.delete(watch);
              watch.stop();
            }
            if (stopped) return;
            log(`node graph feed: watch of ${resource} ended, relisting`);
          } catch (err) {
            if (stopped) return;
            log(`node graph feed: ${resource}: ${(err as Error).message}; relisting`);
            await pause(delay);
            delay = Math.min(delay * 2, RETRY_CAP_MS);
          }
        }
      }

      const synced = RESOURCES.map(
        ([kind, resource]) =>
          new Promise<void>((resolve) => {
            void follow(kind, resource, resolve);
          }),
      );
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

/** The server's Node authorizer, started on first use; stop() ends its feed if it was started. */
export function lazyNodeAuthorizer(
  served: ServedResources,
  profile: NamingProfile,
  log?: (message: string) => void,
): { get(): NodeAuthorizerHandle; stop(): void } {
  let handle: NodeAuthorizerHandle | undefined;
  return {
    get() {
      handle ??= createNodeAuthorizer(servedNodeGraphSource(served, log), profile);
      return handle;
    },
    stop() {
      handle?.stop();
    },
  };
}
