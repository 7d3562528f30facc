// Declarative validation beside the hand-written rules, as upstream's
// ValidateDeclarativelyWithMigrationChecks runs it for kinds whose fields moved to `+k8s:` tags.
// With the DeclarativeValidation gate on (beta, default on) a write of such a kind runs both; every
// covered hand-written error with no declarative counterpart, and every declarative error with no
// covered hand-written one, is a mismatch: logged and counted
// (apiserver_validation_declarative_validation_mismatch_total). A declarative rule that throws is
// counted as a panic. The hand-written errors stay the answer unless DeclarativeValidationTakeover
// is on: then the covered ones are replaced by the declarative ones. Gates are read once, when the
// kinds are prepared; kinds declaring no rules are handed back untouched and cost nothing.

import type { Counter } from 'prom-client';
import {
  deepEqual,
  type FieldError,
  goQuote,
  internalFieldError,
  TYPE_TEXT,
} from '../machinery/field-errors.ts';
import { loggerFor } from '../machinery/logging/index.ts';
import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import type { DeclarativeValidation, KindDefinition } from './kind.ts';
import type { Strategy } from './strategy.ts';

/** Upstream's five validation metrics (upstream apiserver's pkg/validation/metrics.go). */
export interface ValidationMetrics {
  mismatch: Counter;
  mismatchByIdentifier: Counter<'validation_identifier'>;
  panic: Counter;
  panicByIdentifier: Counter<'validation_identifier'>;
  duplicateErrors: Counter;
}

const METRICS = new WeakMap<MetricsRegistry, ValidationMetrics>();

/** The validation metrics of a registry, defined on first use (once per registry). */
export function validationMetrics(registry: MetricsRegistry): ValidationMetrics {
  let m = METRICS.get(registry);
  if (m === undefined) {
    m = {
      mismatch: registry.counter({
        name: 'apiserver_validation_declarative_validation_mismatch_total',
        help: 'Number of times declarative validation results differed from handwritten validation results for core types.',
        stability: 'BETA',
      }),
      mismatchByIdentifier: registry.counter({
        name: 'apiserver_validation_declarative_validation_parity_discrepancies_total',
        help: 'Number of discrepancies between declarative and handwritten validation, broken down by validation identifier.',
        stability: 'ALPHA',
        labelNames: ['validation_identifier'],
      }),
      panic: registry.counter({
        name: 'apiserver_validation_declarative_validation_panic_total',
        help: 'Number of times declarative validation has panicked during validation.',
        stability: 'BETA',
      }),
      panicByIdentifier: registry.counter({
        name: 'apiserver_validation_declarative_validation_panics_total',
        help: 'Number of panics in declarative validation, broken down by validation identifier.',
        stability: 'ALPHA',
        labelNames: ['validation_identifier'],
      }),
      duplicateErrors: registry.counter({
        name: 'apiserver_validation_duplicate_validation_error_total',
        help: 'Number of duplicate validation errors during validation.',
        stability: 'INTERNAL',
      }),
    };
    METRICS.set(registry, m);
  }
  return m;
}

type Normalization = DeclarativeValidation['normalization'];

/** A rule's pattern replacing every match, as Go's ReplaceAllString does (built once per pattern). */
const GLOBAL = new WeakMap<RegExp, RegExp>();
function globalOf(p: RegExp): RegExp {
  let g = GLOBAL.get(p);
  if (g === undefined) {
    g = p.global ? p : new RegExp(p.source, `${p.flags}g`);
    GLOBAL.set(p, g);
  }
  return g;
}

/** The first normalization rule that changes the path, applied (upstream's normalizePath). */
function normalizePath(path: string, rules: Normalization): string {
  for (const r of rules ?? []) {
    const out = path.replace(globalOf(r.pattern), r.replacement);
    if (out !== path) return out;
  }
  return path;
}

/** Upstream's fuzzy match: type, origin (required on both for Invalid), field after normalization. */
function fuzzyMatches(want: FieldError, got: FieldError, rules: Normalization): boolean {
  if (want.type !== got.type) return false;
  if (want.field !== got.field && want.field !== normalizePath(got.field, rules)) return false;
  const wo = want.origin ?? '';
  const go = got.origin ?? '';
  if (wo !== go) return false;
  return !(want.type === 'FieldValueInvalid' && (wo === '' || go === ''));
}

function exactlyMatches(a: FieldError, b: FieldError): boolean {
  return (
    a.type === b.type &&
    a.field === b.field &&
    (a.origin ?? '') === (b.origin ?? '') &&
    a.detail === b.detail &&
    deepEqual(a.badValue, b.badValue)
  );
}

/** An error as upstream's fuzzy matcher renders it in mismatch messages. */
export function renderForMismatch(e: FieldError, rules: Normalization): string {
  const normalized = normalizePath(e.field, rules);
  const field =
    normalized !== e.field
      ? `Field=${goQuote(normalized)} (aka ${goQuote(e.field)})`
      : `Field=${goQuote(e.field)}`;
  return `{Type=${goQuote(TYPE_TEXT[e.type])}, ${field}, Origin=${goQuote(e.origin ?? '')}}`;
}

/**
 * Upstream's comparison: one message per mismatch. Each covered hand-written error (exact
 * duplicates counted once) must match at least one declarative error, and takes every one it
 * matches; the declarative errors left over are extra.
 */
export function declarativeMismatches(
  handwritten: readonly FieldError[],
  declarative: readonly FieldError[],
  covers: (e: FieldError) => boolean,
  takeover: boolean,
  rules?: Normalization,
): string[] {
  const out: string[] = [];
  if (handwritten.length === 0 && declarative.length === 0) return out;
  const recommendation = takeover
    ? 'Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.'
    : 'This difference should not affect system operation since hand written validation is authoritative.';
  const deduped: FieldError[] = [];
  for (const e of handwritten) if (!deduped.some((d) => exactlyMatches(d, e))) deduped.push(e);
  let remaining = [...declarative];
  for (const h of deduped) {
    if (!covers(h)) continue;
    const left = remaining.filter((d) => !fuzzyMatches(h, d, rules));
    if (left.length === remaining.length) {
      out.push(
        `Unexpected difference between hand written validation and declarative validation error results, unmatched error(s) found ${renderForMismatch(h, rules)}. This indicates an issue with declarative validation. ${recommendation}`,
      );
    }
    remaining = left;
  }
  for (const d of remaining) {
    out.push(
      `Unexpected difference between hand written validation and declarative validation error results, extra error(s) found ${renderForMismatch(d, rules)}. This indicates an issue with declarative validation. ${recommendation}`,
    );
  }
  return out;
}

/** Upstream's validation identifier: the lower-cased kind, the sub-resource path, the operation. */
export function validationIdentifier(kind: string, subresource: string, op: 'create' | 'update'): string {
  const sub = subresource === '' ? '' : `_${subresource.replaceAll('/', '_')}`;
  return `${kind.toLowerCase()}${sub}_${op}`;
}

export interface DeclarativeValidationOptions {
  /** Whether a feature gate is on. */
  gate(name: string): boolean;
  /** Where the counters live; without it nothing is counted. */
  metrics?: MetricsRegistry;
  /** Where mismatches and panics are logged (upstream logs them as errors); stderr by default. */
  log?: (line: string) => void;
}

/** A strategy whose writes also run the kind's declarative rules and compare. */
export interface ComparingStrategy extends Strategy {
  /**
   * The errors of a write after comparison: `errs` are the hand-written ones (create: `old`
   * undefined). The generic store hands every write's errors through this when it is present.
   */
  checkValidation(
    errs: FieldError[],
    obj: ApiObject,
    old: ApiObject | undefined,
    subresource: string,
  ): FieldError[];
}

/**
 * The comparison of one kind's writes, from hand-written errors to the answer. Gates are the
 * caller's to read: this runs as if DeclarativeValidation were on.
 */
export function declarativeCheck(
  kind: Pick<KindDefinition, 'resource'> & { declarativeValidation: DeclarativeValidation },
  takeover: boolean,
  metrics: ValidationMetrics | undefined,
  log: (line: string) => void,
): ComparingStrategy['checkValidation'] {
  const dv = kind.declarativeValidation;
  // Identifiers are few (kind × sub-resource × operation): children are kept, not looked up per write.
  const children = new Map<string, { mismatch: () => void; panic: () => void }>();
  const countersOf = (id: string) => {
    let c = children.get(id);
    if (c === undefined) {
      const byIdMismatch = metrics?.mismatchByIdentifier.labels(id);
      const byIdPanic = metrics?.panicByIdentifier.labels(id);
      c = {
        mismatch: () => {
          metrics?.mismatch.inc();
          byIdMismatch?.inc();
        },
        panic: () => {
          metrics?.panic.inc();
          byIdPanic?.inc();
        },
      };
      children.set(id, c);
    }
    return c;
  };
  return (errs, obj, old, subresource) => {
    const id = validationIdentifier(kind.resource.kind, subresource, old === undefined ? 'create' : 'update');
    let declarative: FieldError[];
    try {
      declarative = dv.validate(obj, old, subresource);
    } catch (err) {
      countersOf(id).panic();
      const text = `panic during declarative validation: ${err instanceof Error ? err.message : String(err)}`;
      declarative = [];
      if (takeover) declarative.push(internalFieldError('', new Error(text)));
      else log(text);
    }
    for (const line of declarativeMismatches(errs, declarative, dv.covers, takeover, dv.normalization)) {
      log(line);
      countersOf(id).mismatch();
    }
    if (!takeover) return errs;
    return [...errs.filter((e) => !dv.covers(e)), ...declarative];
  };
}

/**
 * The kinds as the server serves them: those declaring declarative rules get a strategy that
 * compares (when DeclarativeValidation is on); the rest are the same objects. The metrics are
 * defined whatever the gates, as upstream registers them at start.
 */
export function withDeclarativeValidation(
  kinds: readonly KindDefinition[],
  opts: DeclarativeValidationOptions,
): KindDefinition[] {
  const metrics = opts.metrics === undefined ? undefined : validationMetrics(opts.metrics);
  if (!opts.gate('DeclarativeValidation')) return [...kinds];
  const takeover = opts.gate('DeclarativeValidationTakeover');
  const log = opts.log ?? ((line: string) => loggerFor('registry/declarative-validation').infoText(line));
  return kinds.map((kind) => {
    const dv = kind.declarativeValidation;
    if (dv === undefined) return kind;
    const strategy: ComparingStrategy = {
      ...kind.strategy,
      checkValidation: declarativeCheck(
        { resource: kind.resource, declarativeValidation: dv },
        takeover,
        metrics,
        log,
      ),
    };
    return { ...kind, strategy };
  });
}
