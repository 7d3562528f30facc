// Compaction: drops every row that is no longer the newest state of its key at the compaction
// revision, and tombstones at or below it. Work goes in small transactions with a pause between
// them so writers are never held up for long; the compacted mark advances with each batch, so a
// read is refused exactly when the rows it would need may be gone.
//
// Each row names its predecessor (`prev`), so the rows a batch of revisions supersedes are found by
// primary key, without scanning the log for older versions.
//
// What is compacted leaves the files: the connection zeroes deleted rows and freed pages
// (`secure_delete`, schema.ts), but in WAL mode the zeroed pages are new WAL frames, and the
// frames holding the rows' earlier images stay readable in the WAL until it is overwritten. So a
// compaction ends with a TRUNCATE checkpoint: the zeroed pages are copied over the database
// file's old ones and the WAL is cut to nothing. It runs when the schedule compacts (once a
// minute by default), costing one full checkpoint then, which SQLite does every 16 MiB of WAL anyway.

import type { Revision } from '../interface.ts';
import type { KeyIndex } from './key-index.ts';
import type { Db, Statements } from './schema.ts';

const BATCH = 1000;

export class Compactor {
  private compacted: Revision;
  private running: Promise<void> = Promise.resolve();
  private readonly runBatch: (from: Revision, to: Revision) => Revision;

  constructor(
    private readonly db: Db,
    stmts: Statements,
    private readonly keys: KeyIndex,
    currentRevision: () => Revision,
  ) {
    this.compacted = stmts.getMeta.get('compacted')?.value ?? 0;
    this.runBatch = db.transaction((from: Revision, to: Revision): Revision => {
      // The newest row may go in this batch; the revision must not go with it (see schema.ts).
      stmts.setMeta.run(currentRevision(), 'revision');
      const rows = stmts.compactBatch.all(from, to, BATCH);
      for (const row of rows) {
        if (row.prev !== null) {
          stmts.deleteRow.run(row.prev);
          this.keys.forget(row.key, row.prev);
        }
        if (row.deleted === 1) {
          stmts.deleteRow.run(row.revision);
          this.keys.forget(row.key, row.revision);
        }
      }
      const reached = rows.length < BATCH ? to : rows[rows.length - 1].revision;
      stmts.setMeta.run(reached, 'compacted');
      return reached;
    });
  }

  get compactedRevision(): Revision {
    return this.compacted;
  }

  /** Compacts through `revision`; calls queue up so that two never interleave. */
  compact(revision: Revision): Promise<void> {
    this.running = this.running.then(() => this.compactThrough(revision));
    return this.running;
  }

  private async compactThrough(target: Revision): Promise<void> {
    if (this.compacted >= target) return;
    while (this.compacted < target) {
      // Entries still in the overlay would outlive their rows; push them to keyidx first.
      this.keys.flush();
      this.compacted = this.runBatch(this.compacted, target);
      if (this.compacted < target) await new Promise((resolve) => setImmediate(resolve));
    }
    this.clearWal();
  }

  /**
   * Copies the zeroed pages into the database file and empties the WAL (see the header). Busy
   * (another connection, a backup tool say, still reading) leaves the WAL for the next compaction,
   * which tries again: the busy timeout is off meanwhile, since a TRUNCATE checkpoint would
   * otherwise wait out those readers on the event loop for up to the connection's 5 s.
   */
  private clearWal(): void {
    const timeout = this.db.pragma('busy_timeout');
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.pragma(`busy_timeout = ${Number(timeout)}`);
    }
  }
}

/**
 * Chooses compaction targets by age: every `intervalMs` it records the current revision, and
 * compacts through the newest recorded revision that is at least `windowMs` old.
 */
export class CompactionSchedule {
  private readonly samples: { at: number; revision: Revision }[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly windowMs: number,
    intervalMs: number,
    private readonly currentRevision: () => Revision,
    private readonly compact: (revision: Revision) => Promise<void>,
    private readonly onError: (err: Error) => void,
  ) {
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
    this.samples.push({ at: Date.now(), revision: currentRevision() });
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    const now = Date.now();
    this.samples.push({ at: now, revision: this.currentRevision() });
    let target: Revision | undefined;
    while (this.samples.length > 0 && now - this.samples[0].at >= this.windowMs) {
      target = this.samples.shift()!.revision;
    }
    if (target !== undefined && target > 0) this.compact(target).catch(this.onError);
  }
}
