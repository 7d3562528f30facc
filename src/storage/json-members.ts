// The top-level members of a JSON object's text, found without parsing their values: where each
// key and value starts and ends. A consumer that needs one member of a large object (the metadata
// of a 3 MiB ConfigMap) parses that member's text alone instead of the whole object.
//
// The scan checks structure only (strings, brackets, commas): it is meant for text that
// JSON.stringify wrote, and answers undefined for anything it does not follow, so a caller can
// fall back to JSON.parse and get exactly what a full decode would give (including its error).

/** One member of an object: its key (unescaped) and its value's text as [valueStart, valueEnd). */
export interface Member {
  key: string;
  /** Index of the key's opening quote. */
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string whose opening quote is at `i`; -1 if it does not end. */
function skipString(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    // The quote is escaped when an odd number of backslashes runs up to it.
    let k = j - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
}

/** The index just past the value starting at `i`; -1 if it is not one the scan follows. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(text, j);
        if (j < 0) return -1;
        j--;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    j++;
  }
  return j === i ? -1 : j;
}

/**
 * Walks the members of the object `text` holds, handing each to `visit` until it answers false.
 * Answers false when the text is not an object the scan follows (then nothing visited counts),
 * true when the walk ended, at the object's end or because `visit` stopped it.
 */
export function walkMembers(text: string, visit: (member: Member) => boolean): boolean {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return false;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return skipSpace(text, i + 1) === text.length;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return false;
    const keyStart = i;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return false;
    let key = text.slice(keyStart + 1, keyEnd - 1);
    if (key.includes('\\')) {
      try {
        key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
      } catch {
        return false;
      }
    }
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return false;
    const valueStart = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return false;
    if (!visit({ key, keyStart, valueStart, valueEnd })) return true;
    i = skipSpace(text, valueEnd);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return skipSpace(text, i + 1) === text.length;
    if (c !== COMMA) return false;
    i = skipSpace(text, i + 1);
  }
}

/**
 * The value of the object's member `name` as JSON.parse(text)[name] gives it, parsing that member
 * alone when the scan finds it (the first of its name: text JSON.stringify wrote has no repeats).
 * With `only`, an object value keeps just those of its members, each parsed alone: a 3 MiB
 * ConfigMap's managedFields are skipped over rather than built. Text whose structure the scan does
 * not follow is parsed whole (and throws as JSON.parse does); the scan does not check the
 * spelling of numbers and literals it skips.
 */
export function memberOf(text: string, name: string, only?: ReadonlySet<string>): unknown {
  let found: Member | undefined;
  const followed = walkMembers(text, (m) => {
    if (m.key !== name) return true;
    found = m;
    return false;
  });
  if (!followed) return pick(fullParseMember(text, name), only);
  if (found === undefined) return undefined;
  const value = text.slice(found.valueStart, found.valueEnd);
  if (only === undefined || value.charCodeAt(0) !== OPEN_BRACE) return JSON.parse(value);
  const out: Record<string, unknown> = {};
  const inner = walkMembers(value, (m) => {
    if (only.has(m.key) && !Object.hasOwn(out, m.key)) {
      out[m.key] = JSON.parse(value.slice(m.valueStart, m.valueEnd));
    }
    return true;
  });
  return inner ? out : pick(JSON.parse(value), only);
}

/** `value`'s members named in `only`, when it is an object and `only` is given. */
function pick(value: unknown, only: ReadonlySet<string> | undefined): unknown {
  if (only === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (only.has(k)) out[k] = v;
  return out;
}

function fullParseMember(text: string, name: string): unknown {
  const obj: unknown = JSON.parse(text);
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  return Object.hasOwn(obj, name) ? (obj as Record<string, unknown>)[name] : undefined;
}
