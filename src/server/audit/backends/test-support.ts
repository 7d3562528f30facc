// Shared by this folder's tests: events to record and reading a counter from the exposition text.

import type { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { groupName, namingProfile } from '../../../naming/profile.ts';
import type { AuditEvent } from '../event-types.ts';

export const SPEC = namingProfile('spec');
export const SPEC_AUDIT_VERSION = `${groupName(SPEC, 'audit')}/v1`;

/** A Metadata-level ResponseComplete event; `i` makes its ID and URI distinct. */
export function makeEvent(i: number, over: Partial<AuditEvent> = {}): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: SPEC_AUDIT_VERSION,
    level: 'Metadata',
    auditID: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/default/configmaps/cm-${i}`,
    verb: 'get',
    user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'test/1.0',
    objectRef: { resource: 'configmaps', namespace: 'default', name: `cm-${i}`, apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2026-11-26T17:00:00.123400Z',
    stageTimestamp: '2026-11-26T17:00:00.125000Z',
    ...over,
  };
}

/** The value of one series (`name{labels}` exactly as exposed), or 0 when absent. */
export async function metricValue(registry: MetricsRegistry, series: string): Promise<number> {
  for (const line of (await registry.metrics()).split('\n')) {
    const sp = line.lastIndexOf(' ');
    if (sp > 0 && line.slice(0, sp) === series) return Number(line.slice(sp + 1));
  }
  return 0;
}
