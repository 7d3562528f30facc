// Configuration text to a plain value, with every repeated key found and named by its path. YAML
// and JSON go through one YAML 1.2 parser (JSON is YAML), walked node by node rather than through
// the library's own conversion, because a strict decode must report each repeat where it is, as
// upstream's strict decoder does, and the last occurrence still wins, as in Go's decoders. Text
// that looks like JSON is first checked by JSON.parse so that its syntax errors read as JSON's.

import { type Document, isAlias, isMap, isScalar, isSeq, type Node, parseDocument } from 'yaml';
import { type FieldError, FieldPath, forbidden } from '../../../machinery/field-errors.ts';

export class ConfigSyntaxError extends Error {
  override name = 'ConfigSyntaxError';
}

/** Nodes a walk may visit: aliases can make a short text expand enormously ("billion laughs"). */
const MAX_NODES = 1_000_000;

export interface ParsedText {
  value: unknown;
  /** One error per repeated key, at the repeat's path. */
  duplicates: FieldError[];
}

export function parseConfigText(text: string): ParsedText {
  if (text.trim().length === 0) throw new ConfigSyntaxError('empty config data');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      JSON.parse(text);
    } catch (err) {
      throw new ConfigSyntaxError(`json: ${(err as Error).message}`);
    }
  }
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigSyntaxError(`yaml: ${doc.errors.map((e) => e.message.split('\n')[0]).join('; ')}`);
  }
  const walk = new Walk(doc);
  const value = walk.node(doc.contents, null);
  return { value, duplicates: walk.duplicates };
}

class Walk {
  readonly duplicates: FieldError[] = [];
  private visited = 0;

  constructor(private readonly doc: Document) {}

  node(n: Node | null, path: FieldPath | null): unknown {
    if (++this.visited > MAX_NODES) throw new ConfigSyntaxError('yaml: document contains excessive aliasing');
    if (n === null || n === undefined) return null;
    if (isAlias(n)) return this.node(n.resolve(this.doc) ?? null, path);
    if (isScalar(n)) return n.value ?? null;
    if (isSeq(n)) return n.items.map((item, i) => this.node(item as Node, at(path, i)));
    if (isMap(n)) {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const pair of n.items) {
        const k = pair.key as Node | null;
        const key = isScalar(k) ? String(k.value) : String(k);
        const p = path === null ? FieldPath.of(key) : path.child(key);
        if (seen.has(key)) this.duplicates.push(forbidden(p, 'duplicate field'));
        seen.add(key);
        Object.defineProperty(out, key, {
          value: this.node(pair.value as Node | null, p),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return null;
  }
}

function at(path: FieldPath | null, i: number): FieldPath {
  // A top-level list has no field to hang the index on; upstream prints it as `[i]`.
  return path === null ? FieldPath.of('').index(i) : path.index(i);
}
