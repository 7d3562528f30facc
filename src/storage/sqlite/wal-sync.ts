// Durability without blocking the event loop. With `synchronous = FULL`, every commit fsyncs the WAL
// inside the synchronous driver call: measured under a watch load, a fifth of the event
// loop's time went to waiting on the disk, and every watcher's event waited behind it. Instead the
// connection commits with `synchronous = NORMAL` (the WAL is written, not synced) and the WAL file
// is fdatasync'ed here, in libuv's thread pool; the batcher acknowledges a batch's writes, and makes
// them visible, only once a sync that started after its commit has finished. Acknowledged writes
// are exactly as durable as before; the disk wait just no longer happens on the main thread.
//
// One sync runs at a time. Commits made while it runs wait for the next one, which covers them
// all: under load a sync carries many batches.

import { closeSync, existsSync, fdatasync, openSync } from 'node:fs';
import type { Db } from './schema.ts';

/** Syncs the commits made so far to disk; the callback hears when (or why not). */
export interface WalSync {
  sync(done: (err: Error | null) => void): void;
  close(): void;
}

/** Syncs on the WAL file's descriptor. */
class FileWalSync implements WalSync {
  private running = false;
  /** Callers waiting for the sync that starts after the running one. */
  private next: ((err: Error | null) => void)[] = [];

  constructor(private readonly fd: number) {}

  sync(done: (err: Error | null) => void): void {
    this.next.push(done);
    if (!this.running) this.start();
  }

  close(): void {
    closeSync(this.fd);
  }

  private start(): void {
    const waiting = this.next;
    this.next = [];
    this.running = true;
    fdatasync(this.fd, (err) => {
      this.running = false;
      for (const done of waiting) done(err);
      if (this.next.length > 0) this.start();
    });
  }
}

/**
 * Switches a WAL-mode file database to off-thread syncing and returns its syncer; returns
 * undefined, leaving `synchronous = FULL`, for anything else (an in-memory database, or a file
 * system where WAL mode was refused), which then syncs inside each commit as before.
 */
export function walSyncFor(db: Db, path: string): WalSync | undefined {
  const walPath = `${path}-wal`;
  if (path === ':memory:' || db.pragma('journal_mode') !== 'wal' || !existsSync(walPath)) return undefined;
  // SQLite keeps the WAL file (restarting it in place after checkpoints) while a connection is
  // open, so this descriptor stays on the file it writes.
  const fd = openSync(walPath, 'r');
  db.pragma('synchronous = NORMAL');
  return new FileWalSync(fd);
}
