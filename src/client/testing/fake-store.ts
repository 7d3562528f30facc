// The versioned state behind the fake resource client: one global revision counter, and per
// resource the current objects, the state at the last compaction and the changes since, so that
// lists can be served at an older revision (paging, Exact) and watches replayed from one, and
// anything older than the compaction answers 410 Expired as the real server does.

import type { ApiObject } from '../../machinery/object.ts';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  rev: number;
  type: ChangeType;
  key: string;
  /** The object after the change; for DELETED its last state (with the deletion's revision). */
  obj: ApiObject;
  /** The object before the change (for MODIFIED and DELETED). */
  prev?: ApiObject;
}

export class RevisionCounter {
  private rev = 1;
  /** Revisions below this are compacted away. */
  compacted = 0;

  current(): number {
    return this.rev;
  }

  next(): number {
    this.rev++;
    return this.rev;
  }
}

/** One resource's objects by key (`namespace/name` or `name`). */
export class VersionedStore {
  private readonly current = new Map<string, ApiObject>();
  /** State as of `baseRev` (the last compaction this store took part in). */
  private base = new Map<string, ApiObject>();
  private baseRev = 0;
  /** Changes after `baseRev`, in revision order. */
  private log: Change[] = [];

  constructor(readonly revs: RevisionCounter) {}

  get(key: string): ApiObject | undefined {
    return this.current.get(key);
  }

  /** Records a change at a new revision (the object's resourceVersion is set to it). */
  write(type: ChangeType, key: string, obj: ApiObject): Change {
    const rev = this.revs.next();
    const stored: ApiObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rev) } };
    const prev = this.current.get(key);
    if (type === 'DELETED') this.current.delete(key);
    else this.current.set(key, stored);
    const change: Change = { rev, type, key, obj: stored, prev };
    this.log.push(change);
    return change;
  }

  /** Forgets the changes before `rev`; lists and watches older than it will answer 410. */
  compact(rev: number): void {
    if (rev <= this.baseRev) return;
    const keep: Change[] = [];
    for (const c of this.log) {
      if (c.rev > rev) {
        keep.push(c);
        continue;
      }
      if (c.type === 'DELETED') this.base.delete(c.key);
      else this.base.set(c.key, c.obj);
    }
    this.log = keep;
    this.baseRev = rev;
  }

  /** The objects as they were at `rev` (which must not be compacted), sorted by key. */
  snapshot(rev: number): [string, ApiObject][] {
    let state: Map<string, ApiObject>;
    const last = this.log.length > 0 ? this.log[this.log.length - 1].rev : this.baseRev;
    if (rev >= last) state = this.current;
    else {
      state = new Map(this.base);
      for (const c of this.log) {
        if (c.rev > rev) break;
        if (c.type === 'DELETED') state.delete(c.key);
        else state.set(c.key, c.obj);
      }
    }
    return [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The changes after `rev`, oldest first. */
  changesAfter(rev: number): Change[] {
    return this.log.filter((c) => c.rev > rev);
  }
}
