// Label selectors: the string syntax of `?labelSelector=` (`a=b,c!=d,e in (x,y),f notin (z),g,!h`,
// `==`, and integer `>`/`<`), the structured LabelSelector of API objects, and matching against an
// object's labels. Parse errors carry upstream's exact wording, `<nil>` paths included, because
// clients show them verbatim; they are thrown as 400 BadRequest, which is how the server answers.

import {
  aggregateMessage,
  errorString,
  type FieldError,
  type FieldPath,
  forbidden as forbiddenField,
  goQuote,
  invalid,
  newPath,
  notSupported,
  required,
} from './field-errors.ts';
import { badRequest } from './status.ts';
import { isQualifiedName, isValidLabelValue, validateLabelName, validateLabels } from './validation/names.ts';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** The structured selector API objects carry (`spec.selector`). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorRequirement {
  key: string;
  /** In, NotIn, Exists or DoesNotExist; anything else is rejected. */
  operator: string;
  values?: string[];
}

const BINARY_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: readonly LabelOperator[] = [...BINARY_OPERATORS, 'exists', '!'];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// Base-10 int64 as Go's strconv.ParseInt reads it: optional sign, digits only, in range.
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

function child(path: FieldPath | null, name: string): FieldPath {
  return path === null ? newPath(name) : path.child(name);
}

function keyError(key: string, path: FieldPath | null): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalid(path, key, errs.join('; ')) : undefined;
}

/** The problems with one requirement, as upstream's NewRequirement finds them. */
function requirementErrors(
  key: string,
  operator: string,
  values: readonly string[] | null,
  path: FieldPath | null,
): FieldError[] {
  const errs: FieldError[] = [];
  const ke = keyError(key, child(path, 'key'));
  if (ke !== undefined) errs.push(ke);
  const valuePath = child(path, 'values');
  const vals = values ?? [];
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0)
        errs.push(invalid(valuePath, values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1)
        errs.push(invalid(valuePath, values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) {
        errs.push(invalid(valuePath, values, 'values set must be empty for exists and does not exist'));
      }
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) {
        errs.push(invalid(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(notSupported(child(path, 'operator'), operator, VALID_OPERATORS));
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(invalid(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  return errs;
}

/**
 * A validated requirement; throws 400 BadRequest with upstream's aggregated message when the key,
 * operator or values are not acceptable. `values: null` stands for Go's nil list (printed `null`).
 */
export function newRequirement(
  key: string,
  operator: string,
  values: readonly string[] | null,
  path: FieldPath | null = null,
): LabelRequirement {
  const errs = requirementErrors(key, operator, values, path);
  if (errs.length > 0) throw badRequest(aggregateMessage(errs));
  return { key, operator: operator as LabelOperator, values: [...(values ?? [])] };
}

function hasValue(r: LabelRequirement, v: string): boolean {
  return r.values.includes(v);
}

/** Whether one requirement holds for the labels. */
export function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const present = Object.hasOwn(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return present && hasValue(r, labels[r.key]);
    case 'notin':
    case '!=':
      return !present || !hasValue(r, labels[r.key]);
    case 'exists':
      return present;
    case '!':
      return !present;
    case 'gt':
    case 'lt': {
      if (!present || r.values.length !== 1) return false;
      const have = parseInt64(labels[r.key]);
      const want = parseInt64(r.values[0]);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

function codePointCompare(a: string, b: string): number {
  // Go compares strings bytewise, which for UTF-8 is code point order; UTF-16 order differs
  // above U+FFFF, so compare code points rather than with < on strings.
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

function sortedValues(values: readonly string[]): string[] {
  return [...values].sort(codePointCompare);
}

/** The requirement as the selector syntax writes it (`a in (x,y)`, `!b`, `c>3`). */
export function requirementString(r: LabelRequirement): string {
  const head = r.operator === '!' ? `!${r.key}` : r.key;
  const vals = r.values.length === 1 ? r.values[0] : sortedValues(r.values).join(',');
  switch (r.operator) {
    case 'exists':
    case '!':
      return head;
    case 'in':
      return `${head} in (${vals})`;
    case 'notin':
      return `${head} notin (${vals})`;
    case 'gt':
      return `${head}>${vals}`;
    case 'lt':
      return `${head}<${vals}`;
    default:
      return `${head}${r.operator}${vals}`;
  }
}

/** A parsed or converted label selector: requirements sorted by key, all of which must hold. */
export class LabelMatcher {
  private constructor(
    readonly requirements: readonly LabelRequirement[],
    private readonly selectsNone: boolean,
  ) {}

  private static readonly EVERYTHING = new LabelMatcher([], false);
  private static readonly NOTHING = new LabelMatcher([], true);

  /** Matches every object (an empty selector). */
  static everything(): LabelMatcher {
    return LabelMatcher.EVERYTHING;
  }

  /** Matches no object (a missing structured selector). */
  static nothing(): LabelMatcher {
    return LabelMatcher.NOTHING;
  }

  /** Builds from requirements, sorting them by key as upstream does. */
  static of(requirements: readonly LabelRequirement[]): LabelMatcher {
    if (requirements.length === 0) return LabelMatcher.EVERYTHING;
    return new LabelMatcher(
      [...requirements].sort((a, b) => codePointCompare(a.key, b.key)),
      false,
    );
  }

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    if (this.selectsNone) return false;
    const ls = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, ls));
  }

  /** True for a selector without requirements, which selects everything. */
  empty(): boolean {
    return !this.selectsNone && this.requirements.length === 0;
  }

  matchesNothing(): boolean {
    return this.selectsNone;
  }

  add(...reqs: LabelRequirement[]): LabelMatcher {
    if (this.selectsNone) return this;
    return LabelMatcher.of([...this.requirements, ...reqs]);
  }

  /** The value a key must have when the selector pins it to one (`a=b`, `a in (b)`). */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (r === undefined) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
      return r.values[0];
    }
    return undefined;
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

/** Whether the selector has no requirements and so selects every object. */
export function selectsEverything(m: LabelMatcher): boolean {
  return m.empty();
}

/** A selector requiring each label of the set, without validating them. */
export function matcherFromSet(set: Readonly<Record<string, string>> | undefined): LabelMatcher {
  return LabelMatcher.of(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=', values: [v] })));
}

/** A selector requiring each label of the set; throws BadRequest for invalid keys or values. */
export function validatedMatcherFromSet(set: Readonly<Record<string, string>> | undefined): LabelMatcher {
  return LabelMatcher.of(Object.entries(set ?? {}).map(([key, v]) => newRequirement(key, '=', [v])));
}

// ---------------------------------------------------------------------------------------------
// The string syntax

// Token kinds of upstream's lexer.
const Tok = {
  End: 1,
  ClosePar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;
type Tok = (typeof Tok)[keyof typeof Tok];

const KEYWORDS: ReadonlyMap<string, Tok> = new Map([
  [')', Tok.ClosePar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);

interface Token {
  tok: Tok;
  lit: string;
}

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SPACE = new Set([' ', '\t', '\r', '\n']);
// Upstream's lexer reads NUL as the end of input, so a NUL byte ends the token it is in.
const EOF = '\0';

function tokenize(s: string): Token[] {
  let pos = 0;
  const read = (): string => {
    if (pos < s.length) return s[pos++];
    return EOF;
  };
  const out: Token[] = [];
  for (;;) {
    let ch = read();
    while (SPACE.has(ch)) ch = read();
    if (ch === EOF) {
      out.push({ tok: Tok.End, lit: '' });
      return out;
    }
    if (SPECIAL.has(ch)) {
      // Longest run of symbols that still forms a token: `!=`, `==`; `=!` is `=` then `!`.
      let buf = ch;
      let last: Token = { tok: KEYWORDS.get(ch)!, lit: ch };
      for (;;) {
        const next = read();
        if (next === EOF) break;
        if (!SPECIAL.has(next)) {
          pos--;
          break;
        }
        buf += next;
        const t = KEYWORDS.get(buf);
        if (t !== undefined) {
          last = { tok: t, lit: buf };
        } else {
          pos--;
          break;
        }
      }
      out.push(last);
      continue;
    }
    let word = ch;
    for (;;) {
      const next = read();
      if (next === EOF) break;
      if (SPECIAL.has(next) || SPACE.has(next)) {
        pos--;
        break;
      }
      word += next;
    }
    out.push({ tok: KEYWORDS.get(word) ?? Tok.Identifier, lit: word });
  }
}

class SelectorSyntaxError extends Error {}

class Parser {
  private pos = 0;
  constructor(
    private readonly items: Token[],
    private readonly path: FieldPath | null,
  ) {}

  // In value position the keywords `in` and `notin` are plain words (a label may be named `in`).
  private peek(values: boolean): Token {
    return this.asContext(this.items[this.pos], values);
  }

  private take(values: boolean): Token {
    return this.asContext(this.items[this.pos++], values);
  }

  private asContext(t: Token, values: boolean): Token {
    if (values && (t.tok === Tok.In || t.tok === Tok.NotIn)) return { tok: Tok.Identifier, lit: t.lit };
    return t;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek(true);
      if (t.tok === Tok.Identifier || t.tok === Tok.DoesNotExist) {
        let r: LabelRequirement;
        try {
          r = this.requirement();
        } catch (e) {
          throw new SelectorSyntaxError(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const after = this.take(true);
        if (after.tok === Tok.End) return reqs;
        if (after.tok === Tok.Comma) {
          const n = this.peek(true);
          if (n.tok !== Tok.Identifier && n.tok !== Tok.DoesNotExist) {
            throw new SelectorSyntaxError(`found '${n.lit}', expected: identifier after ','`);
          }
          continue;
        }
        throw new SelectorSyntaxError(`found '${after.lit}', expected: ',' or 'end of string'`);
      }
      if (t.tok === Tok.End) return reqs;
      throw new SelectorSyntaxError(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private requirement(): LabelRequirement {
    let negated = false;
    let t = this.take(true);
    if (t.tok === Tok.DoesNotExist) {
      negated = true;
      t = this.take(true);
    }
    if (t.tok !== Tok.Identifier) throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const ke = keyError(key, this.path);
    if (ke !== undefined) throw new Error(errorString(ke));
    const n = this.peek(true).tok;
    if (negated || n === Tok.End || n === Tok.Comma) {
      return this.validated(key, negated ? '!' : 'exists', []);
    }
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return this.validated(key, op, sortedValues([...new Set(values)]));
  }

  private validated(key: string, op: LabelOperator, values: string[]): LabelRequirement {
    const errs = requirementErrors(key, op, values, this.path);
    if (errs.length > 0) throw new Error(aggregateMessage(errs));
    return { key, operator: op, values };
  }

  private operator(): LabelOperator {
    const t = this.take(false);
    switch (t.tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new Error(`found '${t.lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  }

  private valueSet(): string[] {
    const open = this.take(true);
    if (open.tok !== Tok.OpenPar) throw new Error(`found '${open.lit}' expected: '('`);
    const first = this.peek(true);
    if (first.tok === Tok.Identifier || first.tok === Tok.Comma) {
      const list = this.identifierList();
      if (this.take(true).tok !== Tok.ClosePar) throw new Error(`found '${first.lit}', expected: ')'`);
      return list;
    }
    if (first.tok === Tok.ClosePar) {
      this.take(true);
      return [''];
    }
    throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
  }

  // Empty entries (`(,a)`, `(a,)`, `(a,,b)`) stand for the empty value, as upstream reads them.
  private identifierList(): string[] {
    const out: string[] = [];
    for (;;) {
      const t = this.take(true);
      if (t.tok === Tok.Identifier) {
        out.push(t.lit);
        const n = this.peek(true);
        if (n.tok === Tok.Comma) continue;
        if (n.tok === Tok.ClosePar) return out;
        throw new Error(`found '${n.lit}', expected: ',' or ')'`);
      }
      if (t.tok === Tok.Comma) {
        if (out.length === 0) out.push('');
        const n = this.peek(true).tok;
        if (n === Tok.ClosePar) {
          out.push('');
          return out;
        }
        if (n === Tok.Comma) out.push('');
        continue;
      }
      throw new Error(`found '${t.lit}', expected: ',', or identifier`);
    }
  }

  private exactValue(): string[] {
    const n = this.peek(true).tok;
    if (n === Tok.End || n === Tok.Comma) return [''];
    const t = this.take(true);
    if (t.tok === Tok.Identifier) return [t.lit];
    throw new Error(`found '${t.lit}', expected: identifier`);
  }
}

/** The requirements of a selector string in the order written; throws SelectorSyntaxError. */
function parseRequirements(selector: string, path: FieldPath | null): LabelRequirement[] {
  return new Parser(tokenize(selector), path).parse();
}

/**
 * Parses `?labelSelector=`. Throws a 400 BadRequest ApiError whose message is upstream's parse
 * error (`unable to parse requirement: ...`, `found 'x', expected: ...`).
 */
export function parseLabelSelector(selector: string, path: FieldPath | null = null): LabelMatcher {
  try {
    return LabelMatcher.of(parseRequirements(selector, path));
  } catch (e) {
    if (e instanceof SelectorSyntaxError) throw badRequest(e.message);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// The structured LabelSelector

const STRUCTURED_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts an object's LabelSelector: a missing one selects nothing, an empty one everything.
 * Throws BadRequest with upstream's message for a bad key, value or operator.
 */
export function labelSelectorAsMatcher(ps: LabelSelector | null | undefined): LabelMatcher {
  if (ps === null || ps === undefined) return LabelMatcher.nothing();
  const labels = Object.entries(ps.matchLabels ?? {});
  const exprs = ps.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return LabelMatcher.everything();
  const reqs: LabelRequirement[] = labels.map(([k, v]) => newRequirement(k, '=', [v]));
  for (const e of exprs) {
    const op = STRUCTURED_OPERATORS[e.operator];
    if (op === undefined)
      throw badRequest(`${goQuote(String(e.operator))} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, op, e.values !== undefined && e.values.length > 0 ? e.values : null));
  }
  return LabelMatcher.of(reqs);
}

export interface LabelSelectorValidationOptions {
  /** Keep accepting stored selectors whose values predate the current rules. */
  allowInvalidLabelValueInSelector?: boolean;
  /** Let unknown operators through (access reviews check more broadly). */
  allowUnknownOperatorInRequirement?: boolean;
}

/** Field errors for a LabelSelector inside an object (`spec.selector`). */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  path: FieldPath,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  if (ps === null || ps === undefined) return errs;
  errs.push(...validateLabels(ps.matchLabels, path.child('matchLabels')));
  (ps.matchExpressions ?? []).forEach((req, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            forbiddenField(
              p.child('values'),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        }
        break;
      default:
        if (!opts.allowUnknownOperatorInRequirement) {
          errs.push(invalid(p.child('operator'), req.operator, 'not a valid selector operator'));
        }
    }
    errs.push(...validateLabelName(req.key, p.child('key')));
    if (!opts.allowInvalidLabelValueInSelector) {
      values.forEach((v, vi) => {
        for (const msg of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(vi), v, msg));
      });
    }
  });
  return errs;
}
