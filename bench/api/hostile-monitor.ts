// What the hostile scenario watches besides its load: the server's resident memory once a second
// (with a safety stop, since a server that buffers for a thousand stalled readers can take the
// shared machine's memory with it), and the open-file limits that bound how many connections either
// side can hold.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rssMiB } from './target.ts';

/** Server RSS above this, or free memory of the machine below the floor, ends the phase early. */
export const SAFETY_RSS_MIB = 3072;
const SAFETY_FREE_MIB = 2048;

/** The machine's available memory in MiB; Infinity where /proc/meminfo is not. */
function availableMiB(): number {
  try {
    const m = /MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m === null ? Number.POSITIVE_INFINITY : Number(m[1]) / 1024;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export interface RssSample {
  /** Seconds since the monitor started. */
  s: number;
  mib: number;
  phase: string;
}

/**
 * Samples the server's RSS every second for the whole scenario, tagged with the phase running.
 * With no pid (a server named by a kubeconfig without --server-pid) it samples nothing.
 */
export class RssMonitor {
  readonly samples: RssSample[] = [];
  private phase = 'start';
  private readonly t0 = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private trip: ((why: string) => void) | undefined;
  /** Why the safety stop fired, if it did, with the phase it fired in. */
  tripped: string | undefined;

  constructor(private readonly pid: number | undefined) {}

  get known(): boolean {
    return this.pid !== undefined;
  }

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), 1000);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Enters a phase: its samples carry its name. The current RSS, sampled now. */
  enter(phase: string): number {
    this.phase = phase;
    return this.sample();
  }

  /** Resolves when the safety stop fires during the current phase; each call replaces the last. */
  guard(): Promise<string> {
    return new Promise((res) => {
      this.trip = res;
    });
  }

  /** The samples since a sample index (`mark()`), as MiB. */
  since(mark: number): number[] {
    return this.samples.slice(mark).map((x) => x.mib);
  }

  mark(): number {
    return this.samples.length;
  }

  /** Samples now; NaN when the pid is unknown or gone. */
  sample(): number {
    if (this.pid === undefined) return Number.NaN;
    let mib: number;
    try {
      mib = rssMiB(this.pid);
    } catch {
      return Number.NaN;
    }
    this.samples.push({ s: Math.round((performance.now() - this.t0) / 100) / 10, mib, phase: this.phase });
    const free = availableMiB();
    if (mib > SAFETY_RSS_MIB || free < SAFETY_FREE_MIB) {
      const why = `${this.phase}: server RSS ${Math.round(mib)} MiB, machine free ${Math.round(free)} MiB`;
      this.tripped ??= why;
      this.trip?.(why);
    }
    return mib;
  }
}

/** The open-file limits of a process (`self` or a pid), from /proc; undefined where unreadable. */
export function openFileLimit(pid: number | 'self'): { soft: number; hard: number } | undefined {
  try {
    const m = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(
      readFileSync(`/proc/${pid}/limits`, 'utf8'),
    );
    if (m === null) return undefined;
    const n = (x: string) => (x === 'unlimited' ? Number.POSITIVE_INFINITY : Number(x));
    return { soft: n(m[1]), hard: n(m[2]) };
  } catch {
    return undefined;
  }
}

/**
 * Raises this process's soft open-file limit toward `needed` (up to the hard limit) with
 * prlimit(1), Node having no setrlimit. Servers this harness starts inherit it. Answers the soft
 * limit in force afterwards (Infinity when unknown) and what happened, for the notes.
 */
export function raiseOpenFileLimit(needed: number): { soft: number; note: string } {
  const before = openFileLimit('self');
  if (before === undefined) return { soft: Number.POSITIVE_INFINITY, note: 'open-file limit unknown' };
  if (before.soft >= needed) return { soft: before.soft, note: `open-file limit ${before.soft}` };
  const target = Math.min(before.hard, Math.max(needed, before.soft));
  spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${target}:${before.hard}`], {
    stdio: 'ignore',
  });
  const after = openFileLimit('self') ?? before;
  return {
    soft: after.soft,
    note:
      after.soft > before.soft
        ? `open-file limit raised from ${before.soft} to ${after.soft}`
        : `open-file limit ${after.soft} (hard ${before.hard}; prlimit could not raise it)`,
  };
}
