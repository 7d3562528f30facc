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
  /** The container holding this one (undefined at the top), and this one's key or index there. */
  parent: Frame | undefined;
  name: string | number;
  /** The path of the container itself, spelled out the first time it is needed. */
  path?: string;
  /** Next element index, for arrays. */
  index: number;
  /** The key the next value belongs to, for objects. */
  pending: string;
}

/**
 * The path of a container. Most documents repeat no key, so paths are spelled out only for a
 * repeat (or an ordinal asked for), not for every key and element of a large body.
 */
function pathOf(f: Frame): string {
  if (f.path !== undefined) return f.path;
  // Iterative: a document may nest as deeply as the depth limit allows.
  const chain: Frame[] = [];
  let g: Frame | undefined = f;
  while (g !== undefined && g.path === undefined) {
    chain.push(g);
    g = g.parent;
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i];
    c.path = c.parent === undefined ? '' : childPathIn(c.parent, c.name);
  }
  return chain[0].path as string; // chain[0] is f, its path set just now
}

/** The path of the value at `name` (a key or an index) in container `f`. */
function childPathIn(f: Frame, name: string | number): string {
  const base = pathOf(f);
  return f.keys === undefined ? `${base}[${name}]` : base === '' ? String(name) : `${base}.${name}`;
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
  const wantOrdinals = ordinalsOf.size > 0;

  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === Ch.Quote) {
      const end = skipString(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys !== undefined) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        top.pending = key;
        if (top.keys.has(key)) duplicates.push({ path: childPathIn(top, key), ordinal });
        else {
          top.keys.add(key);
          if (wantOrdinals) {
            const path = childPathIn(top, key);
            if (ordinalsOf.has(path)) ordinals.set(path, ordinal);
          }
        }
        ordinal++;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === Ch.OpenBrace || c === Ch.OpenBracket) {
      const parent = stack[stack.length - 1];
      const name = parent === undefined ? '' : parent.keys === undefined ? parent.index : parent.pending;
      const keys = c === Ch.OpenBrace ? new Set<string>() : undefined;
      stack.push({ keys, parent, name, index: 0, pending: '' });
      expectKey = c === Ch.OpenBrace;
    } else if (c === Ch.CloseBrace || c === Ch.CloseBracket) {
      stack.pop();
    } else if (c === Ch.Comma) {
      const top = stack[stack.length - 1];
      if (top.keys === undefined) top.index++;
      else expectKey = true;
    }
    i++;
  }
  return { duplicates, ordinals };
}
