// The wall clock behind the client's Clock contract, and a sleep that a signal cuts short. Every
// loop of the client (queue delays, informer resync and backoff, leader election) takes a Clock so
// tests can step testing/'s FakeClock instead of waiting real time.

import type { Clock, ClockTimer } from '../api.ts';

/** setTimeout's own bound (about 24.8 days); longer delays are clamped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn: () => void, ms: number): ClockTimer {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    return { cancel: () => clearTimeout(t) };
  },
};

/** Resolves after `ms` on `clock`, or at once when `signal` aborts (never rejects). */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimer(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
