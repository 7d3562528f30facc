// Upstream's checks of the audit options (AuditOptions.Validate), with its messages: each backend
// is checked only when it is on (a log path, a webhook configuration file): its mode and batch
// sizes, its truncation limits, its event version, and for the log the format and the rotation
// numbers. The server refuses to start on any of them, as kube-apiserver does.

import { type NamingProfile, sameGroup } from '../../naming/index.ts';
import {
  AUDIT_LOG_DEFAULTS,
  AUDIT_LOG_FORMATS,
  AUDIT_MODES,
  AUDIT_TRUNCATE_DEFAULTS,
  AUDIT_WEBHOOK_DEFAULTS,
} from './defaults.ts';
import type { AuditBatchOptions, AuditOptions, AuditTruncateOptions } from './options.ts';
import { auditGroup } from './policy-types.ts';

export class AuditOptionsError extends Error {
  override name = 'AuditOptionsError';
}

type Plugin = 'log' | 'webhook';

function batchErrors(
  plugin: Plugin,
  mode: string,
  given: AuditBatchOptions | undefined,
  defaults: Required<AuditBatchOptions>,
): string[] {
  if (!(AUDIT_MODES as readonly string[]).includes(mode)) {
    return [`invalid audit ${plugin} mode ${mode}, allowed modes are "${AUDIT_MODES.join(',')}"`];
  }
  if (mode !== 'batch') return [];
  const c = { ...defaults, ...stripUndefined(given) };
  if (c.bufferSize <= 0) {
    return [`invalid audit batch ${plugin} buffer size ${c.bufferSize}, must be a positive number`];
  }
  if (c.maxSize <= 0) {
    return [`invalid audit batch ${plugin} max batch size ${c.maxSize}, must be a positive number`];
  }
  if (c.throttleEnable) {
    if (c.throttleQps <= 0) {
      return [`invalid audit batch ${plugin} throttle QPS ${c.throttleQps}, must be a positive number`];
    }
    if (c.throttleBurst <= 0) {
      return [`invalid audit batch ${plugin} throttle burst ${c.throttleBurst}, must be a positive number`];
    }
  }
  return [];
}

function truncateErrors(plugin: Plugin, given: AuditTruncateOptions | undefined): string[] {
  const c = { ...AUDIT_TRUNCATE_DEFAULTS, ...stripUndefined(given) };
  if (c.maxEventSize <= 0) {
    return [`invalid audit truncate ${plugin} max event size ${c.maxEventSize}, must be a positive number`];
  }
  if (c.maxBatchSize < c.maxEventSize) {
    return [
      `invalid audit truncate ${plugin} max batch size ${c.maxBatchSize}, must be greater than max event size (${c.maxEventSize})`,
    ];
  }
  return [];
}

/** The Events' group and version a backend writes: the audit group's v1, either spelling. */
export function defaultAuditVersion(profile: NamingProfile): string {
  return `${auditGroup(profile)}/v1`;
}

function versionErrors(version: string | undefined, profile: NamingProfile): string[] {
  const gv = version ?? defaultAuditVersion(profile);
  const parts = gv.split('/');
  // Go's ParseGroupVersion: "", "v1" (no group) and "group/v1" parse; more slashes do not.
  if (parts.length > 2) return [`unexpected GroupVersion string: ${gv}`];
  const [group, v] = parts.length === 2 ? parts : ['', parts[0]];
  if (sameGroup(profile, group, auditGroup(profile)) && v === 'v1') return [];
  return [`invalid group version, allowed versions are ["${defaultAuditVersion(profile)}"]`];
}

function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  const out: Partial<T> = {};
  if (o === undefined) return out;
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** Every complaint, in upstream's order; empty when the options are usable. */
export function validateAuditOptions(o: AuditOptions | undefined, profile: NamingProfile): string[] {
  const errs: string[] = [];
  const log = o?.log;
  if (log !== undefined && log.path !== '') {
    errs.push(
      ...batchErrors('log', log.mode ?? AUDIT_LOG_DEFAULTS.mode, log.batch, AUDIT_LOG_DEFAULTS.batch),
    );
    errs.push(...truncateErrors('log', log.truncate));
    errs.push(...versionErrors(log.version, profile));
    const format = log.format ?? AUDIT_LOG_DEFAULTS.format;
    if (!(AUDIT_LOG_FORMATS as readonly string[]).includes(format)) {
      errs.push(`invalid audit log format ${format}, allowed formats are "${AUDIT_LOG_FORMATS.join(',')}"`);
    }
    if ((log.maxAgeDays ?? 0) < 0)
      errs.push(`--audit-log-maxage ${log.maxAgeDays} can't be a negative number`);
    if ((log.maxBackups ?? 0) < 0) {
      errs.push(`--audit-log-maxbackup ${log.maxBackups} can't be a negative number`);
    }
    if ((log.maxSizeMB ?? 0) < 0)
      errs.push(`--audit-log-maxsize ${log.maxSizeMB} can't be a negative number`);
  }
  const hook = o?.webhook;
  if (hook !== undefined && hook.configFile !== '') {
    errs.push(
      ...batchErrors(
        'webhook',
        hook.mode ?? AUDIT_WEBHOOK_DEFAULTS.mode,
        hook.batch,
        AUDIT_WEBHOOK_DEFAULTS.batch,
      ),
    );
    errs.push(...truncateErrors('webhook', hook.truncate));
    errs.push(...versionErrors(hook.version, profile));
  }
  return errs;
}

/** Go's aggregate error text: one message alone, several in brackets. */
export function aggregateErrors(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}
