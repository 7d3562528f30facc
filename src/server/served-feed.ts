// Keeping an in-memory index in step with served resources, as the RBAC index and the Node
// authorizer's graph need: each resource is listed, then watched from the list's revision (the
// watch cache answers both, never the store per request), and listed again after a failed or
// ended watch, handing the whole set over so objects deleted meanwhile leave the index too.
// Failures back off from 100 ms, doubling up to 5 s.

import type { ApiObject } from '../machinery/object.ts';
import type { WireWatch } from '../registry/generic-store.ts';
import type { ServedResource } from './served-resources.ts';

const RETRY_MS = 100;
const RETRY_CAP_MS = 5_000;

export interface FeedTarget {
  /** The whole current set, after each list. */
  replace(items: ApiObject[]): void;
  upsert(obj: ApiObject): void;
  remove(obj: ApiObject): void;
}

export class ServedFeed {
  private stopped = false;
  private readonly watches = new Set<WireWatch>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `name` prefixes the log lines (`rbac feed`, `node graph feed`). */
  constructor(
    private readonly name: string,
    private readonly log: (message: string) => void,
  ) {}

  /** Follows `r` (`resource` names it in logs) until stop(); resolves once its first list is handed over. */
  follow(r: ServedResource, resource: string, target: FeedTarget): Promise<void> {
    return new Promise<void>((listed) => {
      void this.loop(r, resource, target, listed);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  private async loop(
    r: ServedResource,
    resource: string,
    target: FeedTarget,
    listed: () => void,
  ): Promise<void> {
    let delay = RETRY_MS;
    while (!this.stopped) {
      try {
        const list = await r.store.list('');
        if (this.stopped) return;
        target.replace(list.items);
        listed();
        delay = RETRY_MS;
        await this.watchFrom(r, Number(list.metadata.resourceVersion), target);
        if (this.stopped) return;
        this.log(`${this.name}: watch of ${resource} ended, relisting`);
      } catch (err) {
        if (this.stopped) return;
        this.log(`${this.name}: ${resource}: ${(err as Error).message}; relisting`);
        await this.pause(delay);
        delay = Math.min(delay * 2, RETRY_CAP_MS);
      }
    }
  }

  private async watchFrom(r: ServedResource, revision: number, target: FeedTarget): Promise<void> {
    const watch = r.store.watch('', { revision });
    this.watches.add(watch);
    try {
      for await (const ev of watch) {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') target.upsert(ev.object);
        else if (ev.type === 'DELETED') target.remove(ev.object);
        else if (ev.type === 'ERROR') throw new Error(String(ev.object.message ?? 'watch failed'));
      }
    } finally {
      this.watches.delete(watch);
      watch.stop();
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((res) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        res();
      }, ms);
      this.timers.add(t);
    });
  }
}

/** Handlers of an index fed several kinds, told which kind each change is about. */
export interface KindedFeedTarget<K> {
  replace(kind: K, items: ApiObject[]): void;
  upsert(kind: K, obj: ApiObject): void;
  remove(kind: K, obj: ApiObject): void;
}

/**
 * Follows each served resource (kind, resource name, the resource or undefined when it is not
 * served, which is simply empty): the
 * promise resolves once every first list is handed over; stop() ends them all.
 */
export function followKinds<K>(
  name: string,
  log: (message: string) => void,
  resources: readonly (readonly [K, string, ServedResource | undefined])[],
  target: KindedFeedTarget<K>,
): { synced: Promise<void>; stop(): void } {
  const feed = new ServedFeed(name, log);
  const synced = resources.map(([kind, resource, r]) =>
    r === undefined
      ? Promise.resolve()
      : feed.follow(r, resource, {
          replace: (items) => target.replace(kind, items),
          upsert: (obj) => target.upsert(kind, obj),
          remove: (obj) => target.remove(kind, obj),
        }),
  );
  return { synced: Promise.all(synced).then(() => undefined), stop: () => feed.stop() };
}
