import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { groupName } from '../../../naming/profile.ts';
import type { AuditBackend, AuditEvent } from '../event-types.ts';
import { auditMetrics, PluginErrors } from './metrics.ts';
import { makeEvent, metricValue, SPEC } from './test-support.ts';
import { TruncatingBackend } from './truncate.ts';

class Recorder implements AuditBackend {
  readonly name = 'recorder';
  readonly batches: AuditEvent[][] = [];
  processEvents(...events: AuditEvent[]): boolean {
    this.batches.push(events);
    return true;
  }
  async shutdown(): Promise<void> {}
}

describe('audit truncate wrapper', () => {
  it('strips objects from large Request events, drops what is still too large, splits batches', async () => {
    const metrics = new MetricsRegistry();
    const rec = new Recorder();
    const size = (e: AuditEvent) => Buffer.byteLength(JSON.stringify(e));
    const small = makeEvent(1);
    const t = new TruncatingBackend(
      rec,
      { maxEventSize: size(small) + 100, maxBatchSize: 2 * size(small) + 200 },
      SPEC,
      new PluginErrors(auditMetrics(metrics), undefined),
    );
    assert.equal(t.name, 'truncate<recorder>');
    const big = makeEvent(2, {
      level: 'RequestResponse',
      annotations: { a: 'b' },
      requestObject: { x: 'y'.repeat(500) },
      responseObject: { x: 'z'.repeat(500) },
    });
    const bigMetadata = makeEvent(3, { userAgent: 'u'.repeat(1000) });
    const withinLimit = makeEvent(4, { level: 'Request', requestObject: { x: 1 } });
    assert.equal(t.processEvents(small, big, bigMetadata, withinLimit, makeEvent(5)), true);
    const ids = rec.batches.map((b) => b.map((e) => Number(e.auditID.slice(-2))));
    // Two events of about the small one's size fit in a batch; a third does not.
    assert.deepEqual(ids, [
      [1, 2],
      [4, 5],
    ]);
    const all = rec.batches.flat();
    for (const b of rec.batches) assert.ok(b.reduce((n, e) => n + size(e), 0) <= 2 * size(small) + 200);
    const truncated = all[1];
    assert.equal(truncated.requestObject, undefined);
    assert.equal(truncated.responseObject, undefined);
    assert.deepEqual(truncated.annotations, { a: 'b', [`${groupName(SPEC, 'audit')}/truncated`]: 'true' });
    assert.deepEqual(big.annotations, { a: 'b' }, 'the original event is untouched');
    assert.deepEqual(all[2].requestObject, { x: 1 });
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="truncate"}'), 1);
  });
});
