// The servers the observability scenario compares, as data both the scenario and the server
// program (observability-main.ts) read:
//   metrics-off     request metrics recording short-circuited (begin/end do nothing), audit off:
//                   a bench-only switch, the server has no option for it (metrics are always on);
//   metrics         the server as shipped: request metrics on, audit off;
//   metrics-again   the same as `metrics`, a second process: two identical servers differ by the
//                   machine's noise and each process's own compiled code, which is the floor
//                   under which the other comparisons say nothing;
//   audit-metadata  request metrics on, audit at Metadata level for every request to a JSON log
//                   file in the data directory, in the log backend's default (blocking) mode.

import { join } from 'node:path';
import { type Policy, policyRule } from '../../src/server/audit/policy-types.ts';
import type { ServerOptions } from '../../src/server/options.ts';

export const OBSERVABILITY_MODES = ['metrics-off', 'metrics', 'metrics-again', 'audit-metadata'] as const;
export type ObservabilityMode = (typeof OBSERVABILITY_MODES)[number];

export function isObservabilityMode(s: string): s is ObservabilityMode {
  return (OBSERVABILITY_MODES as readonly string[]).includes(s);
}

/** The audit log's name in the server's data directory. */
export const AUDIT_LOG = 'audit.log';

/** One rule, Metadata for everything: every request is recorded, without its bodies. */
export const METADATA_POLICY: Policy = {
  rules: [policyRule('Metadata')],
  omitStages: [],
  omitManagedFields: false,
};

/** The server options of a mode (the data directory and port as given). */
export function observabilityOptions(mode: ObservabilityMode, dir: string, port: number): ServerOptions {
  const options: ServerOptions = { dataDir: dir, securePort: port, bindAddress: '127.0.0.1' };
  if (mode === 'audit-metadata') {
    options.audit = { policy: METADATA_POLICY, log: { path: join(dir, AUDIT_LOG), format: 'json' } };
  }
  return options;
}
