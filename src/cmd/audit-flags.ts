// Audit's flags (`--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*`) with kube-apiserver's
// names, defaults and help, and their mapping onto AuditOptions. Values are only parsed here (an
// integer must be an integer); upstream's checks of modes, formats, sizes and versions run where
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
      description:
        'Strategy for sending audit events. Blocking indicates sending events should block server responses. ' +
        `Batch causes the backend to buffer and write events asynchronously. Known modes are ${MODES_TEXT}.`,
      parse: text,
      default: mode,
    }),
    flag({
      name: `${p}-batch-buffer-size`,
      arg: '<n>',
      description:
        'The size of the buffer to store events before batching and writing. Only used in batch mode.',
      parse: int,
      default: d.bufferSize,
    }),
    flag({
      name: `${p}-batch-max-size`,
      arg: '<n>',
      description: 'The maximum size of a batch. Only used in batch mode.',
      parse: int,
      default: d.maxSize,
    }),
    flag({
      name: `${p}-batch-max-wait`,
      arg: '<duration>',
      description:
        "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
      parse: duration,
      default: d.maxWaitMs,
    }),
    flag({
      name: `${p}-batch-throttle-enable`,
      boolean: true,
      description: 'Whether batching throttling is enabled. Only used in batch mode.',
      parse: bool,
      default: d.throttleEnable,
    }),
    flag({
      name: `${p}-batch-throttle-qps`,
      arg: '<qps>',
      description: 'Maximum average number of batches per second. Only used in batch mode.',
      parse: float,
      default: d.throttleQps,
    }),
    flag({
      name: `${p}-batch-throttle-burst`,
      arg: '<n>',
      description:
        'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.',
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
      description: 'Whether event and batch truncating is enabled.',
      parse: bool,
      default: AUDIT_TRUNCATE_DEFAULTS.enabled,
    }),
    flag({
      name: `${p}-truncate-max-batch-size`,
      arg: '<bytes>',
      description:
        'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. ' +
        'If a batch exceeds this limit, it is split into several batches of smaller size.',
      parse: int,
      default: AUDIT_TRUNCATE_DEFAULTS.maxBatchSize,
    }),
    flag({
      name: `${p}-truncate-max-event-size`,
      arg: '<bytes>',
      description:
        'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, ' +
        "first request and response are removed, and if this doesn't reduce the size enough, event is discarded.",
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
    'Path to the file that defines the audit policy configuration.',
  ),
  optionalText(
    'audit-log-path',
    '<file>',
    "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
  ),
  flag({
    name: 'audit-log-maxage',
    arg: '<days>',
    description:
      'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename. ' +
      'Setting a value of 0 means old audit log files are not removed based on age.',
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxAgeDays,
  }),
  flag({
    name: 'audit-log-maxbackup',
    arg: '<n>',
    description:
      "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxBackups,
  }),
  flag({
    name: 'audit-log-maxsize',
    arg: '<MB>',
    description:
      'The maximum size in megabytes of the audit log file before it gets rotated. Setting to 0 disables rotation (not recommended).',
    parse: int,
    default: AUDIT_LOG_DEFAULTS.maxSizeMB,
  }),
  flag({
    name: 'audit-log-format',
    arg: '<format>',
    description:
      'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. ' +
      'Known formats are legacy,json.',
    parse: text,
    default: AUDIT_LOG_DEFAULTS.format,
  }),
  optionalText(
    'audit-log-version',
    '<group/version>',
    "API group and version used for serializing audit events written to log (default: the audit group's v1).",
  ),
  flag({
    name: 'audit-log-compress',
    boolean: true,
    description: 'If set, the rotated log files will be compressed using gzip.',
    parse: bool,
    default: AUDIT_LOG_DEFAULTS.compress,
  }),
  ...batchFlags('log', AUDIT_LOG_DEFAULTS.mode, AUDIT_LOG_DEFAULTS.batch),
  ...truncateFlags('log'),
  optionalText(
    'audit-webhook-config-file',
    '<file>',
    'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
  ),
  flag({
    name: 'audit-webhook-initial-backoff',
    arg: '<duration>',
    description: 'The amount of time to wait before retrying the first failed request.',
    parse: duration,
    default: AUDIT_WEBHOOK_DEFAULTS.initialBackoffMs,
  }),
  optionalText(
    'audit-webhook-version',
    '<group/version>',
    "API group and version used for serializing audit events written to webhook (default: the audit group's v1).",
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
