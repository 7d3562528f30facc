// Fans committed changes out to watchers. A watcher that starts in the past first replays the log
// in small chunks (yielding between them, so a long replay never blocks writers) while live changes
// wait in its buffer; it switches to live delivery in the same synchronous step that reads the last
// chunk, so no change is lost or repeated at the seam.

import type { ApiObject } from '../../machinery/object.ts';
import { CompactedError } from '../errors.ts';
import type { Predicate, Revision, WatchEvent } from '../interface.ts';
import { bookmarkObject, decodeValue, type StoredBody, storedBody } from '../value-codec.ts';
import { filteredEventType, WatchQueue } from '../watch-queue.ts';
import type { LogRow, Statements } from './schema.ts';
import type { CommittedChange } from './write-batcher.ts';

const REPLAY_CHUNK = 500;

export interface WatcherSpec {
  prefix: string;
  end: string;
  /** Deliver changes strictly after this revision. */
  after: Revision;
  predicate?: Predicate;
  progressNotify: boolean;
}

class Watcher {
  readonly queue: WatchQueue;
  lastRevision: Revision;
  replaying = true;
  buffered: CommittedChange[] = [];
  /** Set whenever an event goes out; cleared by the progress tick. */
  active = false;

  constructor(
    readonly spec: WatcherSpec,
    onStop: () => void,
  ) {
    this.queue = new WatchQueue(onStop);
    this.lastRevision = spec.after;
  }

  covers(key: string): boolean {
    return key >= this.spec.prefix && key < this.spec.end;
  }
}

/**
 * Decodes a change at most once however many watchers receive it. A change this process just wrote
 * (`fresh`: its value is encodeValue's JSON, which is a JSON object and decodes) goes to watchers
 * without a predicate undecoded: its object is decoded (once for all of them) when read, and its
 * body for the watch cache is made from the stored text instead (value-codec.ts's storedBody).
 */
class DecodedChange {
  private object?: ApiObject;
  private previousObject?: ApiObject | null;
  private body?: { value: StoredBody | undefined };

  constructor(
    readonly change: CommittedChange,
    private readonly fresh = false,
  ) {}

  /**
   * The event for a watcher without a predicate, undecoded (its own event, as a decoded one is);
   * undefined when the value must be decoded first.
   */
  undecoded(): WatchEvent | undefined {
    const { change } = this;
    // A delete carries the previous value, which may be one that does not decode (an unsafe delete).
    if (!this.fresh || change.type === 'DELETED' || change.value.charCodeAt(0) !== 0x7b) return undefined;
    const self = this;
    return {
      type: change.type,
      revision: change.revision,
      get object() {
        return self.value;
      },
      get stored() {
        self.body ??= { value: storedBody(change.key, change.value, change.revision) };
        return self.body.value;
      },
    };
  }

  get value(): ApiObject {
    this.object ??= decodeValue(this.change.key, this.change.value, this.change.revision);
    return this.object;
  }

  get previous(): ApiObject | null {
    if (this.previousObject === undefined) {
      const { previous, key, revision } = this.change;
      this.previousObject = previous === null ? null : decodeValue(key, previous, revision);
    }
    return this.previousObject;
  }
}

export interface WatchHubDeps {
  stmts: Statements;
  currentRevision: () => Revision;
  compactedRevision: () => Revision;
  progressNotifyIntervalMs: number;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly progressTimer: NodeJS.Timeout;

  constructor(private readonly deps: WatchHubDeps) {
    this.progressTimer = setInterval(() => this.notifyProgress(), deps.progressNotifyIntervalMs);
    this.progressTimer.unref();
  }

  /**
   * Registers a watcher that receives changes after `spec.after`. `prelude` runs first (the initial
   * list of a watch without a revision); live changes are buffered meanwhile.
   */
  open(spec: WatcherSpec, prelude?: (queue: WatchQueue) => Promise<void>): WatchQueue {
    const watcher = new Watcher(spec, () => this.watchers.delete(watcher));
    this.watchers.add(watcher);
    void this.replay(watcher, prelude);
    return watcher.queue;
  }

  publish(changes: CommittedChange[]): void {
    if (this.watchers.size === 0) return;
    const decoded = changes.map((c) => new DecodedChange(c, true));
    for (const w of this.watchers) {
      for (const d of decoded) {
        if (!w.covers(d.change.key)) continue;
        if (w.replaying) w.buffered.push(d.change);
        else this.deliverOrFail(w, d);
      }
    }
  }

  close(): void {
    clearInterval(this.progressTimer);
    for (const w of [...this.watchers]) w.queue.stop();
  }

  /** A change whose stored bytes do not decode (an unsafe delete's) ends the watch with an error. */
  private deliverOrFail(w: Watcher, d: DecodedChange): void {
    try {
      this.deliver(w, d);
    } catch (err) {
      w.queue.fail(err as Error, d.change.revision);
    }
  }

  private deliver(w: Watcher, d: DecodedChange): void {
    const { change } = d;
    w.lastRevision = change.revision;
    const undecoded = w.spec.predicate === undefined ? d.undecoded() : undefined;
    if (undecoded !== undefined) {
      w.active = true;
      w.queue.push(undecoded);
      return;
    }
    const out = filteredEventType(
      change.type,
      d.value,
      change.type === 'MODIFIED' && w.spec.predicate !== undefined ? d.previous : null,
      w.spec.predicate,
    );
    if (out === null) return;
    w.active = true;
    w.queue.push({ type: out.type, object: out.object, revision: change.revision });
  }

  private async replay(w: Watcher, prelude?: (queue: WatchQueue) => Promise<void>): Promise<void> {
    try {
      if (prelude) await prelude(w.queue);
      for (;;) {
        if (w.queue.stopped) return;
        const compacted = this.deps.compactedRevision();
        if (w.lastRevision < compacted) {
          w.queue.fail(new CompactedError(w.spec.prefix, w.lastRevision, compacted), compacted);
          return;
        }
        const target = this.deps.currentRevision();
        const rows = this.deps.stmts.history.all(
          w.lastRevision,
          target,
          w.spec.prefix,
          w.spec.end,
          REPLAY_CHUNK,
        );
        const needPrevious = w.spec.predicate !== undefined;
        for (const row of rows) this.deliver(w, this.fromRow(row, needPrevious));
        if (rows.length < REPLAY_CHUNK) {
          // Everything up to `target` is out; buffered changes newer than it go next, then live.
          w.lastRevision = Math.max(w.lastRevision, target);
          const buffered = w.buffered;
          w.buffered = [];
          w.replaying = false;
          for (const c of buffered) {
            if (c.revision > w.lastRevision) this.deliver(w, new DecodedChange(c, true));
          }
          return;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      w.queue.fail(err as Error, w.lastRevision);
    }
  }

  /** `needPrevious`: only predicate watchers look at the state before a change, so only they pay for it. */
  private fromRow(row: LogRow, needPrevious: boolean): DecodedChange {
    const type = row.deleted === 1 ? 'DELETED' : row.created === row.revision ? 'ADDED' : 'MODIFIED';
    let previous: string | null = null;
    if (type === 'DELETED') previous = row.value;
    else if (type === 'MODIFIED' && needPrevious && row.prev !== null) {
      previous = this.deps.stmts.rowAt.get(row.prev)?.value ?? null;
    }
    return new DecodedChange({ revision: row.revision, key: row.key, type, value: row.value, previous });
  }

  private notifyProgress(): void {
    const revision = this.deps.currentRevision();
    for (const w of this.watchers) {
      if (!w.spec.progressNotify || w.replaying) continue;
      if (w.active) {
        w.active = false;
        continue;
      }
      w.lastRevision = Math.max(w.lastRevision, revision);
      w.queue.push({ type: 'BOOKMARK', object: bookmarkObject(revision), revision });
    }
  }
}
