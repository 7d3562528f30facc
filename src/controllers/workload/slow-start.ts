// Slow start (upstream's slowStartBatch): calls that may all fail the same way (a quota, an
// admission webhook refusing every Pod) are made in batches of 1, 2, 4, ... so that a failing run
// costs a few requests instead of hundreds. Calls of a batch run concurrently; the first batch with
// a failure ends the run.

export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: size }, async () => fn()));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += size - failures.length;
    if (failures.length > 0) return { successes, error: failures[0]?.reason };
    remaining -= size;
  }
  return { successes };
}
