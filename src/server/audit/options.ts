// What a server's audit is started with: the library's form of the `--audit-*` flags (the program
// maps them one to one). Audit is on when a policy is given and at least one backend is.

import type { AuditBackend } from './event-types.ts';
import type { Policy } from './policy-types.ts';

/** How a backend hands events on: upstream's three modes. */
export type AuditBackendMode = 'blocking' | 'blocking-strict' | 'batch';

/** Upstream's batching knobs (`--audit-<backend>-batch-*`). */
export interface AuditBatchOptions {
  /** Events buffered before new ones are dropped (upstream: 10000). */
  bufferSize?: number;
  /** Most events in one batch (upstream: 1 for the log, 400 for the webhook). */
  maxSize?: number;
  /** Longest an event waits for its batch to fill (upstream: 30 s). */
  maxWaitMs?: number;
  /** Batches per second and burst when throttling (upstream: off for the log; 10 and 15 for the webhook). */
  throttleEnable?: boolean;
  throttleQps?: number;
  throttleBurst?: number;
}

/** `--audit-<backend>-truncate-*`: events past a size lose their request and response objects. */
export interface AuditTruncateOptions {
  enabled?: boolean;
  /** Largest batch in bytes (upstream: 10 MiB). */
  maxBatchSize?: number;
  /** Largest event in bytes (upstream: 100 KiB). */
  maxEventSize?: number;
}

export interface AuditLogOptions {
  /** `--audit-log-path`; `-` writes to standard output. */
  path: string;
  /** `--audit-log-format` (default json). */
  format?: 'json' | 'legacy';
  /** `--audit-log-maxage`: days an old file is kept (0: no limit). */
  maxAgeDays?: number;
  /** `--audit-log-maxbackup`: old files kept (0: no limit). */
  maxBackups?: number;
  /** `--audit-log-maxsize`: megabytes a file may grow to before it is rotated (0: no limit). */
  maxSizeMB?: number;
  /** `--audit-log-compress`: gzip rotated files. */
  compress?: boolean;
  /** `--audit-log-mode` (default blocking). */
  mode?: AuditBackendMode;
  batch?: AuditBatchOptions;
  truncate?: AuditTruncateOptions;
  /** `--audit-log-version` (only audit's v1). */
  version?: string;
}

export interface AuditWebhookOptions {
  /** `--audit-webhook-config-file`: a client configuration naming the receiver. */
  configFile: string;
  /** `--audit-webhook-initial-backoff` (upstream: 10 s). */
  initialBackoffMs?: number;
  /** `--audit-webhook-mode` (default batch). */
  mode?: AuditBackendMode;
  batch?: AuditBatchOptions;
  truncate?: AuditTruncateOptions;
  /** `--audit-webhook-version` (only audit's v1). */
  version?: string;
}

export interface AuditOptions {
  /** `--audit-policy-file`. */
  policyFile?: string;
  /** A policy given in memory (library callers and tests), in place of the file. */
  policy?: Policy;
  log?: AuditLogOptions;
  webhook?: AuditWebhookOptions;
  /**
   * A backend given in memory (library callers and tests), in place of the log and webhook
   * backends the options would make; it is shut down with the server.
   */
  backend?: AuditBackend;
}
