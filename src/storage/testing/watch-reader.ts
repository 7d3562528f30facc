// Reads a watch stream in tests with a deadline, so a missing event fails fast instead of hanging.

import type { WatchEvent, WatchStream } from '../interface.ts';

export class WatchReader {
  private readonly iterator: AsyncIterator<WatchEvent>;
  private pending: Promise<IteratorResult<WatchEvent>> | null = null;

  constructor(readonly stream: WatchStream) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  /** The next event, or null when none arrives within `timeoutMs` or the stream ended. */
  async next(timeoutMs = 5000): Promise<WatchEvent | null> {
    this.pending ??= this.iterator.next();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([this.pending, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') return null;
    this.pending = null;
    return result.done ? null : result.value;
  }

  /** Exactly `n` events, skipping BOOKMARKs unless asked for; fails when they do not all arrive. */
  async take(n: number, opts: { timeoutMs?: number; bookmarks?: boolean } = {}): Promise<WatchEvent[]> {
    const out: WatchEvent[] = [];
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    while (out.length < n) {
      const left = deadline - Date.now();
      const ev = left > 0 ? await this.next(left) : null;
      if (ev === null) {
        throw new Error(`expected ${n} watch events, got ${out.length}: ${describe(out)}`);
      }
      if (ev.type === 'BOOKMARK' && !opts.bookmarks) continue;
      out.push(ev);
    }
    return out;
  }

  /** Asserts that no non-bookmark event arrives within `ms`. */
  async expectQuiet(ms = 300): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      const ev = await this.next(left);
      if (ev === null) return;
      if (ev.type !== 'BOOKMARK') throw new Error(`expected no event, got ${describe([ev])}`);
    }
  }

  stop(): void {
    this.stream.stop();
  }
}

export function describe(events: WatchEvent[]): string {
  return events.map((e) => `${e.type}(${e.object.metadata?.name ?? ''}@${e.revision})`).join(', ');
}
