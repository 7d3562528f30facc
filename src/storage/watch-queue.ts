// A push-to-pull bridge: backends push events as they happen, the consumer pulls them with
// `for await`. Also holds the predicate rule shared by every backend.

import type { ApiObject } from '../machinery/object.ts';
import type { Predicate, WatchEvent, WatchEventType, WatchStream } from './interface.ts';

export class WatchQueue implements WatchStream {
  private readonly buffer: WatchEvent[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<WatchEvent>) => void) | null = null;
  private ended = false;
  private readonly onStop: () => void;

  constructor(onStop: () => void = () => {}) {
    this.onStop = onStop;
  }

  get stopped(): boolean {
    return this.ended;
  }

  /** Events waiting for the consumer: how far behind it is. */
  get backlog(): number {
    return this.buffer.length - this.head;
  }

  push(event: WatchEvent): void {
    if (this.ended) return;
    if (this.waiter !== null) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve({ value: event, done: false });
      return;
    }
    this.buffer.push(event);
  }

  /** Delivers an ERROR event and ends the stream. */
  fail(error: Error, revision = 0): void {
    if (this.ended) return;
    this.push({ type: 'ERROR', object: {}, revision, error });
    this.finish();
  }

  stop(): void {
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiter !== null && this.head >= this.buffer.length) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve({ value: undefined, done: true });
    }
    this.onStop();
  }

  private next(): Promise<IteratorResult<WatchEvent>> {
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head++];
      if (this.head > 1024 && this.head * 2 > this.buffer.length) {
        this.buffer.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/**
 * The event a filtered watcher sees for a change, or null for none. An object that starts matching
 * is ADDED to that watcher, one that stops matching is DELETED, as upstream watch caches do.
 */
export function filteredEventType(
  type: 'ADDED' | 'MODIFIED' | 'DELETED',
  object: ApiObject,
  previous: ApiObject | null,
  predicate: Predicate | undefined,
): { type: WatchEventType; object: ApiObject } | null {
  if (predicate === undefined) return { type, object };
  const out = selectedEventType(
    type,
    () => predicate(object),
    () => previous !== null && predicate(previous),
  );
  return out === null ? null : { type: out, object };
}

/** filteredEventType's rule on whether the object matches now and matched before (asked lazily). */
export function selectedEventType(
  type: 'ADDED' | 'MODIFIED' | 'DELETED',
  matchesNow: () => boolean,
  matchedBefore: () => boolean,
): WatchEventType | null {
  const now = matchesNow();
  if (type !== 'MODIFIED') return now ? type : null;
  const before = matchedBefore();
  if (now && before) return 'MODIFIED';
  if (now) return 'ADDED';
  if (before) return 'DELETED';
  return null;
}

/** The smallest key greater than every key that starts with `prefix` (etcd's range end). */
export function prefixEnd(prefix: string): string {
  if (prefix.length === 0) return '\u{10FFFF}';
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
