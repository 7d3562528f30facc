// The CEL base environment of kube-apiserver 1.35 (k8s.io/apiserver pkg/cel/environment/base.go
// at v0.35.0): which libraries every CEL use in the server gets, the version each was introduced
// at, and whether 1.35 enables it for new expressions. Every feature (authentication claim rules,
// authorization and admission matchConditions, DRA device selectors, CRD validation rules) builds
// its environment with baseEnvironment() and declares only its own variables.
//
// kube-apiserver compiles new or changed expressions against the NewExpressions environment of
// its compatibility version (one minor below the binary: 1.34 for 1.35) and stored ones against
// everything it knows; every library below was introduced at 1.34 or earlier, so 1.35 enables all
// of them for both.

import { celGoTypeName } from './engine.ts';
import {
  type CelLibrary,
  createEnvironment,
  type Environment,
  type EnvironmentOptions,
} from './environment.ts';
import { parseDuration, parseTimestamp } from './fixes/time.ts';
import { authzLibrary, authzSelectorsLibrary } from './library/authz.ts';
import { cidrLibrary } from './library/cidr.ts';
import { comprehensionsLibrary } from './library/comprehensions.ts';
import { formatLibrary } from './library/format.ts';
import { ipLibrary } from './library/ip.ts';
import { listsLibrary } from './library/lists.ts';
import { listsExtLibrary } from './library/lists-ext.ts';
import { optionalsLibrary } from './library/optionals.ts';
import { quantityLibrary } from './library/quantity.ts';
import { matchesLibrary, regexLibrary } from './library/regex.ts';
import { semverLibrary } from './library/semver.ts';
import { setsLibrary } from './library/sets.ts';
import { KUBE_STRINGS_VERSION, stringsLibrary } from './library/strings.ts';
import {
  callsIn,
  exprOffset,
  type LiteralIssue,
  type Node,
  stringLiteral,
} from './library/strings-validate.ts';
import { urlLibrary } from './library/url.ts';

export interface BaseLibrary {
  /** Upstream's library name (`LibraryName()`), or the option's name for language settings. */
  readonly name: string;
  /** What base.go enables, as upstream writes it. */
  readonly upstream: string;
  /** The Kubernetes version base.go introduced it at (1.0 stands for "always", as upstream says). */
  readonly introduced: string;
  /** Whether 1.35 enables it for new expressions (introduced at or before 1.34, not removed). */
  readonly newExpressions: boolean;
  /**
   * Our implementation (every entry has one since the list extension landed).
   * Language libraries the wrapper installs in every environment are listed with `always`.
   */
  readonly library?: CelLibrary;
  readonly always?: true;
}

/** The compatibility version a 1.35 server compiles new expressions against. */
export const NEW_EXPRESSIONS_COMPATIBILITY_VERSION = '1.34';

function entry(
  name: string,
  upstream: string,
  introduced: string,
  library?: CelLibrary,
  always?: true,
): BaseLibrary {
  const [major, minor] = introduced.split('.').map(Number);
  const newExpressions = major < 1 || (major === 1 && minor <= 34);
  return Object.freeze({
    name,
    upstream,
    introduced,
    newExpressions,
    library,
    ...(always ? { always } : {}),
  });
}

/**
 * base.go's libraries in its order. Its language settings are not libraries and are not listed:
 * homogeneous aggregate literals (1.0; checked here by BASE_VALIDATORS below), the duration,
 * timestamp and regex literal validators (1.29; BASE_VALIDATORS, and regex.ts), the UTC default time zone,
 * cross-type numeric comparisons (1.28), and the cost options (has() costs nothing). The engine
 * also has `cel.bind`, which base.go does not enable (ext.Bindings is not in it).
 */
export const BASE_LIBRARIES: readonly BaseLibrary[] = Object.freeze([
  entry('kubernetes.urls', 'library.URLs', '1.0', urlLibrary),
  entry('kubernetes.regex', 'library.Regex', '1.0', regexLibrary),
  // CEL's standard `matches`, with RE2 semantics in place of the engine's JavaScript RegExp.
  entry('cel.lib.std.matches', 'cel-go standard library (matches)', '1.0', matchesLibrary),
  entry('kubernetes.lists', 'library.Lists', '1.0', listsLibrary),
  entry('kubernetes.authz', 'library.Authz', '1.27', authzLibrary),
  entry('cel.lib.optional', 'cel.OptionalTypes()', '1.28', optionalsLibrary, true),
  entry('kubernetes.quantity', 'library.Quantity', '1.28', quantityLibrary),
  entry(
    'cel.lib.ext.strings',
    `ext.Strings(ext.StringsVersion(${KUBE_STRINGS_VERSION}))`,
    '1.29',
    stringsLibrary(KUBE_STRINGS_VERSION),
  ),
  entry('cel.lib.ext.sets', 'ext.Sets()', '1.29', setsLibrary),
  entry('kubernetes.net.ip', 'library.IP', '1.30', ipLibrary),
  entry('kubernetes.net.cidr', 'library.CIDR', '1.30', cidrLibrary),
  entry('kubernetes.format', 'library.Format', '1.31', formatLibrary),
  entry('kubernetes.authzSelectors', 'library.AuthzSelectors', '1.31', authzSelectorsLibrary),
  entry('cel.lib.ext.comprev2', 'ext.TwoVarComprehensions()', '1.32', comprehensionsLibrary, true),
  entry('kubernetes.Semver', 'library.SemverLib(library.SemverVersion(1))', '1.33', semverLibrary),
  entry('cel.lib.ext.lists', 'ext.Lists(ext.ListsVersion(3))', '1.34', listsExtLibrary),
]);

/** The literal validators of base.go (1.29) and its homogeneous literal check, as a library of no functions. */
const BASE_VALIDATORS: CelLibrary = {
  name: 'cel.validators.kubernetes',
  functions: [],
  language: {
    validate: (ast: unknown, src: string) =>
      validateTimeLiterals(ast) ?? validateHomogeneousLiterals(ast, src),
  },
};

/** The same without the homogeneous literal check (upstream's library cost tests build that way). */
const TIME_VALIDATORS: CelLibrary = {
  name: 'cel.validators.kubernetes',
  functions: [],
  language: { validate: (ast: unknown) => validateTimeLiterals(ast) },
};

/**
 * The libraries written so far, in base.go's order (language libraries are always installed),
 * and the homogeneous aggregate literal check the base environment turns on.
 */
export const BASE_CEL_LIBRARIES: readonly CelLibrary[] = Object.freeze([
  ...BASE_LIBRARIES.flatMap((b) => (b.library !== undefined && b.always === undefined ? [b.library] : [])),
  BASE_VALIDATORS,
]);

export interface BaseEnvironmentOptions extends Omit<EnvironmentOptions, 'libraries'> {
  /** Libraries a feature adds beyond the base (none of upstream's features do today). */
  extraLibraries?: readonly CelLibrary[];
  /**
   * The homogeneous aggregate literal check (default on, as kube-apiserver has it). Off only where
   * upstream builds an environment without it, as its library cost tests do.
   */
  homogeneousAggregateLiterals?: boolean;
}

/** An environment with kube-apiserver 1.35's base libraries and the caller's variables and limits. */
export function baseEnvironment(options: BaseEnvironmentOptions): Environment {
  const { extraLibraries = [], homogeneousAggregateLiterals = true, ...rest } = options;
  const base = homogeneousAggregateLiterals
    ? BASE_CEL_LIBRARIES
    : BASE_CEL_LIBRARIES.map((l) => (l === BASE_VALIDATORS ? TIME_VALIDATORS : l));
  return createEnvironment({ ...rest, libraries: [...base, ...extraLibraries] });
}

// --- literal validators ------------------------------------------------------------------------------

/**
 * cel-go's duration and timestamp literal validators: `duration('<literal>')` and
 * `timestamp('<literal>')` are converted at compile time, and a literal that does not convert is
 * an error at the literal ("invalid duration argument").
 */
export function validateTimeLiterals(ast: unknown): LiteralIssue | undefined {
  for (const c of callsIn(ast)) {
    if (c.receiver !== undefined || c.args.length !== 1) continue;
    const parse = c.name === 'duration' ? parseDuration : c.name === 'timestamp' ? parseTimestamp : undefined;
    const literal = stringLiteral(c.args[0]);
    if (parse === undefined || literal === undefined) continue;
    try {
      parse(literal);
    } catch {
      return { offset: c.args[0].start, reason: `invalid ${c.name} argument`, phase: 'check' };
    }
  }
  return undefined;
}

// --- homogeneous aggregate literals ---------------------------------------------------------------

const isNode = (x: unknown): x is Node =>
  typeof x === 'object' && x !== null && typeof (x as Node).op === 'string' && 'args' in x;

/** Whether `[?e]` or `{?k: v}` marks the entry starting at `start` optional. */
function optionalEntry(source: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && /\s/.test(source[i])) i--;
  return source[i] === '?';
}

function entryType(n: Node, optional: boolean): string {
  const t = n.checkedType?.name ?? 'dyn';
  return optional ? t.replace(/^optional<(.*)>$/, '$1') : t;
}

/**
 * cel-go's homogeneous aggregate literal check, which kube-apiserver's base environment has on
 * (cel.HomogeneousAggregateLiterals and its validator, 1.29): every element of a list literal, and
 * every key and every value of a map literal, has the type of the first (dyn is a type of its own
 * here), except inside a `format` call's arguments, where mixed lists are the point. The engine
 * accepts mixed literals (cel-go without the option does too); this reports the first mismatch
 * with cel-go's message: `expected type 'int' but found 'string'`.
 */
export function validateHomogeneousLiterals(ast: unknown, source: string): LiteralIssue | undefined {
  const lists: LiteralIssue[] = [];
  const maps: LiteralIssue[] = [];
  const mismatch = (expected: string, n: Node, found: string): LiteralIssue => ({
    offset: exprOffset(source, n),
    reason: `expected type '${celGoTypeName(expected)}' but found '${celGoTypeName(found)}'`,
    phase: 'check',
  });
  const visit = (x: unknown, exempt: boolean): void => {
    if (Array.isArray(x)) {
      for (const e of x) visit(e, exempt);
      return;
    }
    if (!isNode(x)) return;
    const a = x.args;
    const inFormat =
      exempt || ((x.op === 'rcall' || x.op === 'call') && Array.isArray(a) && a[0] === 'format');
    if (!exempt && x.op === 'list' && Array.isArray(a)) {
      const elems = a.filter(isNode);
      const first = elems.length > 0 ? entryType(elems[0], optionalEntry(source, elems[0].start)) : '';
      for (const e of elems.slice(1)) {
        const t = entryType(e, optionalEntry(source, e.start));
        if (t !== first) {
          lists.push(mismatch(first, e, t));
          break;
        }
      }
    }
    if (!exempt && x.op === 'map' && Array.isArray(a)) {
      let first: [string, string] | undefined;
      for (const entry of a) {
        if (!Array.isArray(entry) || !isNode(entry[0]) || !isNode(entry[1])) continue;
        const [k, v] = entry as [Node, Node];
        const kt = entryType(k, false);
        const vt = entryType(v, optionalEntry(source, k.start));
        if (first === undefined) first = [kt, vt];
        else {
          if (kt !== first[0]) maps.push(mismatch(first[0], k, kt));
          if (vt !== first[1]) maps.push(mismatch(first[1], v, vt));
        }
      }
    }
    if (Array.isArray(a)) visit(a, inFormat);
  };
  visit(ast, false);
  return lists[0] ?? maps[0];
}
