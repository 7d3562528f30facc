// The engine's checked AST as the estimator reads it (cel-js node shapes, without importing the
// package): node and type shapes, the kind a type has for the cost model, literal sizes, and the
// entry sizes cel-go tracks for list and map literals.

import { type Bounds, fixed, stringSize, unionBounds } from './costs.ts';

export interface EngineType {
  name: string;
  kind: string;
  valueType?: EngineType;
  keyType?: EngineType;
}

export interface Node {
  op: string;
  args: unknown;
  meta: { alternate?: Node; macro?: Record<string, unknown> };
  checkedType?: EngineType;
  candidates?: {
    declarations: { handler: unknown }[];
    findFunction(a: unknown[], r?: unknown): { handler: unknown } | null;
  };
  argTypes?: unknown[];
}

/** The kind a type has for the cost model: `string`, `list`, `map`, `timestamp`, `dyn`, a type name... */
export function kindOf(t: EngineType | undefined): string {
  if (t === undefined) return 'dyn';
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'message':
      if (t.name === 'google.protobuf.Timestamp') return 'timestamp';
      if (t.name === 'google.protobuf.Duration') return 'duration';
      return t.name;
    default:
      return t.kind;
  }
}

const SCALARS = new Set(['bool', 'double', 'duration', 'int', 'timestamp', 'uint']);
export function isScalar(t: EngineType | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'optional') return isScalar(t.valueType);
  return SCALARS.has(kindOf(t));
}

/** Sizes of a literal container's keys (or indices) and values. */
export interface EntrySize {
  container: 'list' | 'map';
  key: Bounds;
  val: Bounds;
}

export function unionEntry(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (a === undefined || b === undefined) return undefined;
  return { container: a.container, key: unionBounds(a.key, b.key), val: unionBounds(a.val, b.val) };
}

/** A literal's own size: a string's code points, a bytes' length, a scalar 1, a container its entries. */
export function literalSize(n: Node): Bounds | undefined {
  if (n.meta.alternate !== undefined) return literalSize(n.meta.alternate);
  switch (n.op) {
    case 'value': {
      const v = n.args;
      if (typeof v === 'string') return fixed(stringSize(v));
      if (v instanceof Uint8Array) return fixed(v.length);
      if (
        typeof v === 'object' &&
        v !== null &&
        !(v instanceof Date) &&
        v.constructor?.name !== 'Duration' &&
        v.constructor?.name !== 'UnsignedInt'
      )
        return undefined;
      return fixed(1);
    }
    case 'list':
      return fixed((n.args as unknown[]).length);
    case 'map':
      return fixed((n.args as unknown[]).length);
    default:
      return undefined;
  }
}
