// The event correlator (client-go's EventCorrelator): decides, before anything is sent, whether an
// event is dropped as spam (a token bucket per object and source: burst 25, then one every five
// minutes), folded into a "(combined from similar events)" event when one object gets ten
// different messages of the same reason within ten minutes, or counted on an identical event
// already written (a patch of count, lastTimestamp and message instead of a new Event).

import { type CoreEvent, wireTime } from './event.ts';

/** Entries kept per cache, as client-go's LRU caches. */
const CACHE_SIZE = 4096;
const SPAM_BURST = 25;
const SPAM_PER_MS = 1 / (300 * 1000);
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600 * 1000;

/** A map that forgets its least recently used entries past `size`. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.size) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }
  get length(): number {
    return this.map.size;
  }
}

const join = (parts: readonly unknown[]): string => parts.map((p) => String(p ?? '')).join('\u0000');

function objectParts(e: CoreEvent): unknown[] {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion];
}

/** Identifies an event down to its message: identical events share it. */
export function eventKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return join([...objectParts(e), o.fieldPath, e.type, e.reason, e.message]);
}

function spamKey(e: CoreEvent): string {
  return join([...objectParts(e), e.type]);
}

function aggregateKey(e: CoreEvent): string {
  return join([...objectParts(e), e.type, e.reason, e.reportingComponent, e.reportingInstance]);
}

interface Bucket {
  tokens: number;
  at: number;
}

interface Aggregate {
  messages: Set<string>;
  last: number;
}

interface Observation {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion: string;
}

export interface Correlation {
  /** Drop it: the object's source has sent too many events lately. */
  skip: boolean;
  event: CoreEvent;
  /** For an event seen before: the strategic merge patch that counts it on the existing Event. */
  patch?: { count: number; lastTimestamp: string; message: string };
}

export class EventCorrelator {
  private readonly spam = new Lru<Bucket>(CACHE_SIZE);
  private readonly aggregates = new Lru<Aggregate>(CACHE_SIZE);
  private readonly observed = new Lru<Observation>(CACHE_SIZE);

  constructor(
    private readonly now: () => number,
    /** Names an event at a time (`<object name>.<hex nanoseconds>`). */
    private readonly nameFor: (objectName: string, ms: number) => string,
  ) {}

  correlate(input: CoreEvent): Correlation {
    const { event: aggregated, key } = this.aggregate(input);
    const { event, patch } = this.observe(aggregated, key);
    return { skip: !this.allow(event), event, patch };
  }

  /** Records the server's answer, so later counts patch the Event under its stored name. */
  updateState(stored: CoreEvent): void {
    this.observed.set(eventKey(stored), {
      count: stored.count ?? 1,
      firstTimestamp: stored.firstTimestamp ?? '',
      name: stored.metadata.name,
      resourceVersion: stored.metadata.resourceVersion ?? '',
    });
  }

  private aggregate(e: CoreEvent): { event: CoreEvent; key: string } {
    const now = this.now();
    const aKey = aggregateKey(e);
    let rec = this.aggregates.get(aKey);
    if (rec === undefined || now - rec.last > AGGREGATE_INTERVAL_MS) rec = { messages: new Set(), last: now };
    rec.messages.add(e.message);
    rec.last = now;
    this.aggregates.set(aKey, rec);
    if (rec.messages.size < AGGREGATE_MAX_EVENTS) return { event: e, key: eventKey(e) };
    // Past the limit one message is forgotten, so the set stays at the limit and every further
    // message keeps being combined.
    const first = rec.messages.values().next();
    if (!first.done) rec.messages.delete(first.value);
    const ts = wireTime(now);
    const combined: CoreEvent = {
      ...e,
      metadata: { name: this.nameFor(e.involvedObject.name ?? '', now), namespace: e.metadata.namespace },
      count: 1,
      firstTimestamp: ts,
      lastTimestamp: ts,
      message: `(combined from similar events): ${e.message}`,
    };
    return { event: combined, key: aKey };
  }

  private observe(e: CoreEvent, key: string): { event: CoreEvent; patch?: Correlation['patch'] } {
    const last = this.observed.get(key);
    let event = e;
    let patch: Correlation['patch'];
    if (last !== undefined && last.count > 0) {
      event = {
        ...e,
        metadata: { ...e.metadata, name: last.name, resourceVersion: last.resourceVersion },
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
      patch = { count: event.count ?? 1, lastTimestamp: event.lastTimestamp ?? '', message: event.message };
    }
    this.observed.set(key, {
      count: event.count ?? 1,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata.name,
      resourceVersion: event.metadata.resourceVersion ?? '',
    });
    return { event, patch };
  }

  private allow(e: CoreEvent): boolean {
    const key = spamKey(e);
    const now = this.now();
    const b = this.spam.get(key) ?? { tokens: SPAM_BURST, at: now };
    b.tokens = Math.min(SPAM_BURST, b.tokens + Math.max(0, now - b.at) * SPAM_PER_MS);
    b.at = now;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    this.spam.set(key, b);
    return ok;
  }
}
