// Running a credential plugin once: its standard output collected (bounded), its standard error
// passed through, standard input given only to an interactive run, and a time limit so a plugin
// that hangs cannot stall every request behind it. Failures come back as PluginRunError with what
// went wrong; the credential source turns them into messages.

import { spawn } from 'node:child_process';

export interface PluginRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Standard input passed through (the plugin may ask the user); otherwise it reads nothing. */
  interactive: boolean;
  /** Where the plugin's standard error goes: this process's own, or a stream (tests). */
  stderr: 'inherit' | NodeJS.WritableStream;
  /** 0 for no limit. */
  timeoutMs: number;
  maxOutputBytes: number;
}

export type PluginFailure =
  | { kind: 'not-found' }
  | { kind: 'start'; code: string; message: string }
  | { kind: 'exit'; exitCode: number }
  | { kind: 'signal'; signal: string }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'too-much-output'; maxOutputBytes: number };

export class PluginRunError extends Error {
  readonly failure: PluginFailure;
  constructor(failure: PluginFailure) {
    super(failure.kind);
    this.name = 'PluginRunError';
    this.failure = failure;
  }
}

/** Runs the plugin to its end; resolves with its standard output. */
export function runPlugin(run: PluginRun): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const chunks: Buffer[] = [];
    let size = 0;

    const child = spawn(run.command, run.args, {
      env: run.env,
      stdio: [run.interactive ? 'inherit' : 'ignore', 'pipe', run.stderr === 'inherit' ? 'inherit' : 'pipe'],
      windowsHide: true,
    });

    // A killed plugin's children may hold its pipes open; the run ends at once all the same.
    const finish = (err: PluginRunError | undefined, out?: string) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      if (err !== undefined) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        child.stdout?.destroy();
        child.stderr?.destroy();
        reject(err);
      } else resolve(out ?? '');
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') finish(new PluginRunError({ kind: 'not-found' }));
      else finish(new PluginRunError({ kind: 'start', code: e.code ?? 'unknown', message: e.message }));
    });
    child.stdout?.on('data', (c: Buffer) => {
      size += c.length;
      if (size > run.maxOutputBytes)
        finish(new PluginRunError({ kind: 'too-much-output', maxOutputBytes: run.maxOutputBytes }));
      else chunks.push(c);
    });
    child.stdout?.on('error', () => {});
    if (run.stderr !== 'inherit' && child.stderr) {
      const sink = run.stderr;
      child.stderr.on('data', (c: Buffer) => sink.write(c));
      child.stderr.on('error', () => {});
    }
    child.on('close', (code, signal) => {
      if (code === 0) finish(undefined, Buffer.concat(chunks).toString('utf8'));
      else if (code !== null) finish(new PluginRunError({ kind: 'exit', exitCode: code }));
      else finish(new PluginRunError({ kind: 'signal', signal: signal ?? 'unknown' }));
    });
    if (run.timeoutMs > 0) {
      timer = setTimeout(
        () => finish(new PluginRunError({ kind: 'timeout', timeoutMs: run.timeoutMs })),
        run.timeoutMs,
      );
    }
  });
}
