// One server per data directory. Two servers on one embedded store would interleave revisions and
// fail every write of the first; the second must refuse to start before it touches anything.
//
// Node offers no flock, so the lock is a file created exclusively (link(2) of a file already
// holding our identity, so a reader never sees it half written) that names its holder: pid and,
// on Linux, the process's start time, so that a pid reused after a crash is not taken for the
// holder. A lock whose holder is gone is taken over. Within one process a set of held directories
// stands in for the pid, which every server of the process shares.

import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const LOCK_FILE = 'lock';

/** Thrown when another live server holds the directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number,
  ) {
    super(`data directory ${dir} is in use by another server (pid ${holderPid})`);
  }
}

export interface DataDirLock {
  release(): void;
}

const heldHere = new Set<string>();

interface Holder {
  pid: number;
  /** Clock ticks since boot at which the holder started; undefined where /proc is not there. */
  startTime?: string;
}

/** Field 22 of /proc/<pid>/stat, after the command name (which may hold spaces and parentheses). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function parseHolder(text: string): Holder | undefined {
  const [pidLine, startLine] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, startTime: startLine === undefined || startLine === '' ? undefined : startLine };
}

function isAlive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (h.startTime === undefined) return true;
  const now = startTimeOf(h.pid);
  return now === undefined || now === h.startTime;
}

function readHolder(path: string): Holder | undefined {
  try {
    return parseHolder(readFileSync(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Throws when a live process other than this one holds the lock at `path`. */
function refuseIfHeld(path: string, dir: string): void {
  const holder = readHolder(path);
  // A file naming our own pid (and not in heldHere) was left by an earlier process that had our
  // pid, as a restarted container's pid 1 does: it is stale.
  if (holder !== undefined && holder.pid !== process.pid && isAlive(holder)) {
    throw new DataDirInUseError(dir, holder.pid);
  }
}

/**
 * Takes the directory (creating it 0700 if needed) or throws DataDirInUseError naming the holder.
 * Nothing in the directory is changed when the lock is refused.
 */
export function lockDataDir(dir: string): DataDirLock {
  const abs = resolve(dir);
  const path = join(abs, LOCK_FILE);
  if (heldHere.has(abs)) throw new DataDirInUseError(abs, process.pid);
  refuseIfHeld(path, abs);
  mkdirSync(abs, { recursive: true, mode: 0o700 });
  const me = `${process.pid}\n${startTimeOf(process.pid) ?? ''}\n`;
  const staged = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(staged, me, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(staged, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
      }
      refuseIfHeld(path, abs);
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(staged, { force: true });
  }
  heldHere.add(abs);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      heldHere.delete(abs);
      const holder = readHolder(path);
      if (holder?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}
