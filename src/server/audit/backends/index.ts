// The audit backends a server's options ask for, assembled as upstream's pkg/server/options/audit.go
// assembles them: the log (`--audit-log-*`) and the webhook (`--audit-webhook-*`), each in its mode
// (blocking, blocking-strict, batch) and optionally truncating, both at once as a union. The
// pipeline (filter, events) calls createAuditBackend once at start; a bad option or an unreadable
// webhook configuration throws, and the server does not start. Also what the pipeline counts
// with (auditMetrics) and the legacy one-line form of an event (eventString).

import { loadWebhookClientConfig } from '../../../auth/authn/webhook-client-config.ts';
import type { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { groupName, type NamingProfile, namingProfile } from '../../../naming/profile.ts';
import {
  AUDIT_LOG_DEFAULTS,
  AUDIT_LOG_FORMATS,
  AUDIT_MODES,
  AUDIT_TRUNCATE_DEFAULTS,
  AUDIT_WEBHOOK_DEFAULTS,
} from '../defaults.ts';
import type { Accepted, AuditBackend, AuditEvent } from '../event-types.ts';
import type {
  AuditBackendMode,
  AuditBatchOptions,
  AuditLogOptions,
  AuditOptions,
  AuditTruncateOptions,
  AuditWebhookOptions,
} from '../options.ts';
import { type BatchDelegate, BufferedBackend, type BufferedConfig } from './buffered.ts';
import { type LineSink, StdoutSink } from './line-sinks.ts';
import { LogBackend } from './log-backend.ts';
import { auditMetrics, PluginErrors } from './metrics.ts';
import { RotatingFile } from './rotating-file.ts';
import { TruncatingBackend } from './truncate.ts';
import { UnionBackend } from './union.ts';
import { WebhookBackend } from './webhook-backend.ts';

export { eventString } from './legacy-format.ts';
export { type AuditMetrics, auditMetrics } from './metrics.ts';

export interface AuditBackendDeps {
  metrics: MetricsRegistry;
  profile: NamingProfile;
  /** Where plugin errors and clean-up failures are logged. */
  log?: (m: string) => void;
  /** How long shutdown waits for webhook sends in flight (default 30 s, one request's limit). */
  shutdownTimeoutMs?: number;
}

const MODES: readonly AuditBackendMode[] = AUDIT_MODES;
const FORMATS: readonly string[] = AUDIT_LOG_FORMATS;
const MIB = 1024 * 1024;

/** Upstream's defaults (pkg/server/options/audit.go). */

interface Batch {
  mode: AuditBackendMode;
  config: Omit<BufferedConfig, 'shutdownTimeoutMs'>;
}

function batchOf(
  plugin: 'log' | 'webhook',
  mode: AuditBackendMode | undefined,
  b: AuditBatchOptions = {},
): Batch {
  const webhook = plugin === 'webhook';
  const defaults = webhook ? AUDIT_WEBHOOK_DEFAULTS.batch : AUDIT_LOG_DEFAULTS.batch;
  const throttleEnable = b.throttleEnable ?? defaults.throttleEnable;
  return {
    mode: mode ?? (webhook ? AUDIT_WEBHOOK_DEFAULTS.mode : AUDIT_LOG_DEFAULTS.mode),
    config: {
      bufferSize: b.bufferSize ?? defaults.bufferSize,
      maxSize: b.maxSize ?? defaults.maxSize,
      maxWaitMs: b.maxWaitMs ?? defaults.maxWaitMs,
      throttle: throttleEnable
        ? {
            qps: b.throttleQps ?? defaults.throttleQps,
            burst: b.throttleBurst ?? defaults.throttleBurst,
          }
        : undefined,
      async: webhook,
    },
  };
}

function truncateOf(t: AuditTruncateOptions = {}) {
  return {
    enabled: t.enabled ?? false,
    maxBatchSize: t.maxBatchSize ?? AUDIT_TRUNCATE_DEFAULTS.maxBatchSize,
    maxEventSize: t.maxEventSize ?? AUDIT_TRUNCATE_DEFAULTS.maxEventSize,
  };
}

/** Upstream's checks of one backend's batch, truncate and version options, in its words. */
function validateCommon(
  plugin: string,
  o: { mode?: AuditBackendMode; version?: string },
  batch: Batch,
  truncate: ReturnType<typeof truncateOf>,
  profile: NamingProfile,
): string[] {
  const errs: string[] = [];
  if (!MODES.includes(batch.mode))
    errs.push(`invalid audit ${plugin} mode ${batch.mode}, allowed modes are "${MODES.join(',')}"`);
  else if (batch.mode === 'batch') {
    const c = batch.config;
    if (!(c.bufferSize > 0))
      errs.push(`invalid audit batch ${plugin} buffer size ${c.bufferSize}, must be a positive number`);
    else if (!(c.maxSize > 0))
      errs.push(`invalid audit batch ${plugin} max batch size ${c.maxSize}, must be a positive number`);
    else if (c.throttle !== undefined && !(c.throttle.qps > 0))
      errs.push(`invalid audit batch ${plugin} throttle QPS ${c.throttle.qps}, must be a positive number`);
    else if (c.throttle !== undefined && !(c.throttle.burst > 0))
      errs.push(
        `invalid audit batch ${plugin} throttle burst ${c.throttle.burst}, must be a positive number`,
      );
  }
  if (!(truncate.maxEventSize > 0))
    errs.push(
      `invalid audit truncate ${plugin} max event size ${truncate.maxEventSize}, must be a positive number`,
    );
  else if (truncate.maxBatchSize < truncate.maxEventSize)
    errs.push(
      `invalid audit truncate ${plugin} max batch size ${truncate.maxBatchSize}, must be greater than max event size (${truncate.maxEventSize})`,
    );
  const v = o.version;
  const known = [
    `${groupName(namingProfile('upstream'), 'audit')}/v1`,
    `${groupName(profile, 'audit')}/v1`,
    'v1',
  ];
  if (v !== undefined && v !== '' && !known.includes(v))
    errs.push(`invalid group version, allowed versions are ["${known[1]}"]`);
  return errs;
}

function validateLog(
  o: AuditLogOptions,
  batch: Batch,
  truncate: ReturnType<typeof truncateOf>,
  profile: NamingProfile,
) {
  const errs = validateCommon('log', o, batch, truncate, profile);
  const format = o.format ?? AUDIT_LOG_DEFAULTS.format;
  if (!FORMATS.includes(format))
    errs.push(`invalid audit log format ${format}, allowed formats are "${FORMATS.join(',')}"`);
  if ((o.maxAgeDays ?? 0) < 0) errs.push(`--audit-log-maxage ${o.maxAgeDays} can't be a negative number`);
  if ((o.maxBackups ?? 0) < 0) errs.push(`--audit-log-maxbackup ${o.maxBackups} can't be a negative number`);
  if ((o.maxSizeMB ?? 0) < 0) errs.push(`--audit-log-maxsize ${o.maxSizeMB} can't be a negative number`);
  return errs;
}

/** The blocking mode's wrapper: failures are counted and logged, never refuse the request. */
class IgnoreErrors implements AuditBackend {
  readonly name: string;
  constructor(private readonly backend: AuditBackend) {
    this.name = `ignoreErrors<${backend.name}>`;
  }
  processEvents(...events: AuditEvent[]): Accepted {
    const answer = this.backend.processEvents(...events);
    // A webhook's delivery is still waited for; only its outcome is ignored.
    return answer instanceof Promise ? answer.then(() => true) : true;
  }
  shutdown(): Promise<void> {
    return this.backend.shutdown();
  }
}

function wrap(
  delegate: AuditBackend & BatchDelegate,
  batch: Batch,
  truncate: ReturnType<typeof truncateOf>,
  deps: AuditBackendDeps,
  errors: PluginErrors,
): AuditBackend {
  let backend: AuditBackend;
  if (batch.mode === 'blocking-strict') backend = delegate;
  else if (batch.mode === 'blocking') backend = new IgnoreErrors(delegate);
  else
    backend = new BufferedBackend(
      delegate,
      { ...batch.config, shutdownTimeoutMs: deps.shutdownTimeoutMs ?? 30_000 },
      errors,
    );
  return truncate.enabled ? new TruncatingBackend(backend, truncate, deps.profile, errors) : backend;
}

function logSink(o: AuditLogOptions, deps: AuditBackendDeps): LineSink {
  if (o.path === '-') return new StdoutSink();
  try {
    return new RotatingFile(o.path, {
      maxBytes: Math.round((o.maxSizeMB ?? AUDIT_LOG_DEFAULTS.maxSizeMB) * MIB),
      maxBackups: o.maxBackups ?? AUDIT_LOG_DEFAULTS.maxBackups,
      maxAgeDays: o.maxAgeDays ?? AUDIT_LOG_DEFAULTS.maxAgeDays,
      compress: o.compress ?? false,
      log: deps.log,
    });
  } catch (err) {
    throw new Error(`ensureLogFile: ${(err as Error).message}`);
  }
}

function createLog(o: AuditLogOptions, deps: AuditBackendDeps, errors: PluginErrors): AuditBackend {
  const batch = batchOf('log', o.mode, o.batch);
  const truncate = truncateOf(o.truncate);
  const errs = validateLog(o, batch, truncate, deps.profile);
  if (errs.length > 0) throw new Error(errs.join('; '));
  const log = new LogBackend(
    logSink(o, deps),
    o.format ?? 'json',
    `${groupName(deps.profile, 'audit')}/v1`,
    errors,
    batch.mode !== 'blocking',
  );
  return wrap(log, batch, truncate, deps, errors);
}

function createWebhook(o: AuditWebhookOptions, deps: AuditBackendDeps, errors: PluginErrors): AuditBackend {
  const batch = batchOf('webhook', o.mode, o.batch);
  const truncate = truncateOf(o.truncate);
  const errs = validateCommon('webhook', o, batch, truncate, deps.profile);
  if (errs.length > 0) throw new Error(errs.join('; '));
  let config: ReturnType<typeof loadWebhookClientConfig>;
  try {
    config = loadWebhookClientConfig(o.configFile);
  } catch (err) {
    throw new Error(`initializing audit webhook: ${(err as Error).message}`);
  }
  const webhook = new WebhookBackend(
    config,
    {
      // Receivers decode upstream's group, whatever the profile.
      apiVersion: `${groupName(namingProfile('upstream'), 'audit')}/v1`,
      initialBackoffMs: o.initialBackoffMs ?? AUDIT_WEBHOOK_DEFAULTS.initialBackoffMs,
      shutdownTimeoutMs: deps.shutdownTimeoutMs,
    },
    errors,
  );
  return wrap(webhook, batch, truncate, deps, errors);
}

/**
 * The backend the options ask for: undefined when neither the log nor the webhook is configured,
 * a union when both are. Throws (the server must not start) on an invalid option, a log file that
 * cannot be opened or an invalid webhook configuration file, naming the problem.
 */
export async function createAuditBackend(
  options: AuditOptions,
  deps: AuditBackendDeps,
): Promise<AuditBackend | undefined> {
  const errors = new PluginErrors(auditMetrics(deps.metrics), deps.log);
  const wantLog = options.log !== undefined && options.log.path !== '';
  const wantWebhook = options.webhook !== undefined && options.webhook.configFile !== '';
  // The webhook is checked first: a bad configuration must not leave a log file open.
  const webhook = wantWebhook && options.webhook ? createWebhook(options.webhook, deps, errors) : undefined;
  let log: AuditBackend | undefined;
  try {
    log = wantLog && options.log ? createLog(options.log, deps, errors) : undefined;
  } catch (err) {
    await webhook?.shutdown();
    throw err;
  }
  if (log !== undefined && webhook !== undefined) return new UnionBackend([log, webhook]);
  return log ?? webhook;
}
