// Where the log backend's lines land: standard output, or a file rotated as upstream's log backend
// rotates it through lumberjack (rotating-file.ts). Writes are synchronous (write(2) before
// returning): the backend decides when to call them, so that many events cost one system call.

import { writeSync } from 'node:fs';

/** What went wrong writing lines: the error and the indexes of the lines not written. */
export interface WriteFailure {
  error: Error;
  failed: number[];
}

export interface LineSink {
  /** Writes each line (each ends with a newline); lines it could not write are named. */
  write(lines: readonly string[]): WriteFailure | undefined;
  /** Closes files and waits for rotation's clean-up (compression, removal). */
  close(): Promise<void>;
}

/** Writes all of `buf` to `fd`, retrying short writes and a non-blocking descriptor's EAGAIN. */
export function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  let again = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
      again = 0;
    } catch (err) {
      // A pipe reader slower than us: standard output may be non-blocking; give it a moment.
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || ++again > 10_000) throw err;
    }
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** `--audit-log-path -`: the process's standard output. */
export class StdoutSink implements LineSink {
  constructor(private readonly fd = 1) {}

  write(lines: readonly string[]): WriteFailure | undefined {
    if (lines.length === 0) return undefined;
    try {
      writeAll(this.fd, Buffer.from(lines.length === 1 ? lines[0] : lines.join('')));
      return undefined;
    } catch (err) {
      return { error: err as Error, failed: range(0, lines.length) };
    }
  }

  async close(): Promise<void> {}
}
