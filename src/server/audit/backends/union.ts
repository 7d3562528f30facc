// Both backends at once (upstream's audit.Union): every event goes to each; the call succeeds
// when every backend accepted it.

import { type Accepted, type AuditBackend, type AuditEvent, allAccepted } from '../event-types.ts';

export class UnionBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly backends: readonly AuditBackend[]) {
    this.name = `union[${backends.map((b) => b.name).join(',')}]`;
  }

  processEvents(...events: AuditEvent[]): Accepted {
    return allAccepted(this.backends.map((b) => b.processEvents(...events)));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.backends.map((b) => b.shutdown()));
  }
}
