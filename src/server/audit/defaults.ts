// Upstream's defaults for the `--audit-*` flags (pkg/server/options/audit.go): the log writes as
// events come (blocking) and rotates at 100 MB keeping 100 files for 366 days; the webhook
// batches up to 400 events or 30 s, throttled to 10 batches a second (bursts of 15); truncation
// is off, and when on cuts events at 100 KiB and batches at 10 MiB.

import type { AuditBatchOptions, AuditTruncateOptions } from './options.ts';

export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
export const AUDIT_LOG_FORMATS = ['legacy', 'json'] as const;

export const AUDIT_TRUNCATE_DEFAULTS: Required<AuditTruncateOptions> = {
  enabled: false,
  maxBatchSize: 10 * 1024 * 1024,
  maxEventSize: 100 * 1024,
};

export const AUDIT_LOG_DEFAULTS = {
  maxAgeDays: 366,
  maxBackups: 100,
  maxSizeMB: 100,
  format: 'json' as const,
  compress: false,
  mode: 'blocking' as const,
  /** Batching is of no use to a file: one event a batch, no throttle, no wait. */
  batch: {
    bufferSize: 10000,
    maxSize: 1,
    maxWaitMs: 0,
    throttleEnable: false,
    throttleQps: 0,
    throttleBurst: 0,
  } satisfies Required<AuditBatchOptions>,
};

export const AUDIT_WEBHOOK_DEFAULTS = {
  initialBackoffMs: 10_000,
  mode: 'batch' as const,
  batch: {
    bufferSize: 10000,
    maxSize: 400,
    maxWaitMs: 30_000,
    throttleEnable: true,
    throttleQps: 10,
    throttleBurst: 15,
  } satisfies Required<AuditBatchOptions>,
};
