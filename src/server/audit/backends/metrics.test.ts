import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { auditMetrics } from './metrics.ts';

describe('audit metrics', () => {
  it('exposes upstream names, help and labels, shared by everyone using the registry', async () => {
    const registry = new MetricsRegistry();
    const m = auditMetrics(registry);
    assert.equal(auditMetrics(registry), m);
    m.observeEvent();
    m.observeEvent();
    m.observePolicyLevel('Metadata');
    m.observePolicyLevel('Metadata');
    m.observePolicyLevel('RequestResponse');
    m.requestRejected();
    m.pluginErrors('webhook', 3);
    const text = await registry.metrics();
    const expected = [
      '# HELP apiserver_audit_event_total [ALPHA] Counter of audit events generated and sent to the audit backend.',
      '# TYPE apiserver_audit_event_total counter',
      'apiserver_audit_event_total 2',
      '# HELP apiserver_audit_error_total [ALPHA] Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      '# TYPE apiserver_audit_error_total counter',
      'apiserver_audit_error_total{plugin="webhook"} 3',
      '# HELP apiserver_audit_level_total [ALPHA] Counter of policy levels for audit events (1 per request).',
      '# TYPE apiserver_audit_level_total counter',
      'apiserver_audit_level_total{level="Metadata"} 2',
      'apiserver_audit_level_total{level="RequestResponse"} 1',
      '# HELP apiserver_audit_requests_rejected_total [ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.',
      '# TYPE apiserver_audit_requests_rejected_total counter',
      'apiserver_audit_requests_rejected_total 1',
    ];
    for (const line of expected) assert.ok(text.split('\n').includes(line), `missing: ${line}\n${text}`);
  });
});
