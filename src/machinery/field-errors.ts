// Field paths and field-level validation errors. Their wording, the way a bad value is printed and
// the `<field>: <message>` form are what clients see inside Invalid statuses, so they follow
// upstream's field package to the byte (value rendering mimics Go's %q, %v and encoding/json).

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** Marks an error whose value is not printed (upstream's omitValue). */
export const OMITTED_VALUE: unique symbol = Symbol('omitted value');

export interface FieldError {
  type: FieldErrorType;
  /** The rendered path, `spec.containers[0].name`. */
  field: string;
  /** The offending value; `OMITTED_VALUE` prints only the type. */
  badValue?: unknown;
  detail: string;
  /** A stable identifier of the rule that failed (`minimum`, `format=k8s-label-key`); never shown. */
  origin?: string;
}

/** What a Status carries for one field error. */
export interface FieldCause {
  reason: FieldErrorType;
  message: string;
  field: string;
}

/**
 * An immutable field path. Children share their parent, so building paths in loops is cheap.
 * A path element is either a field name or a subscript (list index or map key).
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | null,
    private readonly name: string,
    private readonly subscript: string | null,
  ) {}

  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(null, name, null);
    for (const n of more) p = new FieldPath(p, n, null);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name, null);
    for (const n of more) p = new FieldPath(p, n, null);
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, '', String(i));
  }

  key(k: string): FieldPath {
    return new FieldPath(this, '', k);
  }

  toString(): string {
    const elems: FieldPath[] = [];
    for (let p: FieldPath | null = this; p !== null; p = p.parent) elems.push(p);
    let out = '';
    for (let i = elems.length - 1; i >= 0; i--) {
      const e = elems[i];
      if (e.name.length > 0) {
        out += e.parent !== null ? `.${e.name}` : e.name;
      } else {
        // An empty-named root prints as `[]` upstream; keeping that keeps odd paths identical.
        out += `[${e.subscript ?? ''}]`;
      }
    }
    return out;
  }
}

/** `newPath('spec', 'template')` is `spec.template`. */
export function newPath(name: string, ...more: string[]): FieldPath {
  return FieldPath.of(name, ...more);
}

/** A path, an already rendered path, or null (which upstream prints as `<nil>`). */
export type PathLike = FieldPath | string | null;

function pathString(p: PathLike): string {
  if (p === null) return '<nil>';
  return typeof p === 'string' ? p : p.toString();
}

// ---------------------------------------------------------------------------------------------
// Go-compatible value rendering

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const SIMPLE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Quotes a string as Go's strconv.Quote (and so `%q`) does. */
export function goQuote(s: string): string {
  let out = '"';
  for (let ch of s) {
    let cp = ch.codePointAt(0)!;
    // A lone surrogate cannot survive decoding into a Go string; it becomes U+FFFD there.
    if (cp >= 0xd800 && cp <= 0xdfff) {
      ch = '\ufffd';
      cp = 0xfffd;
    }
    if (ch === '"' || ch === '\\') {
      out += `\\${ch}`;
    } else if (cp === 0x20 || (cp > 0x7e && PRINTABLE.test(ch)) || (cp > 0x20 && cp < 0x7f)) {
      out += ch;
    } else if (SIMPLE_ESCAPES[ch] !== undefined) {
      out += SIMPLE_ESCAPES[ch];
    } else if (cp < 0x20 || cp === 0x7f) {
      out += `\\x${cp.toString(16).padStart(2, '0')}`;
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/** A float64 the way Go's `%v` prints it: shortest digits, exponent form outside [1e-4, 1e6). */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(v).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return frac.length > 0 ? `${sign}${whole}.${frac}` : `${sign}${whole}`;
}

/** JSON as Go's encoding/json writes it: HTML-sensitive characters escaped. */
export function goJson(v: unknown): string {
  // Scalars need no replacer (it is there for bigints inside objects): field paths and manager
  // names serialize a string per key on every write, where a replacer call showed in profiles.
  const text =
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? JSON.stringify(v)
      : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
  if (text === undefined) return 'null';
  if (!HTML_SENSITIVE_TEST.test(text)) return text;
  return text.replace(HTML_SENSITIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const HTML_SENSITIVE = /[<>&\u2028\u2029]/g;
/** The same class without the global flag, whose test() keeps no lastIndex between calls. */
const HTML_SENSITIVE_TEST = /[<>&\u2028\u2029]/;

/** How a bad value appears after `Invalid value: `. */
export function renderValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      // Integers come from Go's integer fields upstream, which print without an exponent.
      return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : goFloat(v);
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      return goJson(v ?? null);
  }
}

// ---------------------------------------------------------------------------------------------
// Constructors

/** How each error type reads in a message (Go's ErrorType.String()). */
export const TYPE_TEXT: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

function make(type: FieldErrorType, path: PathLike, badValue: unknown, detail: string): FieldError {
  return { type, field: pathString(path), badValue, detail };
}

/** `Required value[: detail]`. */
export function required(path: PathLike, detail = ''): FieldError {
  return make('FieldValueRequired', path, '', detail);
}

/** `Invalid value: <value>[: detail]`. */
export function invalid(path: PathLike, value: unknown, detail = ''): FieldError {
  return make('FieldValueInvalid', path, value, detail);
}

/** `Invalid value: <value>[: detail]`, for values of the wrong type. */
export function typeInvalid(path: PathLike, value: unknown, detail = ''): FieldError {
  return make('FieldValueTypeInvalid', path, value, detail);
}

/** `Not found: <value>`. */
export function notFound(path: PathLike, value: unknown): FieldError {
  return make('FieldValueNotFound', path, value, '');
}

/** `Duplicate value: <value>`. */
export function duplicate(path: PathLike, value: unknown): FieldError {
  return make('FieldValueDuplicate', path, value, '');
}

/** `Unsupported value: <value>: supported values: "a", "b"`. */
export function notSupported(path: PathLike, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '';
  return make('FieldValueNotSupported', path, value, detail);
}

/** `Forbidden[: detail]`. */
export function forbidden(path: PathLike, detail = ''): FieldError {
  return make('FieldValueForbidden', path, '', detail);
}

/** `Too long: may not be more than N bytes` (the value itself is never shown); negative N: no limit named. */
export function tooLong(path: PathLike, maxLength: number): FieldError {
  const detail =
    maxLength >= 0
      ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`
      : 'value is too long';
  return make('FieldValueTooLong', path, '<value omitted>', detail);
}

/** `Too many: <actual>: must have at most N items`; a negative count or limit is left out. */
export function tooMany(path: PathLike, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return make('FieldValueTooMany', path, actual >= 0 ? actual : OMITTED_VALUE, detail);
}

/** `Internal error: <message>`, for failures that are not the client's input. */
export function internalFieldError(path: PathLike, err: unknown): FieldError {
  return make('InternalError', path, null, err instanceof Error ? err.message : String(err));
}

export const FIELD_IMMUTABLE_MESSAGE = 'field is immutable';

/** `Invalid value: <new value>: field is immutable`. */
export function immutable(path: PathLike, newValue: unknown): FieldError {
  return invalid(path, newValue, FIELD_IMMUTABLE_MESSAGE);
}

/** Adds an immutable-field error when the two values differ (deep comparison of JSON values). */
export function validateImmutableField(newValue: unknown, oldValue: unknown, path: PathLike): FieldError[] {
  return deepEqual(newValue, oldValue) ? [] : [immutable(path, newValue)];
}

/** Deep equality of JSON-like values; undefined and null count as the same (both are Go's nil). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || a === null) return b === undefined || b === null;
  if (typeof a !== 'object' || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The message without the field: `Invalid value: "x": must be ...`. */
export function errorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      s = TYPE_TEXT[e.type];
      break;
    case 'FieldValueInvalid':
    case 'FieldValueTypeInvalid':
    case 'FieldValueNotSupported':
    case 'FieldValueNotFound':
    case 'FieldValueDuplicate':
    case 'FieldValueTooMany':
      s =
        e.badValue === OMITTED_VALUE ? TYPE_TEXT[e.type] : `${TYPE_TEXT[e.type]}: ${renderValue(e.badValue)}`;
      break;
    default:
      s = `Internal error: unhandled error code: <unknown error ${goQuote(String(e.type))}>: please report this`;
  }
  return e.detail.length > 0 ? `${s}: ${e.detail}` : s;
}

/** `<field>: <body>`. */
export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/**
 * The list as one message: a single error alone, several as `[a, b]`, repeats dropped; '' for
 * none. This is what follows `is invalid: ` in an Invalid status.
 */
export function aggregateMessage(errs: readonly FieldError[]): string {
  const seen = new Set<string>();
  for (const e of errs) seen.add(errorString(e));
  const msgs = [...seen];
  if (msgs.length === 0) return '';
  if (msgs.length === 1) return msgs[0];
  return `[${msgs.join(', ')}]`;
}

/** The Status causes for a list (one per error, repeats kept, as upstream). */
export function toCauses(errs: readonly FieldError[]): FieldCause[] {
  return errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
}

/** Sets the origin of every error in the list and returns it. */
export function withOrigin(errs: FieldError[], origin: string): FieldError[] {
  for (const e of errs) e.origin = origin;
  return errs;
}

/** Prepends `prefix` to every error's detail and returns the list. */
export function prefixDetail(errs: FieldError[], prefix: string): FieldError[] {
  for (const e of errs) e.detail = prefix + e.detail;
  return errs;
}
