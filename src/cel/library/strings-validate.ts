// Compile-time checks of literal arguments, as cel-go's AST validators make them after type
// checking: `'<literal>'.format([<list literal>])` (the strings library's format validator: each
// clause against its argument's checked type, no argument left over) here, and regular
// expression literals in regex.ts. A check reports the first issue with the offset cel-go points
// at; compile.ts turns it into a compile error (`ERROR: <input>:1:14: error during formatting:
// decimal clause can only be used on integers, was given string`).
// The AST is the engine's checked AST (nodes with `op`, `args`, `start`, `end`, `checkedType`).

import { type Clause, FormatError, type Formatter, runFormat } from './strings-format.ts';

export interface LiteralIssue {
  /** Where cel-go reports it, in the expression as written. */
  readonly offset: number;
  readonly reason: string;
  /**
   * `program`: upstream fails when it builds the program (a constant pattern that does not
   * compile, with OptOptimize), not when it checks; the message has no position there.
   */
  readonly phase: 'check' | 'program';
}

/** The engine's AST node, as far as the checks read it. */
export interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
  readonly checkedType?: { readonly name: string };
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as Node).op === 'string' && 'args' in x;
}

/** A call in the AST: its name, receiver (for `x.f()`), argument nodes and the node. */
export interface Call {
  readonly name: string;
  readonly receiver?: Node;
  readonly args: readonly Node[];
  readonly node: Node;
}

/** Every call of the AST, outermost first. */
export function* callsIn(root: unknown): Generator<Call> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    if (!isNode(x)) continue;
    const a = x.args;
    if (x.op === 'rcall' && Array.isArray(a)) {
      yield { name: a[0] as string, receiver: a[1] as Node, args: a[2] as Node[], node: x };
    } else if (x.op === 'call' && Array.isArray(a)) {
      yield { name: a[0] as string, args: a[1] as Node[], node: x };
    }
    if (Array.isArray(a)) stack.push(a);
  }
}

/** A string literal's value, or undefined. */
export function stringLiteral(n: Node | undefined): string | undefined {
  return n !== undefined && n.op === 'value' && typeof n.args === 'string' ? n.args : undefined;
}

/** Where cel-go places a call: its opening parenthesis. */
export function callOffset(source: string, c: Call): number {
  const from = c.receiver !== undefined ? c.receiver.end : c.node.start;
  const at = source.indexOf('(', from);
  return at < 0 ? c.node.start : at;
}

const BINARY = new Set(['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||', 'in']);

/**
 * Where cel-go places an expression: a call at its parenthesis, an operator at its symbol (`+`,
 * `?`, `.`, `[`), anything else where it starts.
 */
export function exprOffset(source: string, n: Node): number {
  const a = Array.isArray(n.args) ? (n.args as unknown[]) : [];
  const after = (symbol: string, x: unknown) => {
    const at = isNode(x) ? source.indexOf(symbol, x.end) : -1;
    return at < 0 ? n.start : at;
  };
  if (n.op === 'rcall')
    return callOffset(source, { name: a[0] as string, receiver: a[1] as Node, args: [], node: n });
  if (n.op === 'call') return callOffset(source, { name: a[0] as string, args: [], node: n });
  if (BINARY.has(n.op)) return after(n.op, a[0]);
  if (n.op === '?:') return after('?', a[0]);
  if (n.op === '.' || n.op === '.?') return after('.', a[0]);
  if (n.op === '[]' || n.op === '[?]') return after('[', a[0]);
  return n.start;
}

// --- the format checker ---------------------------------------------------------------------------

/** The kind cel-go compares (Type.Kind()) and the name its messages print, from a checked type. */
function kindOf(n: Node): { kind: string; name: string } {
  const t = n.checkedType?.name ?? 'dyn';
  const base = t.replace(/<.*$/, '');
  switch (base) {
    case 'null':
      return { kind: 'null', name: 'null_type' };
    case 'optional':
      return { kind: 'optional', name: 'optional_type' };
    default:
      return { kind: base, name: base };
  }
}

const STRING_KINDS = [
  'list',
  'map',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'google.protobuf.Timestamp',
  'bytes',
  'google.protobuf.Duration',
  'type',
  'null',
];

/** The first expression %s cannot print: the argument, or an element of a literal list or map. */
function badForString(n: Node): Node | undefined {
  const k = kindOf(n).kind;
  if (k !== 'dyn' && !STRING_KINDS.includes(k)) return n;
  if (n.op === 'list' && Array.isArray(n.args)) {
    for (const e of n.args) {
      const bad = isNode(e) ? badForString(e) : undefined;
      if (bad !== undefined) return bad;
    }
  }
  if (n.op === 'map' && Array.isArray(n.args)) {
    for (const entry of n.args) {
      for (const e of Array.isArray(entry) ? entry : []) {
        const bad = isNode(e) ? badForString(e) : undefined;
        if (bad !== undefined) return bad;
      }
    }
  }
  return undefined;
}

const STRING_CLAUSE =
  'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given';

/** The clause messages of a version (1-3 and 4 word them differently). */
function messages(version: number) {
  const v4 = version >= 4;
  return {
    decimal: v4
      ? 'decimal clause can only be used on ints, uints, and doubles'
      : 'decimal clause can only be used on integers',
    fixed: v4
      ? 'fixed-point clause can only be used on ints, uints, and doubles'
      : 'fixed-point clause can only be used on doubles',
    scientific: v4
      ? 'scientific clause can only be used on ints, uints, and doubles'
      : 'scientific clause can only be used on doubles',
    binary: v4
      ? 'only ints, uints, and bools can be formatted as binary'
      : 'only integers and bools can be formatted as binary',
    hex: v4
      ? 'only ints, uints, bytes, and strings can be formatted as hex'
      : 'only integers, byte buffers, and strings can be formatted as hex',
    octal: v4
      ? 'octal clause can only be used on ints and uints'
      : 'octal clause can only be used on integers',
  };
}

function checking(version: number): Formatter {
  const m = messages(version);
  const v4 = version >= 4;
  const oneOf =
    (message: string, kinds: readonly string[]): Clause =>
    (arg) => {
      const n = arg as Node;
      const { kind, name } = kindOf(n);
      if (kind !== 'dyn' && !kinds.includes(kind)) throw new FormatError(`${message}, was given ${name}`, n);
      return '';
    };
  const numbers = v4 ? ['int', 'uint', 'double'] : ['double', 'string'];
  return {
    string(arg) {
      const bad = badForString(arg as Node);
      if (bad !== undefined) throw new FormatError(`${STRING_CLAUSE} ${kindOf(bad).name}`, bad);
      return '';
    },
    decimal: oneOf(m.decimal, v4 ? ['int', 'uint', 'double'] : ['int', 'uint']),
    fixed: () => oneOf(m.fixed, numbers),
    scientific: () => oneOf(m.scientific, numbers),
    binary: oneOf(m.binary, ['int', 'uint', 'bool']),
    hex: () => oneOf(m.hex, ['int', 'uint', 'string', 'bytes']),
    octal: oneOf(m.octal, ['int', 'uint']),
  };
}

/**
 * The strings library's format validator (versions 1 and later): every `'<literal>'.format([...])`
 * with a list literal is parsed at compile time, each clause checked against its argument's type.
 */
export function validateFormatCalls(ast: unknown, source: string, version: number): LiteralIssue | undefined {
  if (version < 1) return undefined;
  const checker = checking(version);
  for (const c of callsIn(ast)) {
    if (c.name !== 'format' || c.args.length !== 1 || c.args[0].op !== 'list') continue;
    const fmt = stringLiteral(c.receiver);
    if (fmt === undefined) continue;
    const args = (c.args[0].args as unknown[]).filter(isNode);
    try {
      const { used } = runFormat(fmt, args, checker);
      if (args.length > used) {
        return {
          offset: callOffset(source, c),
          reason: `too many arguments supplied to string.format (expected ${used}, got ${args.length})`,
          phase: 'check',
        };
      }
    } catch (err) {
      const at = (err as FormatError).at as Node | undefined;
      return {
        offset: at !== undefined ? exprOffset(source, at) : callOffset(source, c),
        reason: (err as Error).message,
        phase: 'check',
      };
    }
  }
  return undefined;
}
