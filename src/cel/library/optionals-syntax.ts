// The optional entry syntax of list and map literals, `[a, ?b]` and `{?k: v}`, which the engine's
// parser does not accept (it knows only `x.?f` and `x[?k]`). Before parsing, a scan finds each `?`
// that opens a list element or a map entry and blanks it, so the engine parses an ordinary literal
// with every offset unchanged; after parsing, the same scan tells which elements of which literal
// (by the literal's opening offset) were optional, and optionals-ast.ts gives those literals
// cel-go's semantics (an entry whose optional value is none is left out).

/** Per literal (offset of its `[` or `{`): element index -> offset of the `?` before it. */
export type OptionalEntries = Map<number, Map<number, number>>;

interface Frame {
  kind: 'list' | 'map' | 'other';
  opener: number;
  index: number;
  /** Nothing but whitespace since the opener or the last top-level comma. */
  atStart: boolean;
}

const IDENT = /[A-Za-z0-9_]/;

/**
 * Finds the optional entries of list and map literals. Returns undefined when there are none
 * (the common case: callers then parse the expression as it is).
 */
export function scanOptionalEntries(src: string): OptionalEntries | undefined {
  if (!src.includes('?')) return undefined;
  let entries: OptionalEntries | undefined;
  const stack: Frame[] = [];
  // Whether the last token ends an operand: then `[` indexes and `{` builds a message, rather
  // than opening a list or map literal.
  let afterOperand = false;
  let i = 0;
  const n = src.length;
  const top = () => stack[stack.length - 1];
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const frame = top();
    if (c === '?' && frame !== undefined && frame.kind !== 'other' && frame.atStart) {
      entries ??= new Map();
      let byIndex = entries.get(frame.opener);
      if (byIndex === undefined) {
        byIndex = new Map();
        entries.set(frame.opener, byIndex);
      }
      byIndex.set(frame.index, i);
      frame.atStart = false;
      afterOperand = false;
      i++;
      continue;
    }
    if (frame !== undefined) frame.atStart = false;
    if (c === '"' || c === "'") {
      i = skipString(src, i, false);
      afterOperand = true;
      continue;
    }
    if (IDENT.test(c)) {
      let j = i;
      while (j < n && IDENT.test(src[j])) j++;
      const word = src.slice(i, j);
      if ((src[j] === '"' || src[j] === "'") && /^[rRbB]{1,2}$/.test(word)) {
        i = skipString(src, j, /[rR]/.test(word));
        afterOperand = true;
        continue;
      }
      i = j;
      afterOperand = word !== 'in';
      continue;
    }
    switch (c) {
      case '[':
      case '{':
        stack.push({
          kind: afterOperand ? 'other' : c === '[' ? 'list' : 'map',
          opener: i,
          index: 0,
          atStart: true,
        });
        afterOperand = false;
        break;
      case '(':
        stack.push({ kind: 'other', opener: i, index: 0, atStart: false });
        afterOperand = false;
        break;
      case ')':
      case ']':
      case '}':
        stack.pop();
        afterOperand = true;
        break;
      case ',':
        if (frame !== undefined) {
          frame.index++;
          frame.atStart = true;
        }
        afterOperand = false;
        break;
      default:
        afterOperand = false;
    }
    i++;
  }
  return entries;
}

/** Index just past the string literal whose opening quote is at `start`. */
function skipString(src: string, start: number, raw: boolean): number {
  const q = src[start];
  const triple = src[start + 1] === q && src[start + 2] === q;
  let i = start + (triple ? 3 : 1);
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && !raw) {
      i += 2;
      continue;
    }
    if (c === q && (!triple || (src[i + 1] === q && src[i + 2] === q))) return i + (triple ? 3 : 1);
    i++;
  }
  return i;
}

/** The expression with each optional-entry `?` blanked (same length, same offsets). */
export function blankOptionalMarkers(src: string, entries: OptionalEntries | undefined): string {
  if (entries === undefined) return src;
  const chars = src.split('');
  for (const byIndex of entries.values()) for (const q of byIndex.values()) chars[q] = ' ';
  return chars.join('');
}
