// Field selectors: `?fieldSelector=metadata.name=x,metadata.namespace!=y` (also `==`), with `\,`,
// `\=` and `\\` escapes in values, matched against the flat field set a kind exposes. Errors carry
// upstream's wording (including its habit of printing an unescaped character as a number) and are
// thrown as 400 BadRequest, which is how the server answers them.

import { goQuote } from './field-errors.ts';
import type { ObjectMeta } from './object.ts';
import { ApiError, badRequest } from './status.ts';

export interface FieldRequirement {
  readonly field: string;
  /** `=` and `==` are the same requirement; upstream keeps only `=`. */
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Maps a selector's field and value to the kind's own (or throws when the field is unknown). */
export type FieldLabelConversion = (field: string, value: string) => [string, string];

function compareCodePoints(a: string, b: string): number {
  // Go sorts strings bytewise, which is code point order; UTF-16 order differs above U+FFFF.
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** Escapes `\`, `,` and `=` in a value. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Undoes escapeFieldValue; throws BadRequest for a bad escape or a bare `,` or `=`. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, which is its number.
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** A field selector: terms that must all hold. */
export class FieldMatcher {
  private constructor(
    readonly requirements: readonly FieldRequirement[],
    private readonly selectsNone: boolean,
  ) {}

  private static readonly EVERYTHING = new FieldMatcher([], false);
  private static readonly NOTHING = new FieldMatcher([], true);

  static everything(): FieldMatcher {
    return FieldMatcher.EVERYTHING;
  }

  static nothing(): FieldMatcher {
    return FieldMatcher.NOTHING;
  }

  static of(requirements: readonly FieldRequirement[]): FieldMatcher {
    return requirements.length === 0 ? FieldMatcher.EVERYTHING : new FieldMatcher([...requirements], false);
  }

  /** A missing field counts as the empty string, as upstream's field sets do. */
  matches(fields: Readonly<Record<string, string>> | undefined): boolean {
    if (this.selectsNone) return false;
    const fs = fields ?? {};
    return this.requirements.every((r) => {
      const have = Object.hasOwn(fs, r.field) ? fs[r.field] : '';
      return r.operator === '=' ? have === r.value : have !== r.value;
    });
  }

  empty(): boolean {
    return !this.selectsNone && this.requirements.length === 0;
  }

  matchesNothing(): boolean {
    return this.selectsNone;
  }

  /** The value a field must equal, when some term pins it. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.operator === '=' && r.field === field)?.value;
  }

  /**
   * Rewrites each term's field and value (the kind's field label conversion). A term mapped to an
   * empty field and value is dropped. A conversion that throws a plain Error becomes BadRequest.
   */
  transform(fn: FieldLabelConversion): FieldMatcher {
    if (this.selectsNone) return this;
    const out: FieldRequirement[] = [];
    for (const r of this.requirements) {
      let field: string;
      let value: string;
      try {
        [field, value] = fn(r.field, r.value);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw badRequest(e instanceof Error ? e.message : String(e));
      }
      if (field !== '' || value !== '') out.push({ field, operator: r.operator, value });
    }
    return FieldMatcher.of(out);
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

// Splits at commas that are not escaped; a backslash always takes the next character with it.
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

// The first operator from the left wins, so `a=b=c` is field `a`, value `b=c` (then rejected).
function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/**
 * Parses `?fieldSelector=`. Terms come out sorted as written text (upstream sorts them before
 * parsing, so the first bad term in that order is the one reported). Throws BadRequest.
 */
export function parseFieldSelector(selector: string): FieldMatcher {
  const parts = splitTerms(selector).sort(compareCodePoints);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) throw badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, raw] = split;
    reqs.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(raw) });
  }
  return FieldMatcher.of(reqs);
}

/** A selector requiring each field of the set to equal its value. */
export function fieldMatcherFromSet(set: Readonly<Record<string, string>> | undefined): FieldMatcher {
  if (set === undefined) return FieldMatcher.everything();
  return FieldMatcher.of(Object.entries(set).map(([field, value]) => ({ field, operator: '=', value })));
}

/** The conversion of kinds without their own field labels: only name and namespace. */
export const defaultFieldLabelConversion: FieldLabelConversion = (field, value) => {
  if (field === 'metadata.name' || field === 'metadata.namespace') return [field, value];
  throw badRequest(
    `${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
  );
};

/** The conversion of a kind that supports exactly these field labels. */
export function supportedFieldLabels(labels: readonly string[]): FieldLabelConversion {
  const known = new Set(labels);
  return (field, value) => {
    if (known.has(field)) return [field, value];
    throw badRequest(`field label not supported: ${field}`);
  };
}

/** The fields every object offers: `metadata.name`, and `metadata.namespace` for namespaced kinds. */
export function objectMetaFieldsSet(
  meta: ObjectMeta | undefined,
  namespaced: boolean,
): Record<string, string> {
  const set: Record<string, string> = { 'metadata.name': meta?.name ?? '' };
  if (namespaced) set['metadata.namespace'] = meta?.namespace ?? '';
  return set;
}
