// Media type parsing and Accept negotiation. Parameters matter here: kubectl asks for
// `application/json;as=Table;v=v1;g=<meta group>` and falls back to plain JSON further down its
// Accept list, so a clause asking for a representation we cannot give is skipped, not refused.

export interface MediaType {
  /** `type/subtype`, lowercased. */
  essence: string;
  params: Record<string, string>;
  /** Quality (q parameter), 1 when absent. */
  q: number;
}

/** Parses one media type (`application/json; charset=utf-8`); null when malformed. */
export function parseMediaType(text: string): MediaType | null {
  const [head, ...rest] = text.split(';');
  const essence = head.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*-]+$/.test(essence)) return null;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq === -1) {
      if (p.trim() === '') continue;
      return null;
    }
    const key = p.slice(0, eq).trim().toLowerCase();
    let value = p.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (key === 'q') {
      const n = Number(value);
      q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
    } else {
      params[key] = value;
    }
  }
  return { essence, params, q };
}

/**
 * The clauses of an Accept header, best first (by q, then by order). Malformed clauses are
 * dropped; an absent or empty header accepts anything.
 */
export function parseAccept(header: string | undefined): MediaType[] {
  if (header === undefined || header.trim() === '') return [{ essence: '*/*', params: {}, q: 1 }];
  const clauses: { m: MediaType; i: number }[] = [];
  header.split(',').forEach((part, i) => {
    const m = parseMediaType(part);
    if (m !== null && m.q > 0) clauses.push({ m, i });
  });
  clauses.sort((a, b) => b.m.q - a.m.q || a.i - b.i);
  return clauses.map((c) => c.m);
}

/** Whether an Accept clause's type (possibly with wildcards) covers a concrete type. */
export function covers(pattern: string, concrete: string): boolean {
  if (pattern === '*/*') return true;
  const [pt, ps] = pattern.split('/');
  const [ct, cs] = concrete.split('/');
  return pt === ct && (ps === '*' || ps === cs);
}
