// `<string>.format(<list>)` of the strings extension: the format string read as cel-go reads it
// (`%%`, an optional `.<precision>`, the verb; arguments taken in order) with cel-go's messages,
// for both ways cel-go formats (strings-format-clauses.ts): versions 1-3, which kube-apiserver
// 1.35 enables (StringsVersion(2)), and version 4, the CEL specification's, which the
// conformance data tests. The compile-time checker (strings-validate.ts) runs the same reader.

import { goQuote } from '../../machinery/field-errors.ts';
import {
  type Clause,
  FormatError,
  type Formatter,
  specFormatter,
  textFormatter,
} from './strings-format-clauses.ts';

export { type Clause, FormatError, type Formatter } from './strings-format-clauses.ts';

/** cel-go's later cap on a clause's precision (`%.9999999f` allocated 792 MB); 1.35 had none. */
const MAX_PRECISION = 1000;

function fail(message: string, at?: unknown): never {
  throw new FormatError(message, at);
}

// --- the format string --------------------------------------------------------------------------------

/** Reads `.<digits>` at `at`: the characters read and the precision (undefined without a dot). */
function readPrecision(s: string, at: number): [number, number | undefined] {
  if (s[at] !== '.') return [0, undefined];
  let i = at + 1;
  while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  const prefix = 'error while parsing precision: ';
  if (i >= s.length) fail(`${prefix}could not find end of precision specifier`);
  const digits = s.slice(at + 1, i);
  const atoi = `error while converting precision to integer: strconv.Atoi: parsing ${goQuote(digits)}`;
  if (digits === '') fail(`${prefix}${atoi}: invalid syntax`);
  const value = BigInt(digits);
  if (value > 2n ** 63n - 1n) fail(`${prefix}${atoi}: value out of range`);
  if (value > BigInt(MAX_PRECISION))
    fail(`${prefix}precision ${value} exceeds maximum allowed precision ${MAX_PRECISION}`);
  return [i - at, Number(value)];
}

function clauseAt(s: string, at: number, f: Formatter): [number, Clause] {
  let read: number;
  let precision: number | undefined;
  try {
    [read, precision] = readPrecision(s, at);
  } catch (err) {
    return fail(`could not parse formatting clause: ${(err as Error).message}`);
  }
  const verb = s[at + read];
  const clause = ((): Clause | undefined => {
    switch (verb) {
      case 's':
        return f.string;
      case 'd':
        return f.decimal;
      case 'f':
        return f.fixed(precision);
      case 'e':
        return f.scientific(precision);
      case 'b':
        return f.binary;
      case 'x':
      case 'X':
        return f.hex(verb === 'X');
      case 'o':
        return f.octal;
    }
    return undefined;
  })();
  if (clause === undefined)
    fail(
      `could not parse formatting clause: unrecognized formatting clause "${String.fromCodePoint(s.codePointAt(at + read)!)}"`,
    );
  return [read + 1, clause];
}

/**
 * `fmt.format(args)` of the strings extension at `version` (1 to 3: kube-apiserver's; 4 and later:
 * the CEL specification's). Throws a FormatError with cel-go's message.
 */
export function formatString(version: number, fmt: string, args: readonly unknown[]): string {
  return runFormat(fmt, args, version >= 4 ? specFormatter : textFormatter).text;
}

/** cel-go's parseFormatString: the text and how many arguments the clauses took. */
export function runFormat(
  fmt: string,
  args: readonly unknown[],
  f: Formatter,
): { text: string; used: number } {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) fail(`index ${argIndex} out of range`);
    if (i + 1 >= fmt.length) fail('unexpected end of string');
    const [read, clause] = clauseAt(fmt, i + 1, f);
    let text: string;
    try {
      text = clause(args[argIndex]);
    } catch (err) {
      return fail(`error during formatting: ${(err as Error).message}`, (err as FormatError).at);
    }
    out += text;
    i += read + 1;
    argIndex++;
  }
  return { text: out, used: argIndex };
}
