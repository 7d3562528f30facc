// Expectations (upstream's ControllerExpectations and UIDTrackingControllerExpectations): after a
// sync asks for N creations or deletions, the controller waits until its informer has seen them
// (or five minutes pass) before syncing that owner again, so a stale cache never makes it create or
// delete twice.

import type { Clock } from '../../client/api.ts';

/** How long an unmet expectation holds a sync back (upstream's ExpectationsTimeout). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Record_ {
  add: number;
  del: number;
  at: number;
}

const wallClock: Pick<Clock, 'now'> = { now: () => Date.now() };

export class ControllerExpectations {
  private readonly records = new Map<string, Record_>();
  protected readonly clock: Pick<Clock, 'now'>;

  constructor(opts: { clock?: Pick<Clock, 'now'> } = {}) {
    this.clock = opts.clock ?? wallClock;
  }

  /** Replaces the key's expectations with `n` creations. */
  expectCreations(key: string, n: number): void {
    this.set(key, n, 0);
  }

  /** Replaces the key's expectations with `n` deletions. */
  expectDeletions(key: string, n: number): void {
    this.set(key, 0, n);
  }

  creationObserved(key: string): void {
    this.lower(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lower(key, 0, 1);
  }

  /** Lowers the expected counts (a creation or deletion that failed will never be observed). */
  lower(key: string, add: number, del: number): void {
    const r = this.records.get(key);
    if (r === undefined) return;
    r.add -= add;
    r.del -= del;
  }

  /** Raises the expected counts without resetting the timestamp. */
  raise(key: string, add: number, del: number): void {
    const r = this.records.get(key);
    if (r === undefined) return;
    r.add += add;
    r.del += del;
  }

  /**
   * Whether the owner may be synced: no expectations recorded, all of them observed, or recorded
   * longer ago than the timeout (a lost watch event must not hold the owner back forever).
   */
  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (r === undefined) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.clock.now() - r.at > EXPECTATIONS_TIMEOUT_MS;
  }

  /** The outstanding counts, for logs and tests. */
  pending(key: string): { add: number; del: number } | undefined {
    const r = this.records.get(key);
    return r === undefined ? undefined : { add: r.add, del: r.del };
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  private set(key: string, add: number, del: number): void {
    this.records.set(key, { add, del, at: this.clock.now() });
  }
}

/**
 * Expectations whose deletions are tracked by the deleted objects' keys, so that a deletion seen
 * twice (the graceful delete's update, then the final delete) is counted once.
 */
export class UidTrackingExpectations extends ControllerExpectations {
  private readonly deleting = new Map<string, Set<string>>();

  /** Expects each of `objectKeys` to be deleted. */
  expectDeletionsOf(key: string, objectKeys: readonly string[]): void {
    this.deleting.set(key, new Set(objectKeys));
    this.expectDeletions(key, objectKeys.length);
  }

  /** A deletion of `objectKey` was seen (or will never happen): counted once per expected key. */
  deletionOfObserved(key: string, objectKey: string): void {
    const keys = this.deleting.get(key);
    if (keys?.delete(objectKey)) this.deletionObserved(key);
  }

  override delete(key: string): void {
    this.deleting.delete(key);
    super.delete(key);
  }
}
