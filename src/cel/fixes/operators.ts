// Run-time replacements on a checked AST (see ast.ts for why they are per node). Each replacement
// looks at the values it is given and either handles them (CEL's semantics, from values.ts,
// time.ts, conversions.ts) or passes them on to the engine's own function: so a fix only ever
// changes what the engine got wrong, and dyn operands keep the engine's dispatch for the rest.
// Nodes whose static types the engine already handles right (`string == string`, `int < int`,
// `map(string, V)["key"]`) are left alone, so the common paths cost nothing more.

import { Duration, Optional, UnsignedInt } from '../engine.ts';
import { type Evaluator, forEachNode, type Node } from './ast.ts';
import {
  divideInt,
  intFromDouble,
  intFromString,
  intFromUint,
  moduloInt,
  negateInt,
  stringFromBytes,
  uintFromDouble,
  uintFromString,
} from './conversions.ts';
import {
  addDurations,
  addTimestampDuration,
  DURATION_GETTERS,
  formatDuration,
  formatTimestamp,
  parseDuration,
  parseTimestamp,
  subtractDurations,
  subtractTimestampDuration,
  subtractTimestamps,
  TIMESTAMP_GETTERS,
  timestampParts,
} from './time.ts';
import {
  celCompare,
  celEquals,
  celError,
  isMap,
  listContains,
  listIndex,
  mapFromEntries,
  mapGet,
} from './values.ts';

/** Returned by a fix that leaves the values to the engine. */
const ENGINE = Symbol('engine');

type Binary = (l: unknown, r: unknown, ast: Node, ev: unknown) => unknown;
type Fix = (l: unknown, r: unknown) => unknown;

/** Types whose `==` the engine gets right when both sides have them statically. */
const ENGINE_EQUALITY = new Set(['string', 'bool', 'int', 'double', 'null', 'type', 'bytes']);
/** Types whose ordering the engine gets right when both sides have them statically. */
const ENGINE_ORDER = new Set(['string', 'bool', 'int', 'uint', 'double']);

const TIME = new Set(['google.protobuf.Timestamp', 'google.protobuf.Duration', 'dyn']);

function binaryFix(op: string, left: string, right: string): Fix | undefined {
  switch (op) {
    case '==':
      return left === right && ENGINE_EQUALITY.has(left) ? undefined : celEquals;
    case '!=':
      return left === right && ENGINE_EQUALITY.has(left) ? undefined : (l, r) => !celEquals(l, r);
    case 'in':
      return (l, r) =>
        Array.isArray(r) ? listContains(r, l) : isMap(r) ? mapGet(r, l) !== undefined : ENGINE;
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (left === right && ENGINE_ORDER.has(left)) return undefined;
      const test = RELATIONS[op];
      return (l, r) => {
        const c = celCompare(l, r);
        return c === undefined ? ENGINE : test(c);
      };
    }
    case '/':
    case '%': {
      if (!((left === 'int' || left === 'dyn') && (right === 'int' || right === 'dyn'))) return undefined;
      const f = op === '/' ? divideInt : moduloInt;
      return (l, r) => (typeof l === 'bigint' && typeof r === 'bigint' ? f(l, r) : ENGINE);
    }
    case '+':
      if (!TIME.has(left) && !TIME.has(right)) return undefined;
      return (l, r) => {
        if (l instanceof Date && r instanceof Duration) return addTimestampDuration(l, r);
        if (l instanceof Duration && r instanceof Date) return addTimestampDuration(r, l);
        if (l instanceof Duration && r instanceof Duration) return addDurations(l, r);
        return ENGINE;
      };
    case '-':
      if (!TIME.has(left) && !TIME.has(right)) return undefined;
      return (l, r) => {
        if (l instanceof Date && r instanceof Date) return subtractTimestamps(l, r);
        if (l instanceof Date && r instanceof Duration) return subtractTimestampDuration(l, r);
        if (l instanceof Duration && r instanceof Duration) return subtractDurations(l, r);
        return ENGINE;
      };
    case '[?]':
      return optionalIndex;
    case '[]':
      // A list indexed by an int and a string-keyed map by a string are the engine's own fast paths.
      if (
        (left.startsWith('list') && right === 'int') ||
        (left.startsWith('map<string,') && right === 'string')
      )
        return undefined;
      if (!(left.startsWith('list') || left.startsWith('map') || left === 'dyn')) return undefined;
      return index;
  }
  return undefined;
}

const RELATIONS: Readonly<Record<string, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

/** Indexing a list by uint or integral double, and a map by key value (mixed numbers, Map keys). */
function index(l: unknown, r: unknown): unknown {
  if (Array.isArray(l)) {
    if (typeof r === 'bigint') return ENGINE;
    const i = listIndex(r);
    if (i === undefined) throw celError('invalid_argument', `invalid list index: ${String(r)}`);
    return new IndexWith(i);
  }
  if (l instanceof Map && l.constructor === Map) {
    const v = mapGet(l, r);
    if (v === undefined) throw celError('no_such_key', `No such key: ${String(r)}`);
    return v;
  }
  if (isMap(l) && typeof r !== 'string') throw celError('no_such_key', `No such key: ${String(r)}`);
  return ENGINE;
}

/** `m[?k]` on a Map finds its key by value too (an absent key is optional.none()). */
function optionalIndex(l: unknown, r: unknown): unknown {
  const m = l instanceof Optional ? l.orValue(undefined) : l;
  if (!(m instanceof Map && m.constructor === Map)) return ENGINE;
  return Optional.of(mapGet(m, r));
}

/** An index fix's answer that the engine should still look up (so its errors and checks stay). */
class IndexWith {
  constructor(readonly key: bigint) {}
}

type CallFix = (args: readonly unknown[]) => unknown;

/** Global functions by `name/arity`. */
const CALLS: Readonly<Record<string, CallFix>> = {
  'int/1': ([v]) => {
    if (typeof v === 'number') return intFromDouble(v);
    if (typeof v === 'string') return intFromString(v);
    if (v instanceof UnsignedInt) return intFromUint(v);
    if (v instanceof Date) return timestampParts(v).seconds;
    return ENGINE;
  },
  'uint/1': ([v]) => {
    if (typeof v === 'number') return uintFromDouble(v);
    if (typeof v === 'string') return uintFromString(v);
    return ENGINE;
  },
  'string/1': ([v]) => {
    if (v instanceof Uint8Array) return stringFromBytes(v);
    if (v instanceof Date) return formatTimestamp(v);
    if (v instanceof Duration) return formatDuration(v);
    return ENGINE;
  },
  'timestamp/1': ([v]) => (typeof v === 'string' ? parseTimestamp(v) : v instanceof Date ? v : ENGINE),
  'duration/1': ([v]) => (typeof v === 'string' ? parseDuration(v) : v instanceof Duration ? v : ENGINE),
};

/** Member functions: the timestamp and duration accessors, with or without a time zone. */
function memberFix(name: string, argc: number): CallFix | undefined {
  const ts = TIMESTAMP_GETTERS[name];
  const dur = argc === 0 ? DURATION_GETTERS[name] : undefined;
  if (ts === undefined && dur === undefined) return undefined;
  return ([recv, tz]) => {
    if (recv instanceof Date && ts !== undefined) {
      if (argc === 1 && typeof tz !== 'string') return ENGINE;
      return ts(recv, tz as string | undefined);
    }
    if (recv instanceof Duration && dur !== undefined) return dur(recv);
    return ENGINE;
  };
}

/** A map literal's evaluator: keys keep their types (mapFromEntries). */
function evaluateMap(ev: Evaluator, ast: Node, ctx: unknown): unknown {
  const entries = ast.args as [Node, Node][];
  const keys = new Array<unknown>(entries.length);
  const values = new Array<unknown>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    keys[i] = ev.run(entries[i][0], ctx);
    values[i] = ev.run(entries[i][1], ctx);
  }
  return mapFromEntries(keys, values);
}

const typeOf = (n: Node | undefined) => n?.checkedType?.name ?? 'dyn';

/**
 * Installs the run-time fixes on a checked AST. `engineMapEvaluate` is the engine's own evaluator
 * of map literals: only those still using it are replaced (a language extension, such as optional
 * entries, may have given a literal its own).
 */
export function fixChecked(root: unknown, engineMapEvaluate: unknown): void {
  forEachNode(root, (n) => {
    const original = n.handle;
    switch (n.op) {
      case '==':
      case '!=':
      case 'in':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '/':
      case '%':
      case '+':
      case '-':
      case '[]':
      case '[?]': {
        const fix = binaryFix(n.op, typeOf(n.left), typeOf(n.right));
        if (fix === undefined || original === undefined) return;
        n.handle = ((l, r, ast, ev) => {
          const v = fix(l, r);
          if (v === ENGINE) return original(l, r, ast, ev);
          return v instanceof IndexWith ? original(l, v.key, ast, ev) : v;
        }) satisfies Binary;
        return;
      }
      case '-_':
        if (original === undefined || !['int', 'dyn'].includes(typeOf(n.args as Node))) return;
        n.handle = (v: unknown, ast: Node, ev: unknown) =>
          typeof v === 'bigint' ? negateInt(v) : original(v, ast, ev);
        return;
      case 'call': {
        const [name, args] = n.args as [string, unknown[]];
        const fix = CALLS[`${name}/${args.length}`];
        if (fix === undefined || original === undefined) return;
        n.handle = (values: unknown[], ast: Node, ev: unknown) => {
          const v = fix(values);
          return v === ENGINE ? original(values, ast, ev) : v;
        };
        return;
      }
      case 'rcall': {
        const [name, , args] = n.args as [string, Node, unknown[]];
        const fix = memberFix(name, args.length);
        if (fix === undefined || original === undefined) return;
        n.handle = (values: unknown[], ev: unknown, ast: Node) => {
          const v = fix(values);
          return v === ENGINE ? original(values, ev, ast) : v;
        };
        return;
      }
      case 'map':
        if ((n.args as unknown[]).length > 0 && n.meta.evaluate === engineMapEvaluate)
          n.setMeta('evaluate', evaluateMap);
        return;
    }
  });
}
