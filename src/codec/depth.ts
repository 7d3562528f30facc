// Nesting depth: how deeply a body may nest arrays and maps. JSON.parse reads any depth without
// recursing, but almost everything after it recurses (V8's structuredClone gives up near 1,900
// levels, JSON.stringify near 4,100, the YAML library near 640 when writing and 780 when reading,
// where it then exhausts memory building its error message), so a body nested too deeply must be
// refused before any of them sees it. Upstream's decoders stop at 10,000 levels; this server's
// walkers cannot go that far, so the limit here is lower and every decoder and patcher enforces it
// with a cheap iterative check and a 400/422 in upstream's words, never a stack overflow.

/** The deepest nesting of arrays and maps a request body or a patched object may have. */
export const MAX_NESTING_DEPTH = 500;

/** Go's encoding/json wording when a document nests too deeply (`'{'` or `'['` is where). */
export const jsonDepthMessage = (opener: '{' | '[') => `invalid character '${opener}' exceeded max depth`;

/**
 * Scans JSON text for nesting beyond `limit`, without parsing it: the bracket that goes too deep,
 * or undefined. Brackets inside strings do not count. Invalid JSON is left for the parser.
 */
export function jsonTooDeep(text: string, limit = MAX_NESTING_DEPTH): '{' | '[' | undefined {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: an escaped quote does not end it.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return c === 0x7b ? '{' : '[';
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return undefined;
}

/**
 * The container that nests beyond `limit` in a decoded value (`{` for a map, `[` for a list), or
 * undefined. Iterative, and it stops at the first one, so a hostile value costs no more than its size.
 */
export function valueTooDeep(value: unknown, limit = MAX_NESTING_DEPTH): '{' | '[' | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  // Two stacks side by side, and keys read in place: no allocation per container walked.
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return Array.isArray(v) ? '[' : '{';
    if (Array.isArray(v)) {
      for (const c of v) {
        if (c !== null && typeof c === 'object') {
          values.push(c);
          depths.push(depth + 1);
        }
      }
    } else {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        const c = o[k];
        if (c !== null && typeof c === 'object') {
          values.push(c);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** The deepest nesting of `value`, counting no further than `limit + 1`. */
export function depthOf(value: unknown, limit = MAX_NESTING_DEPTH): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (depth > deepest) deepest = depth;
    if (depth > limit) return deepest;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, depth + 1]);
  }
  return deepest;
}

/**
 * An upper bound on how deeply YAML text nests, found without parsing it: flow collections
 * (`[`, `{`) are counted outright, block collections by the stack of indentations that opens them
 * (with compact `- - x` sequences counting one level per dash), as the YAML scanner keeps them.
 * Quoted scalars, comments and the bodies of block scalars (`|`, `>`) are skipped. Returns the
 * 1-based line where `limit` is first exceeded, or undefined.
 */
export function yamlTooDeep(text: string, limit = MAX_NESTING_DEPTH): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  let blockScalarIndent = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    // At the start of a line.
    let col = 0;
    while (i < n && text.charCodeAt(i) === 0x20) {
      i++;
      col++;
    }
    const lineEnd = (() => {
      const e = text.indexOf('\n', i);
      return e === -1 ? n : e;
    })();
    const blank = i >= lineEnd || text[i] === '#' || text[i] === '\r';
    if (blockScalarIndent >= 0) {
      if (blank || col > blockScalarIndent) {
        i = lineEnd + 1;
        line++;
        continue;
      }
      blockScalarIndent = -1;
    }
    if (!blank && flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1] > col) indents.pop();
      if (indents.length === 0 || indents[indents.length - 1] < col) indents.push(col);
      // Compact sequences: every further `- ` on the line opens one more level.
      let j = i;
      while (text[j] === '-' && (text[j + 1] === ' ' || j + 1 >= lineEnd)) {
        j++;
        while (text[j] === ' ') j++;
        if (text[j] === '-' && (text[j + 1] === ' ' || j + 1 >= lineEnd)) indents.push(j);
      }
    }
    if (indents.length + flow > limit) return line;
    // The rest of the line: flow brackets, quotes, comments, a block scalar's indicator.
    let atValueStart = true;
    let lastToken = '';
    for (; i < lineEnd; i++) {
      const ch = text[i];
      if (ch === ' ' || ch === '\t') {
        continue;
      }
      if (ch === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) break;
      if ((ch === '"' || ch === "'") && (atValueStart || flow > 0)) {
        const q = ch;
        for (i++; i < n; i++) {
          const s = text[i];
          if (s === '\n') line++;
          if (q === '"' && s === '\\') i++;
          else if (s === q) {
            if (q === "'" && text[i + 1] === "'") i++;
            else break;
          }
        }
        atValueStart = false;
        lastToken = 'scalar';
        continue;
      }
      if ((ch === '[' || ch === '{') && (atValueStart || flow > 0)) {
        flow++;
        if (indents.length + flow > limit) return line;
        atValueStart = true;
        continue;
      }
      if ((ch === ']' || ch === '}') && flow > 0) {
        flow--;
        atValueStart = false;
        continue;
      }
      if (ch === ',' && flow > 0) {
        atValueStart = true;
        continue;
      }
      if ((ch === ':' || ch === '-' || ch === '?') && (text[i + 1] === ' ' || i + 1 >= lineEnd)) {
        atValueStart = true;
        lastToken = ch;
        continue;
      }
      if ((ch === '|' || ch === '>') && atValueStart && flow === 0) {
        // The indicator may carry chomping and indentation marks: `|-`, `>+2`.
        while (i + 1 < lineEnd && /[-+0-9]/.test(text[i + 1])) i++;
        lastToken = 'block';
      } else lastToken = 'scalar';
      atValueStart = false;
    }
    // A block scalar's body is text, however it is indented.
    if (lastToken === 'block') blockScalarIndent = indents.length > 0 ? indents[indents.length - 1] : 0;
    // A quoted scalar may have ended on a later line: continue from where it ended.
    const next = text.indexOf('\n', i);
    if (next === -1) break;
    i = next + 1;
    line++;
  }
  return undefined;
}
