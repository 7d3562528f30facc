// The truncating wrapper (upstream's plugin/pkg/audit/truncate, `--audit-<backend>-truncate-*`):
// - an event whose JSON is larger than maxEventSize, at level Request or above, loses its
//   request and response objects and gains the annotation `audit.<group domain>/truncated: "true"`
//   (the profile's audit group); one still too large is dropped and counted as a `truncate` error;
// - events are handed on in batches whose JSON adds up to at most maxBatchSize (a batch holds at
//   least one event), in order.

import { groupName, type NamingProfile } from '../../../naming/profile.ts';
import { type Accepted, type AuditBackend, type AuditEvent, allAccepted } from '../event-types.ts';
import type { PluginErrors } from './metrics.ts';

export interface TruncateConfig {
  maxEventSize: number;
  maxBatchSize: number;
}

const PLUGIN = 'truncate';

/** The levels whose events carry objects worth removing. */
const WITH_OBJECTS = new Set(['Request', 'RequestResponse']);

export class TruncatingBackend implements AuditBackend {
  readonly name: string;
  private readonly annotation: string;

  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: TruncateConfig,
    profile: NamingProfile,
    private readonly errors: PluginErrors,
  ) {
    this.name = `${PLUGIN}<${delegate.name}>`;
    this.annotation = `${groupName(profile, 'audit')}/truncated`;
  }

  private size(ev: AuditEvent): number {
    return Buffer.byteLength(JSON.stringify(ev));
  }

  processEvents(...events: AuditEvent[]): Accepted {
    const { maxEventSize, maxBatchSize } = this.config;
    const answers: Accepted[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    const impacted: AuditEvent[] = [];
    for (let ev of events) {
      let size = this.size(ev);
      if (size > maxEventSize && WITH_OBJECTS.has(ev.level)) {
        ev = this.truncate(ev);
        size = this.size(ev);
      }
      if (size > maxEventSize) {
        impacted.push(ev);
        continue;
      }
      if (batch.length > 0 && batchSize + size > maxBatchSize) {
        answers.push(this.delegate.processEvents(...batch));
        batch = [];
        batchSize = 0;
      }
      batch.push(ev);
      batchSize += size;
    }
    if (batch.length > 0) answers.push(this.delegate.processEvents(...batch));
    // Dropped events are reported, not refused, as upstream's wrapper answers.
    if (impacted.length > 0) this.errors.report(PLUGIN, 'event is too large even after truncating', impacted);
    return allAccepted(answers);
  }

  private truncate(ev: AuditEvent): AuditEvent {
    const { requestObject: _req, responseObject: _res, ...rest } = ev;
    return { ...rest, annotations: { ...ev.annotations, [this.annotation]: 'true' } };
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
