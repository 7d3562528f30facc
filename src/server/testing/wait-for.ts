// Waiting for a condition in tests: probe, check, pause briefly, again, until it holds or a bound of
// tens of seconds passes (DESIGN.md, "Tests that hold on a busy machine"). One helper, so that no
// test writes its own polling loop with its own pause.

/** How long a wait may take before the test fails: generous, for a loaded 2-core machine. */
export const WAIT_BOUND_MS = 30_000;
/** The pause between probes. Not a wait for anything: only how often to look. */
const PROBE_INTERVAL_MS = 20;

/**
 * Probes until `done` accepts the probe's value, and answers that value; fails naming `what`
 * after `boundMs`. With `settle`, answers the last value at the bound instead of failing (for a
 * caller that asserts on it with a better message).
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  opts: { boundMs?: number; settle?: boolean } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.boundMs ?? WAIT_BOUND_MS);
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      if (opts.settle) return value;
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS));
  }
}

/** Waits until `cond` holds. */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  boundMs?: number,
): Promise<void> {
  await waitFor(cond, (held) => held, what, { boundMs });
}
