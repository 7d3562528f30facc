// Duplicate keys in a JSON text. JSON.parse keeps the last value of a repeated key without a word,
// but upstream's strict decoder reports each repeat (`duplicate field "spec.paused"`), in document
// order among the unknown fields. This scanner reads text JSON.parse has already accepted, so it
// only tracks structure: where each key sits, and which keys an object has seen.

export interface KeyOccurrence {
  /** Dotted path in the decoder's style: `spec.template.spec.containers[0].imagePullPolicy`. */
  path: string;
  /** Position among all keys of the document, in reading order: sorts reports the way Go emits them. */
  ordinal: number;
}

export interface DuplicateScan {
  duplicates: KeyOccurrence[];
  /** Ordinal of the first occurrence of each path asked for with `ordinalsOf`. */
  ordinals: Map<string, number>;
}

enum Ch {
  Quote = 0x22,
  Backslash = 0x5c,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  OpenBracket = 0x5b,
  CloseBracket = 0x5d,
  Colon = 0x3a,
  Comma = 0x2c,
}

interface Frame {
  /** Keys seen so far in an object; undefined for an array. */
  keys?: Set<string>;
  /** The path of the container itself. */
  path: string;
  /** Next element index, for arrays. */
  index: number;
  /** The key or index the next value belongs to. */
  pending: string;
}

/** Index just past the string that opens at `at` (a quote). */
function skipString(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === Ch.Quote) return i + 1;
    i += c === Ch.Backslash ? 2 : 1;
  }
}

/**
 * Scans valid JSON for repeated object keys. `ordinalsOf` names paths (unknown fields, typically)
 * whose first-occurrence ordinal the caller needs for ordering; it costs nothing when empty.
 */
export function scanDuplicateKeys(text: string, ordinalsOf: ReadonlySet<string> = new Set()): DuplicateScan {
  const duplicates: KeyOccurrence[] = [];
  const ordinals = new Map<string, number>();
  const stack: Frame[] = [];
  let ordinal = 0;
  let expectKey = false;
  const childPath = (f: Frame) =>
    f.keys === undefined ? `${f.path}[${f.pending}]` : f.path === '' ? f.pending : `${f.path}.${f.pending}`;
  const valuePath = () => (stack.length === 0 ? '' : childPath(stack[stack.length - 1]));

  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === Ch.Quote) {
      const end = skipString(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys !== undefined) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        top.pending = key;
        const path = childPath(top);
        if (top.keys.has(key)) duplicates.push({ path, ordinal });
        else {
          top.keys.add(key);
          if (ordinalsOf.has(path)) ordinals.set(path, ordinal);
        }
        ordinal++;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === Ch.OpenBrace || c === Ch.OpenBracket) {
      const path = valuePath();
      stack.push(
        c === Ch.OpenBrace
          ? { keys: new Set(), path, index: 0, pending: '' }
          : { path, index: 0, pending: '0' },
      );
      expectKey = c === Ch.OpenBrace;
    } else if (c === Ch.CloseBrace || c === Ch.CloseBracket) {
      stack.pop();
    } else if (c === Ch.Comma) {
      const top = stack[stack.length - 1];
      if (top.keys === undefined) top.pending = String(++top.index);
      else expectKey = true;
    }
    i++;
  }
  return { duplicates, ordinals };
}
