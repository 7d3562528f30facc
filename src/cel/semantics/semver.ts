// The value semantics of upstream's CEL semver library (kubernetes.Semver): semver() and isSemver
// with the optional normalize flag, major/minor/patch, compareTo, isLessThan, isGreaterThan and
// equality. Parsing is blang/semver v4's strict Parse (the error strings are its own); normalize
// is upstream's variant of ParseTolerant that strips one leading `v`, leading zeros and fills a
// missing minor or patch, but never trims whitespace.

import { goQuote } from '../../machinery/field-errors.ts';

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const MAX_UINT64 = (1n << 64n) - 1n;

/** A version semver() refuses; the message is upstream's. */
export class SemverError extends Error {
  override name = 'SemverError';
}

/** A prerelease identifier: numeric ones compare as numbers and sort before alphanumeric ones. */
export type PrereleaseId = { numeric: true; value: bigint } | { numeric: false; value: string };

export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PrereleaseId[] = [],
    readonly build: readonly string[] = [],
  ) {}

  /** blang's String(): major.minor.patch[-pre][+build]. */
  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre.length > 0) s += `-${this.pre.map((p) => String(p.value)).join('.')}`;
    if (this.build.length > 0) s += `+${this.build.join('.')}`;
    return s;
  }

  /** Semantic-versioning precedence; build metadata is ignored. */
  compare(o: Semver): -1 | 0 | 1 {
    for (const [a, b] of [
      [this.major, o.major],
      [this.minor, o.minor],
      [this.patch, o.patch],
    ] as const) {
      if (a !== b) return a > b ? 1 : -1;
    }
    if (this.pre.length === 0 || o.pre.length === 0) {
      return this.pre.length === o.pre.length ? 0 : this.pre.length === 0 ? 1 : -1;
    }
    const n = Math.min(this.pre.length, o.pre.length);
    for (let i = 0; i < n; i++) {
      const c = comparePre(this.pre[i], o.pre[i]);
      if (c !== 0) return c;
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }

  /** CEL equality: equal precedence (so `1.0.0+a == 1.0.0+b`). */
  equals(o: Semver): boolean {
    return this.compare(o) === 0;
  }
}

function comparePre(a: PrereleaseId, b: PrereleaseId): -1 | 0 | 1 {
  if (a.numeric !== b.numeric) return a.numeric ? -1 : 1;
  if (a.value === b.value) return 0;
  return a.value > b.value ? 1 : -1;
}

// Go's strconv.ParseUint(s, 10, 64) with its error text.
function parseUint(s: string): bigint {
  if (!/^[0-9]+$/.test(s)) throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > MAX_UINT64) throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return v;
}

function numberPart(s: string, what: string): bigint {
  if (!NUMBERS.test(s)) throw new SemverError(`Invalid character(s) found in ${what} number ${goQuote(s)}`);
  if (s.length > 1 && s[0] === '0') {
    const name = what[0].toUpperCase() + what.slice(1);
    throw new SemverError(`${name} number must not contain leading zeroes ${goQuote(s)}`);
  }
  return parseUint(s);
}

/** blang/semver v4 Parse: strict `MAJOR.MINOR.PATCH[-PRE][+BUILD]`. Throws SemverError. */
export function parseSemverStrict(s: string): Semver {
  if (s.length === 0) throw new SemverError('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
  const major = numberPart(parts[0], 'major');
  const minor = numberPart(parts[1], 'minor');
  let patchText = parts[2];
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchText.indexOf('+');
  if (plus !== -1) {
    build = patchText.slice(plus + 1).split('.');
    patchText = patchText.slice(0, plus);
  }
  const dash = patchText.indexOf('-');
  if (dash !== -1) {
    pre = patchText.slice(dash + 1).split('.');
    patchText = patchText.slice(0, dash);
  }
  const patch = numberPart(patchText, 'patch');
  const preIds = pre.map(parsePrerelease);
  for (const b of build) {
    if (b.length === 0) throw new SemverError('Build meta data is empty');
    if (!ALPHANUM.test(b))
      throw new SemverError(`Invalid character(s) found in build meta data ${goQuote(b)}`);
  }
  return new Semver(major, minor, patch, preIds, build);
}

function parsePrerelease(s: string): PrereleaseId {
  if (s.length === 0) throw new SemverError('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (s.length > 1 && s[0] === '0') {
      throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`);
    }
    return { numeric: true, value: parseUint(s) };
  }
  if (ALPHANUM.test(s)) return { numeric: false, value: s };
  throw new SemverError(`Invalid character(s) found in prerelease ${goQuote(s)}`);
}

// Go's strings.SplitN: at most n pieces, the last one holding the rest.
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + 1);
  }
  out.push(rest);
  return out;
}

function normalize(s: string): string {
  const parts = splitN(s.startsWith('v') ? s.slice(1) : s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    const trimmed = p.replace(/^0+/, '');
    return trimmed === '' || !/^[0-9]/.test(trimmed) ? `0${trimmed}` : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) {
      throw new SemverError('short version cannot contain PreRelease/Build meta data');
    }
    while (parts.length < 3) parts.push('0');
  }
  return parts.join('.');
}

/** semver(string[, normalize]): throws SemverError with upstream's message. */
export function parseSemver(s: string, normalizeVersion = false): Semver {
  return parseSemverStrict(normalizeVersion ? normalize(s) : s);
}

/** isSemver(string[, normalize]): true exactly when semver() would not fail. */
export function isSemver(s: string, normalizeVersion = false): boolean {
  try {
    parseSemver(s, normalizeVersion);
    return true;
  } catch (e) {
    if (e instanceof SemverError) return false;
    throw e;
  }
}

/** major()/minor()/patch() answer CEL ints: upstream converts the uint64 to int64 (wrapping). */
export function semverComponentAsInt(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}
