// Literal syntax the engine's lexer gets wrong, fixed around it rather than inside it:
//  - raw bytes literals (`br'...'`, `rb"..."`, any case) do not lex at all: each is replaced, before
//    parsing, by a plain bytes literal of the same length (spaces inside), so every position stays
//    put, and its value is decoded here and put into the parsed node;
//  - every bytes literal's value is decoded here again, since the engine keeps one byte per UTF-16
//    unit (`b'ÿ'` became 0xff, not the UTF-8 bytes c3 bf);
//  - a float literal written without its leading zero (`.5`) lexes as a dot: a `0` is inserted, and
//    the positions after it are shifted back when the AST and errors are reported;
//  - a field name quoted in backticks (`m.\`content-type\``, cel-spec's escaped identifiers) is not
//    lexed: it is replaced by underscores of the same length, and the parsed selection gets the
//    name back.
// The scan knows CEL's token shapes only as far as it needs to skip strings, comments and numbers.

export interface Preprocessed {
  /** What the engine parses. */
  text: string;
  /** Bytes literals by their start in `text`: the value CEL gives them. */
  bytes: Map<number, Uint8Array>;
  /** Backtick-quoted field names by their start in `text`. */
  quoted: Map<number, string>;
  /** Offsets in `text` at which one character was inserted, ascending. */
  inserted: number[];
}

const IDENT = /[A-Za-z0-9_]/;

/** Whether an expression may hold anything preprocess changes: a bytes literal or a `.5` float. */
const MAY_NEED = /[bB][rR]?['"]|[rR][bB]['"]|(?:^|[^\w)\]])\.\d|`/;

export function preprocess(expr: string): Preprocessed {
  if (!MAY_NEED.test(expr)) return { text: expr, bytes: new Map(), quoted: new Map(), inserted: [] };
  const out: string[] = [];
  const bytes = new Map<number, Uint8Array>();
  const quoted = new Map<number, string>();
  const inserted: number[] = [];
  let shift = 0;
  let i = 0;
  const n = expr.length;
  while (i < n) {
    const c = expr[i];
    if (c === '/' && expr[i + 1] === '/') {
      const end = expr.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out.push(expr.slice(i, stop));
      i = stop;
      continue;
    }
    const lit = i === 0 || !IDENT.test(expr[i - 1]) ? literalAt(expr, i) : undefined;
    if (lit !== undefined) {
      const source = expr.slice(i, lit.end);
      if (lit.bytes) {
        bytes.set(i + shift, decodeBytes(expr.slice(lit.bodyStart, lit.bodyEnd), lit.raw));
        // A raw bytes literal becomes `b` + quotes + spaces: the same length, and a bytes token.
        out.push(
          lit.raw ? `b${lit.quote}${' '.repeat(lit.end - i - 1 - 2 * lit.quote.length)}${lit.quote}` : source,
        );
      } else {
        out.push(source);
      }
      i = lit.end;
      continue;
    }
    if (c === '`') {
      const m = /^`([A-Za-z0-9_./ -]+)`/.exec(expr.slice(i));
      if (m !== null) {
        quoted.set(i + shift, m[1]);
        out.push('_'.repeat(m[0].length));
        i += m[0].length;
        continue;
      }
    }
    if (c >= '0' && c <= '9') {
      const m = /^(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uU]?/.exec(expr.slice(i));
      const len = m === null ? 1 : m[0].length;
      out.push(expr.slice(i, i + len));
      i += len;
      continue;
    }
    if (c === '.' && /[0-9]/.test(expr[i + 1] ?? '')) {
      inserted.push(i + shift);
      shift++;
      out.push('0.');
      i++;
      continue;
    }
    if (IDENT.test(c)) {
      let j = i + 1;
      while (j < n && IDENT.test(expr[j])) j++;
      out.push(expr.slice(i, j));
      i = j;
      continue;
    }
    out.push(c);
    i++;
  }
  return { text: out.join(''), bytes, quoted, inserted };
}

/** Maps an offset in the preprocessed text back to the expression as written. */
export function originalOffset(p: Preprocessed, offset: number): number {
  let o = offset;
  for (const at of p.inserted) {
    if (at >= offset) break;
    o--;
  }
  return o;
}

interface Literal {
  end: number;
  raw: boolean;
  bytes: boolean;
  quote: string;
  /** Where the body starts and ends (between the quotes). */
  bodyStart: number;
  bodyEnd: number;
}

/** A string or bytes literal starting at `i` (prefix included), or undefined. */
function literalAt(s: string, i: number): Literal | undefined {
  let j = i;
  let raw = false;
  let bytes = false;
  while (j < i + 2 && /[rRbB]/.test(s[j] ?? '')) {
    if (s[j] === 'r' || s[j] === 'R') raw = true;
    else bytes = true;
    j++;
  }
  if (j - i === 2 && !(raw && bytes)) return undefined;
  const q = s[j];
  if (q !== '"' && q !== "'") return undefined;
  const quote = s.startsWith(q.repeat(3), j) ? q.repeat(3) : q;
  const bodyStart = j + quote.length;
  let k = bodyStart;
  while (k < s.length) {
    if (s.startsWith(quote, k)) return { end: k + quote.length, raw, bytes, quote, bodyStart, bodyEnd: k };
    // The engine skips the character after a backslash even in raw literals; so does this scan,
    // so that both agree on where a literal ends.
    k += s[k] === '\\' ? 2 : 1;
  }
  return undefined;
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '\\': 0x5c,
  '?': 0x3f,
  '"': 0x22,
  "'": 0x27,
  '`': 0x60,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
};

const encoder = new TextEncoder();

/**
 * The bytes of a bytes literal: characters as UTF-8, escapes as the octets they name. Escapes the
 * engine rejects never get here (it has parsed the literal first); one it accepted but CEL does
 * not know is kept as written.
 */
function decodeBytes(body: string, raw: boolean): Uint8Array {
  if (raw) return encoder.encode(body);
  const out: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c !== '\\') {
      const cp = body.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      for (const b of encoder.encode(ch)) out.push(b);
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    if (e in SIMPLE_ESCAPES) {
      out.push(SIMPLE_ESCAPES[e]);
      i += 2;
    } else if ((e === 'x' || e === 'X') && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 2, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (/^[0-3][0-7]{2}$/.test(body.slice(i + 1, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      for (const b of encoder.encode(body.slice(i, i + 2))) out.push(b);
      i += 2;
    }
  }
  return Uint8Array.from(out);
}
