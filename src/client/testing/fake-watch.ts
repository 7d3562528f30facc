// A watch stream fed by the fake cluster: events are pushed into a buffer and handed to the
// iterator in order; ending it (server side: timeout, expiry, closeWatches) or stopping it (client
// side: stop(), break, the signal) finishes the iteration after the buffered events.

import type { ApiObject } from '../../machinery/object.ts';
import type { WatchEvent, WatchStream } from '../api.ts';

export class FakeWatchStream<T extends ApiObject = ApiObject> implements WatchStream<T> {
  private readonly buffer: WatchEvent<T>[] = [];
  private waiter: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  private ended = false;
  private readonly onEnd: (() => void)[] = [];

  /** Whether the stream has ended (either side). */
  get closed(): boolean {
    return this.ended;
  }

  /** Runs `fn` once when the stream ends, whichever side ends it. */
  whenEnded(fn: () => void): void {
    if (this.ended) fn();
    else this.onEnd.push(fn);
  }

  push(ev: WatchEvent<T>): void {
    if (this.ended) return;
    const w = this.waiter;
    if (w !== undefined) {
      this.waiter = undefined;
      w({ value: ev, done: false });
    } else this.buffer.push(ev);
  }

  /** Ends the stream; buffered events are still delivered first. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined, done: true });
    for (const fn of this.onEnd.splice(0)) fn();
  }

  stop(): void {
    this.buffer.length = 0;
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: (): Promise<IteratorResult<WatchEvent<T>>> => {
        const ev = this.buffer.shift();
        if (ev !== undefined) return Promise.resolve({ value: ev, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: (): Promise<IteratorResult<WatchEvent<T>>> => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
