// What a named queue records, on a fake clock, against a provider that writes down every call:
// adds (not duplicates; an add while processing counts), depth, waiting and working seconds,
// retries for every addAfter, the unfinished work sampled while workers hold items, and nothing at
// all for an unnamed queue or outside a provider's scope.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../testing/fake-clock.ts';
import type { UnfinishedWork, WorkQueueMetricsProvider } from './metrics.ts';
import { withWorkQueueMetrics } from './metrics.ts';
import { WorkQueue } from './queue.ts';
import { RateLimitingQueue } from './rate-limiting-queue.ts';

class RecordingProvider implements WorkQueueMetricsProvider {
  readonly calls: string[] = [];
  readonly made: string[] = [];
  readonly samplers = new Map<string, Set<() => UnfinishedWork>>();

  private note(what: string, name: string) {
    this.made.push(`${what} ${name}`);
  }

  newDepthMetric(name: string) {
    this.note('depth', name);
    return { inc: () => this.calls.push('depth+1'), dec: () => this.calls.push('depth-1') };
  }
  newAddsMetric(name: string) {
    this.note('adds', name);
    return { inc: () => this.calls.push('add') };
  }
  newLatencyMetric(name: string) {
    this.note('latency', name);
    return { observe: (s: number) => this.calls.push(`waited ${s}`) };
  }
  newWorkDurationMetric(name: string) {
    this.note('work', name);
    return { observe: (s: number) => this.calls.push(`worked ${s}`) };
  }
  newRetriesMetric(name: string) {
    this.note('retries', name);
    return { inc: () => this.calls.push('retry') };
  }
  trackUnfinishedWork(name: string, sample: () => UnfinishedWork) {
    const set = this.samplers.get(name) ?? new Set();
    this.samplers.set(name, set);
    set.add(sample);
    return () => set.delete(sample);
  }
  unfinished(name: string): UnfinishedWork[] {
    return [...(this.samplers.get(name) ?? [])].map((s) => s());
  }
}

describe('work queue metrics', () => {
  it('records adds, depth, waiting and working time, retries and unfinished work', async () => {
    const clock = new FakeClock();
    const p = new RecordingProvider();
    const q = new RateLimitingQueue<string>({ clock, name: 'test', metricsProvider: p });
    assert.deepEqual(p.made, ['depth test', 'adds test', 'latency test', 'work test', 'retries test']);

    q.add('a');
    q.add('b');
    q.add('a'); // already waiting: not an add
    clock.step(1000);
    assert.equal((await q.get()).item, 'a');
    q.add('a'); // while processing: counted, queued again once done
    clock.step(500);
    assert.deepEqual(p.unfinished('test'), [{ totalSeconds: 0.5, oldestSeconds: 0.5 }]);
    q.done('a');
    assert.equal((await q.get()).item, 'b');
    assert.equal((await q.get()).item, 'a');
    clock.step(250);
    assert.deepEqual(p.unfinished('test'), [{ totalSeconds: 0.5, oldestSeconds: 0.25 }]);
    q.done('a');
    q.done('b');
    assert.deepEqual(p.unfinished('test'), [{ totalSeconds: 0, oldestSeconds: 0 }]);

    q.addRateLimited('c'); // 5 ms, the default limiter's first backoff
    q.addAfter('d', 0);
    clock.step(5);
    assert.deepEqual(p.calls, [
      'add',
      'depth+1',
      'add',
      'depth+1',
      'depth-1',
      'waited 1',
      'add',
      'depth+1',
      'worked 0.5',
      'depth-1',
      'waited 1.5',
      'depth-1',
      'waited 0.5',
      'worked 0.25',
      'worked 0.25',
      'retry',
      'retry',
      'add',
      'depth+1',
      'add',
      'depth+1',
    ]);
    q.shutDown();
    assert.deepEqual(p.unfinished('test'), [], 'a shut-down queue is no longer sampled');
  });

  it('hands an item to a waiting worker with its wait recorded', async () => {
    const clock = new FakeClock();
    const p = new RecordingProvider();
    const q = new WorkQueue<string>({ clock, name: 'plain', metricsProvider: p });
    assert.ok(!p.made.includes('retries plain'), 'a queue without delays has no retries');
    const waiting = q.get();
    q.add('x');
    assert.equal((await waiting).item, 'x');
    assert.deepEqual(p.calls, ['add', 'depth+1', 'depth-1', 'waited 0']);
  });

  it('records nothing for an unnamed queue; a scope provides for queues made inside it', () => {
    const p = new RecordingProvider();
    withWorkQueueMetrics(p, () => {
      new RateLimitingQueue<string>().add('a');
      new RateLimitingQueue<string>({ name: 'scoped' }).add('a');
    });
    new RateLimitingQueue<string>({ name: 'outside' }).add('a');
    assert.deepEqual(p.made, [
      'depth scoped',
      'adds scoped',
      'latency scoped',
      'work scoped',
      'retries scoped',
    ]);
    assert.deepEqual(p.calls, ['add', 'depth+1']);
  });
});
