// The values this process wrote to etcd, kept from the write's answer until the watch stream
// reports the change. Such a value is encodeValue's JSON, so its watch event can skip decoding
// (etcd-storage.ts's lazyEvent): JSON.stringify of plain data, which storedBody splices safely.
// A value written by anyone else (another replica, etcdctl) is not known here and is decoded as
// before. Bounded: with no watch consuming them (storage used without the watch cache), the oldest
// are dropped.

import type { Revision } from '../interface.ts';

/** Writes remembered at most; beyond it the oldest go (their events are then decoded). */
const LIMIT = 4096;

export class Fresh {
  private readonly byKey = new Map<string, { revision: Revision; text: string }>();

  wrote(key: string, revision: Revision, text: string): void {
    // Re-inserted, so that the map's order stays the writes' order.
    this.byKey.delete(key);
    this.byKey.set(key, { revision, text });
    if (this.byKey.size > LIMIT) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
  }

  /** The text written at exactly `revision`, if this process wrote it; forgotten once taken. */
  take(key: string, revision: Revision): string | undefined {
    const entry = this.byKey.get(key);
    if (entry === undefined) return undefined;
    if (entry.revision > revision) return undefined;
    this.byKey.delete(key);
    return entry.revision === revision ? entry.text : undefined;
  }

  /** A change at `revision` that this process did not make: an older write of the key is moot. */
  forget(key: string, revision: Revision): void {
    const entry = this.byKey.get(key);
    if (entry !== undefined && entry.revision <= revision) this.byKey.delete(key);
  }
}
