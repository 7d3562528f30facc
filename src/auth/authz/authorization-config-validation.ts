// Validation of an AuthorizationConfiguration with upstream's field paths and messages (the whole
// list aggregated as upstream prints it; the server does not start, a reload keeps the old
// file): authorizer types and names (one of each type except Webhook; names DNS subdomains, and
// for the built-in types the lower-cased type as kube-apiserver requires), and each webhook's
// timeout, TTLs, review versions, failure policy, connection and match conditions, which compile
// here so that a request never meets an expression that does not.

import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Program } from '../../cel/index.ts';
import {
  aggregateMessage,
  duplicate,
  type FieldError,
  type FieldPath,
  invalid,
  newPath,
  notSupported,
  required,
  tooMany,
} from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import {
  type AuthorizationConfiguration,
  type AuthorizerWebhookConfiguration,
  CLIENT_CONFIG_FILE_TYPES,
  IN_CLUSTER_CONFIG,
} from './authorization-config.ts';
import { compileMatchCondition } from './match-conditions.ts';

/** The types kube-apiserver knows (sorted, as its message lists them); only Webhook may repeat. */
export const AUTHORIZER_TYPES = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'] as const;
export const MAX_MATCH_CONDITIONS = 64;
const MAX_TIMEOUT_MS = 30_000;

/** Go's time.Duration String() for whole milliseconds: `30s`, `1m0s`, `1.5s`, `-1s`. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${rest / 1000}s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

/** Compiled match conditions per authorizer index, when the file is valid. */
export type CompiledConditions = Map<number, Program[]>;

function validateWebhook(w: AuthorizerWebhookConfiguration, p: FieldPath, compiled: Program[]): FieldError[] {
  const errs: FieldError[] = [];
  if (w.timeout === 0) errs.push(required(p.child('timeout')));
  else if (w.timeout > MAX_TIMEOUT_MS || w.timeout < 0)
    errs.push(invalid(p.child('timeout'), goDuration(w.timeout), 'must be > 0s and <= 30s'));
  if (w.authorizedTTL < 0)
    errs.push(invalid(p.child('authorizedTTL'), goDuration(w.authorizedTTL), 'must be > 0s'));
  if (w.unauthorizedTTL < 0)
    errs.push(invalid(p.child('unauthorizedTTL'), goDuration(w.unauthorizedTTL), 'must be > 0s'));
  const sar = w.subjectAccessReviewVersion;
  if (sar === '') errs.push(required(p.child('subjectAccessReviewVersion')));
  else if (sar !== 'v1' && sar !== 'v1beta1')
    errs.push(notSupported(p.child('subjectAccessReviewVersion'), sar, ['v1', 'v1beta1']));
  const mc = w.matchConditionSubjectAccessReviewVersion;
  if (mc === '') {
    if (w.matchConditions.length > 0)
      errs.push(
        required(
          p.child('matchConditionSubjectAccessReviewVersion'),
          'required if match conditions are specified',
        ),
      );
  } else if (mc !== 'v1')
    errs.push(notSupported(p.child('matchConditionSubjectAccessReviewVersion'), mc, ['v1']));
  const fp = w.failurePolicy;
  if (fp === '') errs.push(required(p.child('failurePolicy')));
  else if (fp !== 'NoOpinion' && fp !== 'Deny')
    errs.push(notSupported(p.child('failurePolicy'), fp, ['NoOpinion', 'Deny']));
  const ci = w.connectionInfo;
  const ciPath = p.child('connectionInfo');
  const fileField = ciPath.child(ci.configFileField);
  if (ci.type === '') errs.push(required(ciPath.child('type')));
  else if (ci.type === IN_CLUSTER_CONFIG) {
    if (ci.configFile !== undefined)
      errs.push(
        invalid(fileField, ci.configFile, `can only be set when type=${CLIENT_CONFIG_FILE_TYPES[0]}`),
      );
  } else if ((CLIENT_CONFIG_FILE_TYPES as readonly string[]).includes(ci.type)) {
    const file = ci.configFile;
    if (file === undefined || file === '') errs.push(required(fileField));
    else if (!isAbsolute(file)) errs.push(invalid(fileField, file, 'must be an absolute path'));
    else {
      try {
        if (!statSync(file).isFile()) errs.push(invalid(fileField, file, 'must be a regular file'));
      } catch {
        errs.push(invalid(fileField, file, `error loading file: stat ${file}: no such file or directory`));
      }
    }
  } else {
    errs.push(notSupported(ciPath.child('type'), ci.type, [IN_CLUSTER_CONFIG, ...CLIENT_CONFIG_FILE_TYPES]));
  }
  const conds = w.matchConditions;
  if (conds.length > MAX_MATCH_CONDITIONS) {
    errs.push(tooMany(p.child('matchConditions'), conds.length, MAX_MATCH_CONDITIONS));
    return errs;
  }
  const seen = new Set<string>();
  conds.forEach((c, i) => {
    const ep = p.child('matchConditions').index(i).child('expression');
    if (c.expression.trim() === '') {
      errs.push(required(ep));
      return;
    }
    if (seen.has(c.expression)) {
      errs.push(duplicate(ep, c.expression));
      return;
    }
    seen.add(c.expression);
    const r = compileMatchCondition(c.expression);
    if (r.ok) compiled.push(r.program);
    else errs.push(invalid(ep, c.expression, r.detail));
  });
  return errs;
}

/** The field errors of a configuration, and the compiled conditions of each webhook. */
export function authorizationConfigErrors(c: AuthorizationConfiguration): {
  errors: FieldError[];
  conditions: CompiledConditions;
} {
  const errs: FieldError[] = [];
  const conditions: CompiledConditions = new Map();
  const root = newPath('authorizers');
  if (c.authorizers.length === 0)
    errs.push(required(root, 'at least one authorization mode must be defined'));
  const types = new Set<string>();
  const names = new Set<string>();
  c.authorizers.forEach((a, i) => {
    const p = root.index(i);
    if (a.type === '') {
      errs.push(required(p.child('type')));
      return;
    }
    if (!(AUTHORIZER_TYPES as readonly string[]).includes(a.type)) {
      errs.push(notSupported(p.child('type'), a.type, AUTHORIZER_TYPES));
      return;
    }
    if (types.has(a.type) && a.type !== 'Webhook') {
      errs.push(duplicate(p.child('type'), a.type));
      return;
    }
    types.add(a.type);
    if (a.name === '') errs.push(required(p.child('name')));
    else if (names.has(a.name)) errs.push(duplicate(p.child('name'), a.name));
    else {
      const bad = isDNS1123Subdomain(a.name);
      if (bad.length > 0)
        errs.push(invalid(p.child('name'), a.name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    names.add(a.name);
    if (a.type === 'Webhook') {
      if (a.webhook === undefined) {
        errs.push(required(p.child('webhook'), 'required when type=Webhook'));
        return;
      }
      const compiled: Program[] = [];
      errs.push(...validateWebhook(a.webhook, p.child('webhook'), compiled));
      conditions.set(i, compiled);
    } else if (a.webhook !== undefined) {
      errs.push(invalid(p.child('webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return { errors: errs, conditions };
}

/**
 * Throws upstream's message when the configuration is not valid: the field errors aggregated, then
 * kube-apiserver's own rule that a built-in authorizer is named after its type in lower case.
 */
export function validateAuthorizationConfig(c: AuthorizationConfiguration): CompiledConditions {
  const { errors, conditions } = authorizationConfigErrors(c);
  if (errors.length > 0) throw new Error(aggregateMessage(errors));
  for (const a of c.authorizers) {
    if (a.type === 'Webhook') continue;
    const expected = a.type.toLowerCase();
    if (a.name !== expected)
      throw new Error(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  return conditions;
}
