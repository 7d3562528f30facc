// The audit log file, rotated as upstream's log backend rotates it (lumberjack v2):
// - a write that would take the file past maxBytes first renames it to `<name>-<timestamp><ext>`
//   (UTC, `2006-01-02T15-04-05.000`, beside the file) and starts a new file of the same name; a
//   line longer than maxBytes is refused (lumberjack's "write length ... exceeds maximum file
//   size"); 0 never rotates (upstream then opens the file without lumberjack);
// - after each rotation, in the background: backups past maxBackups (newest kept, a backup and its
//   .gz counted once) and those whose timestamp is older than maxAgeDays are removed, and the rest
//   gzipped (`.gz` appended, the original removed) when compress is on;
// - files are created with mode 0600 in a directory made with 0700, as upstream's ensureLogFile.
// Unlike lumberjack, two rotations within one millisecond do not overwrite each other's backup:
// the later one takes the next free millisecond.

import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
} from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { type LineSink, type WriteFailure, writeAll } from './line-sinks.ts';

export interface RotationOptions {
  /** Bytes a file may grow to; 0 never rotates. */
  maxBytes: number;
  /** Backups kept; 0 keeps all. */
  maxBackups: number;
  /** Days a backup is kept by the timestamp in its name; 0 keeps them whatever their age. */
  maxAgeDays: number;
  compress: boolean;
  /** Told of clean-up failures (lumberjack ignores them). */
  log?: (m: string) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const FILE_MODE = 0o600;

/** `2006-01-02T15-04-05.000` in UTC. */
export function backupTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseBackupTimestamp(s: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)\.(\d{3})$/.exec(s);
  if (m === null) return undefined;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]);
  return Number.isNaN(t) ? undefined : t;
}

interface Backup {
  name: string;
  time: number;
}

export class RotatingFile implements LineSink {
  private fd: number;
  private size: number;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  private lastBackupMs = 0;
  private milling: Promise<void> = Promise.resolve();
  private millQueued = false;

  constructor(
    private readonly path: string,
    private readonly opts: RotationOptions,
  ) {
    this.dir = dirname(path);
    this.ext = extname(basename(path));
    this.prefix = `${basename(path).slice(0, basename(path).length - this.ext.length)}-`;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(path, 'a', FILE_MODE);
    this.size = fstatSync(this.fd).size;
  }

  write(lines: readonly string[]): WriteFailure | undefined {
    const max = this.opts.maxBytes;
    if (max <= 0) return this.writeRun(lines, 0, lines.length);
    // Whole lines go in one write while they fit; the file rotates between lines, never inside one.
    let failure: WriteFailure | undefined;
    let start = 0;
    let runBytes = 0;
    for (let i = 0; i < lines.length; i++) {
      const len = Buffer.byteLength(lines[i]);
      if (len > max) {
        failure = this.merge(failure, this.writeRun(lines, start, i));
        failure = this.merge(failure, {
          error: new Error(`write length ${len} exceeds maximum file size ${max}`),
          failed: [i],
        });
        start = i + 1;
        runBytes = 0;
        continue;
      }
      if (this.size + runBytes + len > max) {
        failure = this.merge(failure, this.writeRun(lines, start, i));
        start = i;
        runBytes = 0;
        try {
          this.rotate();
        } catch (err) {
          return this.merge(failure, { error: err as Error, failed: rangeOf(i, lines.length) });
        }
      }
      runBytes += len;
    }
    return this.merge(failure, this.writeRun(lines, start, lines.length));
  }

  private merge(a: WriteFailure | undefined, b: WriteFailure | undefined): WriteFailure | undefined {
    if (a === undefined) return b;
    if (b === undefined) return a;
    return { error: a.error, failed: [...a.failed, ...b.failed] };
  }

  private writeRun(lines: readonly string[], from: number, to: number): WriteFailure | undefined {
    if (from >= to) return undefined;
    const buf = Buffer.from(to - from === 1 ? lines[from] : lines.slice(from, to).join(''));
    try {
      writeAll(this.fd, buf);
      this.size += buf.length;
      return undefined;
    } catch (err) {
      return { error: err as Error, failed: rangeOf(from, to) };
    }
  }

  /** Moves the file aside under a timestamped name and starts a new one; then cleans up. */
  private rotate(): void {
    closeSync(this.fd);
    let ms = Math.max(Date.now(), this.lastBackupMs + 1);
    let name = this.backupPath(ms);
    while (existsSync(name) || existsSync(`${name}.gz`)) name = this.backupPath(++ms);
    this.lastBackupMs = ms;
    try {
      renameSync(this.path, name);
    } finally {
      // Whatever the rename did, the server keeps a file to write to.
      this.fd = openSync(this.path, 'w', FILE_MODE);
      this.size = 0;
    }
    this.mill();
  }

  private backupPath(ms: number): string {
    return join(this.dir, `${this.prefix}${backupTimestamp(ms)}${this.ext}`);
  }

  /** One clean-up after the running one, however many rotations asked (lumberjack's mill). */
  private mill(): void {
    const o = this.opts;
    if (o.maxBackups === 0 && o.maxAgeDays === 0 && !o.compress) return;
    if (this.millQueued) return;
    this.millQueued = true;
    this.milling = this.milling.then(async () => {
      this.millQueued = false;
      try {
        await this.millOnce();
      } catch (err) {
        o.log?.(`audit log clean-up in ${this.dir}: ${(err as Error).message}`);
      }
    });
  }

  /** Backups beside the file, newest first. */
  private async backups(): Promise<Backup[]> {
    const out: Backup[] = [];
    for (const name of await readdir(this.dir)) {
      if (!name.startsWith(this.prefix)) continue;
      const bare = name.endsWith('.gz') ? name.slice(0, -3) : name;
      if (!bare.endsWith(this.ext)) continue;
      const time = parseBackupTimestamp(bare.slice(this.prefix.length, bare.length - this.ext.length));
      if (time === undefined) continue;
      if (!(await stat(join(this.dir, name))).isFile()) continue;
      out.push({ name, time });
    }
    return out.sort((a, b) => b.time - a.time);
  }

  private async millOnce(): Promise<void> {
    const o = this.opts;
    let files = await this.backups();
    const remove: Backup[] = [];
    if (o.maxBackups > 0 && files.length > o.maxBackups) {
      const kept = new Set<string>();
      const remaining: Backup[] = [];
      for (const f of files) {
        kept.add(f.name.endsWith('.gz') ? f.name.slice(0, -3) : f.name);
        if (kept.size > o.maxBackups) remove.push(f);
        else remaining.push(f);
      }
      files = remaining;
    }
    if (o.maxAgeDays > 0) {
      const cutoff = Date.now() - o.maxAgeDays * DAY_MS;
      for (const f of files) if (f.time < cutoff) remove.push(f);
      files = files.filter((f) => f.time >= cutoff);
    }
    let firstError: Error | undefined;
    for (const f of remove) {
      try {
        await unlink(join(this.dir, f.name));
      } catch (err) {
        firstError ??= err as Error;
      }
    }
    if (o.compress) {
      for (const f of files) {
        if (f.name.endsWith('.gz')) continue;
        try {
          await compressFile(join(this.dir, f.name));
        } catch (err) {
          firstError ??= err as Error;
        }
      }
    }
    if (firstError !== undefined) throw firstError;
  }

  async close(): Promise<void> {
    closeSync(this.fd);
    this.fd = -1;
    await this.milling;
  }
}

function rangeOf(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** `<file>.gz` with the file's mode, then the file removed; a half-written .gz is removed. */
async function compressFile(src: string): Promise<void> {
  const dst = `${src}.gz`;
  const { mode } = await stat(src);
  try {
    await pipeline(createReadStream(src), createGzip(), createWriteStream(dst, { mode: mode & 0o777 }));
  } catch (err) {
    await unlink(dst).catch(() => {});
    throw new Error(`failed to compress log file: ${(err as Error).message}`);
  }
  await unlink(src);
}
