// Events expire --event-ttl after their last write. Upstream attaches an etcd lease to every write
// of an Event; no backend here has leases, so the server sweeps instead: it lists the Events
// periodically (from the watch cache), remembers when it first saw each object's resourceVersion,
// and deletes those whose last write is older than the TTL, on condition that the resourceVersion
// is still the one it saw (a write in between wins and restarts the clock). An Event first seen
// after a start has its last write estimated from its own timestamps, so a restart does not give
// every Event a fresh TTL. Several servers over one etcd may all sweep: the precondition makes
// that safe.

import { loggerFor } from '../machinery/logging/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import type { GenericStore } from '../registry/generic-store.ts';
import type { ReadAt } from '../storage/interface.ts';

export interface EventExpiryOptions {
  /** The store of core/v1 Events (every Event is stored there). */
  store: GenericStore;
  ttlMs: number;
  /** Time between sweeps; default a quarter of the TTL, between 100 ms and one minute. */
  intervalMs?: number;
  now?: () => number;
  log?: (msg: string) => void;
}

export interface EventExpiry {
  /** One sweep now: the number of Events deleted. */
  sweep(): Promise<number>;
  /** Stops sweeping; resolves once a sweep in progress has finished. */
  stop(): Promise<void>;
}

const CACHED: ReadAt = { kind: 'notOlderThan', revision: 0 };
const PAGE = 1000;

/** The latest time an Event's own fields record a write at (0 when none parses). */
export function lastRecordedWrite(e: ApiObject): number {
  const stamps: unknown[] = [
    e.metadata?.creationTimestamp,
    e.lastTimestamp,
    e.eventTime,
    (e.series as { lastObservedTime?: unknown } | undefined)?.lastObservedTime,
    ...(e.metadata?.managedFields ?? []).map((m) => (m as { time?: unknown }).time),
  ];
  let latest = 0;
  for (const s of stamps) {
    const t = typeof s === 'string' ? Date.parse(s) : Number.NaN;
    if (!Number.isNaN(t) && t > latest) latest = t;
  }
  return latest;
}

interface Seen {
  resourceVersion: string;
  /** When the write that made this resourceVersion happened, as far as the sweeper can tell. */
  writtenAt: number;
}

export function startEventExpiry(o: EventExpiryOptions): EventExpiry {
  const now = o.now ?? Date.now;
  const interval = o.intervalMs ?? Math.min(60_000, Math.max(100, Math.floor(o.ttlMs / 4)));
  const seen = new Map<string, Seen>();
  let running: Promise<number> | undefined;
  let stopped = false;

  async function sweepOnce(): Promise<number> {
    const t = now();
    const present = new Set<string>();
    const expired: [string, string, string][] = [];
    let cont: string | undefined;
    do {
      const page = await o.store.list('', { at: CACHED, limit: PAGE, continue: cont });
      for (const e of page.items) {
        const ns = e.metadata?.namespace ?? '';
        const name = e.metadata?.name ?? '';
        const rv = e.metadata?.resourceVersion ?? '';
        const key = `${ns}/${name}`;
        present.add(key);
        const before = seen.get(key);
        let entry = before;
        if (before === undefined)
          entry = { resourceVersion: rv, writtenAt: Math.min(t, lastRecordedWrite(e) || t) };
        else if (before.resourceVersion !== rv) entry = { resourceVersion: rv, writtenAt: t };
        if (entry !== before && entry !== undefined) seen.set(key, entry);
        if (entry !== undefined && t - entry.writtenAt >= o.ttlMs) expired.push([ns, name, rv]);
      }
      cont = page.metadata.continue;
    } while (cont !== undefined && cont !== '' && !stopped);
    for (const key of seen.keys()) if (!present.has(key)) seen.delete(key);
    let deleted = 0;
    for (const [ns, name, resourceVersion] of expired) {
      if (stopped) break;
      try {
        await o.store.delete(ns, name, { preconditions: { resourceVersion } });
        seen.delete(`${ns}/${name}`);
        deleted++;
      } catch (err) {
        const code = (err as { code?: number }).code;
        // Gone already, or written since: the next sweep sees its new state.
        if (code !== 404 && code !== 409) throw err;
      }
    }
    return deleted;
  }

  const sweep = (): Promise<number> => {
    running ??= sweepOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (running === undefined && !stopped)
      sweep().catch((err: Error) => o.log?.(`event expiry: sweep failed: ${err.message}`));
  }, interval);
  timer.unref();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** The sweeper over the served core/v1 Events; none when the TTL is 0 (Events never expire) or Events are not served. */
export function expireServedEvents(
  served: { lookup(group: string, version: string, resource: string): { store: GenericStore } | undefined },
  ttlMs: number,
): EventExpiry | undefined {
  const events = served.lookup('', 'v1', 'events');
  if (events === undefined || ttlMs <= 0) return undefined;
  return startEventExpiry({
    store: events.store,
    ttlMs,
    log: (m) => loggerFor('server/event-expiry').infoText(m),
  });
}
