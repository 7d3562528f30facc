// The controllers scenario measures memory in child processes, where nothing but the measured
// cache lives: this file starts them (TypeScript through tsx, with --expose-gc), exchanges one
// message at a time with them over the IPC channel, and holds the settled memory sample they take.

import { type ChildProcess, fork } from 'node:child_process';
import { ROOT } from '../lib/program.ts';

export interface MemorySample {
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

// Why a cast: --expose-gc puts gc on the global object, and @types/node declares it only as optional.
const collect = (globalThis as { gc?: () => void }).gc;

/** Garbage collected twice (a second pass frees what the first one's finalizers let go). */
export async function settledMemory(): Promise<MemorySample> {
  if (collect === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 2; i++) {
    collect();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers };
}

/** A child's answer to one message: its reply, or the error it reports. */
type Answer<T> = { reply: T } | { error: string };

export class Child {
  private readonly exited: Promise<number | null>;

  private constructor(private readonly proc: ChildProcess) {
    this.exited = new Promise((r) => proc.once('exit', (code) => r(code)));
  }

  /** Starts `module` (a path under bench/) in a child Node process with garbage collection exposed. */
  static start(module: URL): Child {
    const proc = fork(module, [], {
      cwd: ROOT,
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Child(proc);
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** The next message the child sends; rejects if it exits first or reports an error. */
  next<T>(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onMessage = (m: Answer<T>) => {
        this.proc.off('exit', onExit);
        if ('error' in m) reject(new Error(`child ${this.proc.pid}: ${m.error}`));
        else resolve(m.reply);
      };
      const onExit = (code: number | null) => {
        this.proc.off('message', onMessage);
        reject(new Error(`child ${this.proc.pid} exited with ${code} before answering`));
      };
      this.proc.once('message', onMessage);
      this.proc.once('exit', onExit);
    });
  }

  /** Sends a message and waits for the answer. */
  ask<T>(message: unknown): Promise<T> {
    const answer = this.next<T>();
    this.proc.send(message as object);
    return answer;
  }

  /** Asks the child to stop, and kills it if it has not exited after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
