// Audit's flags (`--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*`) with kube-apiserver's
// names and defaults (help in our own words), and their mapping onto AuditOptions. Values are only
// parsed here (an integer must be an integer); upstream's checks of modes, formats, sizes and versions run where
// the options are used (src/server/audit/options-validation.ts), so the library and the program
// refuse the same things, and only for a backend that is on, as upstream checks them.

import {
  AUDIT_LOG_DEFAULTS,
  AUDIT_MODES,
  AUDIT_TRUNCATE_DEFAULTS,
  AUDIT_WEBHOOK_DEFAULTS,
} from '../server/audit/defaults.ts';
import type {
  AuditBackendMode,
  AuditBatchOptions,
  AuditOptions,
  AuditTruncateOptions,
} from '../server/audit/options.ts';
import { type FlagSpec, type FlagValues, flag } from './flag-parser.ts';
import { bool, duration, text } from './flag-values.ts';

/** Go's strconv.ParseInt, as pflag's int flags read (negative numbers parse; validation refuses them). */
function int(v: string): number {
  if (!/^[+-]?\d+$/.test(v))
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

/** Go's strconv.ParseFloat, as pflag's float32 flags read. */
function float(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) {
    throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
  }
  return n;
}

const MODES_TEXT = AUDIT_MODES.join(',');

function batchFlags(
  plugin: 'log' | 'webhook',
  mode: AuditBackendMode,
  d: Required<AuditBatchOptions>,
): FlagSpec[] {
  const p = `audit-${plugin}`;
  return [
    flag({
      name: `${p}-mode`,
      arg: '<mode>',
      description: `one of ${MODES_TEXT}: blocking holds the response until its events are sent, batch buffers them and sends in the background`,
      parse: text,
      default: mode,
    }),
    flag({
      name: `${p}-batch-buffer-size`,
      arg: '<n>',
      description: 'events buffered before batching (batch mode only)',
      parse: int,
      default: d.bufferSize,
    }),
    flag({
      name: `${p}-batch-max-size`,
      arg: '<n>',
      description: 'most events in one batch (batch mode only)',
      parse: int,
      default: d.maxSize,
    }),
    flag({
      name: `${p}-batch-max-wait`,
      arg: '<duration>',
      description: 'longest a batch under the max size waits before it is sent anyway (batch mode only)',
      parse: duration,
      default: d.maxWaitMs,
    }),
    flag({
      name: `${p}-batch-throttle-enable`,
      boolean: true,
      description: 'limit the rate at which batches are sent (batch mode only)',
      parse: bool,
      default: d.throttleEnable,
    }),
    flag({
      name: `${p}-batch-throttle-qps`,
      arg: '<qps>',
      description: 'average batches per second allowed under the throttle (batch mode only)',
      parse: float,
      default: d.throttleQps,
    }),
    flag({
      name: `${p}-batch-throttle-burst`,
      arg: '<n>',
      description: 'batches that may go out at once when earlier throttle qps went unused (batch mode only)',
      parse: int,
      default: d.throttleBurst,
    }),
  ];
}

function truncateFlags(plugin: 'log' | 'webhook'): FlagSpec[] {
  const p = `audit-${plugin}`;
  return [
    flag({
      name: `${p}-truncate-enabled`,
      boolean: true,
      description: 'cut events and split batches that pass the truncate size limits',
      parse: bool,
      default: AUDIT_TRUNCATE_DEFAULTS.enabled,
    }),
    flag({
      name: `${p}-truncate-max-batch-size`,
      arg: '<bytes>',
      description:
        'bytes per batch, larger ones split (the serialized batch may run a few hundred bytes over)',
      parse: int,
      default: AUDIT_TRUNCATE_DEFAULTS.maxBatchSize,
    }),
    flag({
      name: `${p}-truncate-max-event-size`,
      arg: '<bytes>',
      description:
        'bytes per event: a larger one loses its request and response objects, and is dropped if still too large',
      parse: int,
      default: AUDIT_TRUNCATE_DEFAULTS.maxEventSize,
    }),
  ];
}

const optionalText = (name: string, arg: string, description: string) =>
  flag<string | undefined>({ name, arg, description, parse: text, default: undefined });

export const AUDIT_FLAGS: FlagSpec[] = [
  optionalText(
    'audit-policy-file',
    '<file>',
    'audit policy file (which requests are recorded, and at which level)',
  ),
  optionalText(
    'audit-log-path',
    '<file>',
    "file every request is audit-logged to ('-' for standard output); unset: no log backend",
  ),
  flag({
    name: 'audit-log-maxage',
    arg: '<days>',
    description: 'days a rotated audit log file is kept, by the timestamp in its name (0: no age limit)',
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxAgeDays,
  }),
  flag({
    name: 'audit-log-maxbackup',
    arg: '<n>',
    description: 'rotated audit log files kept (0: no limit on their number)',
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxBackups,
  }),
  flag({
    name: 'audit-log-maxsize',
    arg: '<MB>',
    description:
      'megabytes the audit log file reaches before it is rotated (0 turns rotation off; not advised)',
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxSizeMB,
  }),
  flag({
    name: 'audit-log-format',
    arg: '<format>',
    description: 'one of legacy,json: legacy writes a text line per event, json a structured object',
    parse: text,
    default: AUDIT_LOG_DEFAULTS.format,
  }),
  optionalText(
    'audit-log-version',
    '<group/version>',
    "group/version the log backend encodes events as (default: the audit group's v1)",
  ),
  flag({
    name: 'audit-log-compress',
    boolean: true,
    description: 'gzip the audit log files once rotated',
    parse: bool,
    default: AUDIT_LOG_DEFAULTS.compress,
  }),
  ...batchFlags('log', AUDIT_LOG_DEFAULTS.mode, AUDIT_LOG_DEFAULTS.batch),
  ...truncateFlags('log'),
  optionalText(
    'audit-webhook-config-file',
    '<file>',
    'client configuration file of the audit webhook; unset: no webhook backend',
  ),
  flag({
    name: 'audit-webhook-initial-backoff',
    arg: '<duration>',
    description: 'wait before the first retry of a failed request to the webhook',
    parse: duration,
    default: AUDIT_WEBHOOK_DEFAULTS.initialBackoffMs,
  }),
  optionalText(
    'audit-webhook-version',
    '<group/version>',
    "group/version the webhook backend encodes events as (default: the audit group's v1)",
  ),
  ...batchFlags('webhook', AUDIT_WEBHOOK_DEFAULTS.mode, AUDIT_WEBHOOK_DEFAULTS.batch),
  ...truncateFlags('webhook'),
];

function batchOf(f: FlagValues, plugin: 'log' | 'webhook'): AuditBatchOptions {
  const p = `audit-${plugin}-batch`;
  return {
    bufferSize: f[`${p}-buffer-size`] as number,
    maxSize: f[`${p}-max-size`] as number,
    maxWaitMs: f[`${p}-max-wait`] as number,
    throttleEnable: f[`${p}-throttle-enable`] as boolean,
    throttleQps: f[`${p}-throttle-qps`] as number,
    throttleBurst: f[`${p}-throttle-burst`] as number,
  };
}

function truncateOf(f: FlagValues, plugin: 'log' | 'webhook'): AuditTruncateOptions {
  const p = `audit-${plugin}-truncate`;
  return {
    enabled: f[`${p}-enabled`] as boolean,
    maxBatchSize: f[`${p}-max-batch-size`] as number,
    maxEventSize: f[`${p}-max-event-size`] as number,
  };
}

/**
 * AuditOptions from parsed flag values: undefined when no policy file, log path or webhook
 * configuration is given (audit off). A backend's section exists when its path or file is given.
 * Modes and formats pass as given; an unknown one is refused when the server starts.
 */
export function auditOptionsFrom(
  f: FlagValues,
  _given: ReadonlySet<string> = new Set(),
): AuditOptions | undefined {
  const s = (name: string) => {
    const v = f[name] as string | undefined;
    return v === '' ? undefined : v;
  };
  const policyFile = s('audit-policy-file');
  const logPath = s('audit-log-path');
  const webhookConfig = s('audit-webhook-config-file');
  if (policyFile === undefined && logPath === undefined && webhookConfig === undefined) return undefined;
  const o: AuditOptions = {};
  if (policyFile !== undefined) o.policyFile = policyFile;
  if (logPath !== undefined) {
    o.log = {
      path: logPath,
      format: f['audit-log-format'] as 'json' | 'legacy',
      maxAgeDays: f['audit-log-maxage'] as number,
      maxBackups: f['audit-log-maxbackup'] as number,
      maxSizeMB: f['audit-log-maxsize'] as number,
      compress: f['audit-log-compress'] as boolean,
      mode: f['audit-log-mode'] as AuditBackendMode,
      batch: batchOf(f, 'log'),
      truncate: truncateOf(f, 'log'),
      version: s('audit-log-version'),
    };
  }
  if (webhookConfig !== undefined) {
    o.webhook = {
      configFile: webhookConfig,
      initialBackoffMs: f['audit-webhook-initial-backoff'] as number,
      mode: f['audit-webhook-mode'] as AuditBackendMode,
      batch: batchOf(f, 'webhook'),
      truncate: truncateOf(f, 'webhook'),
      version: s('audit-webhook-version'),
    };
  }
  return o;
}
