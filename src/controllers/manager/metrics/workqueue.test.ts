// The work queues' metrics as the manager exposes them, on a fake clock: upstream's names, help
// texts with their class, the `name` label, the 10 ns exponential buckets, exact counts after a
// known sequence, unfinished work sampled at scrape, and two queues of one name sharing series.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../../client/testing/fake-clock.ts';
import { RateLimitingQueue } from '../../../client/work-queue/rate-limiting-queue.ts';
import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { parseExposition } from './exposition.ts';
import { WORKQUEUE_BUCKETS, WorkQueueMetrics } from './workqueue.ts';

const LE = [
  '1e-8',
  '1e-7',
  '0.000001',
  '0.000009999999999999999',
  '0.00009999999999999999',
  '0.001',
  '0.01',
  '0.1',
  '1',
  '10',
  '+Inf',
];

describe('work queue metrics in the manager registry', () => {
  it('exposes upstream names, help, buckets and exact values after a known sequence', async () => {
    const registry = new MetricsRegistry();
    const provider = new WorkQueueMetrics(registry);
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock, name: 'replicaset', metricsProvider: provider });
    q.add('a');
    q.add('b');
    clock.step(1000);
    await q.get(); // a waited 1 s
    clock.step(2);
    q.done('a'); // a worked 2 ms
    await q.get(); // b waited 1.002 s
    q.done('b'); // b worked 0 s
    q.addRateLimited('c'); // a retry, added 5 ms later
    clock.step(5);
    await q.get(); // c waited 0 s, and is still being worked on
    clock.step(3000);

    const e = parseExposition(await registry.metrics());
    const name = { name: 'replicaset' };
    assert.equal(e.help.get('workqueue_adds_total'), '[ALPHA] Total number of adds handled by workqueue');
    assert.equal(e.help.get('workqueue_depth'), '[ALPHA] Current depth of workqueue');
    assert.equal(
      e.help.get('workqueue_queue_duration_seconds'),
      '[ALPHA] How long in seconds an item stays in workqueue before being requested.',
    );
    assert.equal(
      e.help.get('workqueue_work_duration_seconds'),
      '[ALPHA] How long in seconds processing an item from workqueue takes.',
    );
    assert.equal(
      e.help.get('workqueue_unfinished_work_seconds'),
      "[ALPHA] How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    );
    assert.equal(
      e.help.get('workqueue_longest_running_processor_seconds'),
      '[ALPHA] How many seconds has the longest running processor for workqueue been running.',
    );
    assert.equal(
      e.help.get('workqueue_retries_total'),
      '[ALPHA] Total number of retries handled by workqueue',
    );
    assert.equal(e.type.get('workqueue_adds_total'), 'counter');
    assert.equal(e.type.get('workqueue_depth'), 'gauge');
    assert.equal(e.type.get('workqueue_queue_duration_seconds'), 'histogram');
    assert.equal(e.type.get('workqueue_unfinished_work_seconds'), 'gauge');

    assert.equal(e.value('workqueue_adds_total', name), 3);
    assert.equal(e.value('workqueue_depth', name), 0);
    assert.equal(e.value('workqueue_retries_total', name), 1);
    assert.equal(e.value('workqueue_unfinished_work_seconds', name), 3);
    assert.equal(e.value('workqueue_longest_running_processor_seconds', name), 3);

    assert.equal(WORKQUEUE_BUCKETS.length, 10);
    const buckets = (metric: string) =>
      LE.map((le) => e.value(`${metric}_bucket`, { name: 'replicaset', le }));
    // Waits: 0 (c), 1 (a), 1.002 (b).
    assert.deepEqual(buckets('workqueue_queue_duration_seconds'), [1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3]);
    assert.equal(e.value('workqueue_queue_duration_seconds_count', name), 3);
    assert.ok(Math.abs((e.value('workqueue_queue_duration_seconds_sum', name) ?? 0) - 2.002) < 1e-9);
    // Work done: 0.002 (a), 0 (b); c is unfinished.
    assert.deepEqual(buckets('workqueue_work_duration_seconds'), [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    assert.equal(e.value('workqueue_work_duration_seconds_count', name), 2);
  });

  it('sums the unfinished work of queues that share a name, and keeps the oldest', async () => {
    const registry = new MetricsRegistry();
    const provider = new WorkQueueMetrics(registry);
    const clock = new FakeClock();
    const name = 'serviceaccount_tokens_service';
    const accounts = new RateLimitingQueue<string>({ clock, name, metricsProvider: provider });
    const secrets = new RateLimitingQueue<string>({ clock, name, metricsProvider: provider });
    accounts.add('sa');
    await accounts.get();
    clock.step(2000);
    secrets.add('secret');
    secrets.add('other');
    await secrets.get();
    clock.step(1000);
    const e = parseExposition(await registry.metrics());
    assert.equal(e.value('workqueue_adds_total', { name }), 3);
    assert.equal(e.value('workqueue_depth', { name }), 1);
    assert.equal(e.value('workqueue_unfinished_work_seconds', { name }), 4);
    assert.equal(e.value('workqueue_longest_running_processor_seconds', { name }), 3);
    accounts.shutDown();
    secrets.shutDown();
    clock.step(1000);
    const after = parseExposition(await registry.metrics());
    assert.equal(
      after.value('workqueue_unfinished_work_seconds', { name }),
      4,
      'shut-down queues are no longer sampled: the last value stays',
    );
  });
});
