// The engine's AST as the fixes see it, and the two passes over it. The engine builds a node per
// operation; after type checking, each operator, call and index node holds the function it will
// run (`handle`, chosen from the checked types) and each node its evaluator (`meta.evaluate`).
// Those are ordinary properties, so a fix replaces them on the nodes that need it, and only there:
// a node whose types the engine already handles right keeps the engine's own function.
//  - before checking (fixParsed): literal values and backtick-quoted field names (source.ts),
//    positions shifted by the source pass, the type of an empty list or map a macro iterates, and the result type of
//    `duration + timestamp` (the engine declares it a duration);
//  - after checking (fixChecked): operators.ts's run-time replacements.

import { originalOffset, type Preprocessed } from './source.ts';

/** What the fixes read and write on an engine AST node. */
export interface Node {
  op: string;
  args: unknown;
  pos: number;
  start: number;
  end: number;
  readonly meta: {
    check: CheckFn;
    evaluate: EvaluateFn;
    alternate?: Node;
    macro?: Record<string, unknown>;
  };
  setMeta(key: string, value: unknown): Node;
  /** Set by the checker. */
  checkedType?: { name: string };
  left?: Node;
  right?: Node;
  // biome-ignore lint/suspicious/noExplicitAny: the engine's per-node handler; its arity depends on op.
  handle?: (...args: any[]) => unknown;
}

/** The engine's type checker, as far as the fixes call it. */
export interface Checker {
  getType(name: string): { name: string };
}

export type CheckFn = (chk: Checker, ast: Node, ctx: unknown) => { name: string };
export type EvaluateFn = (ev: Evaluator, ast: Node, ctx: unknown) => unknown;
export interface Evaluator {
  run(ast: Node, ctx: unknown): unknown;
}

export function isNode(x: unknown): x is Node {
  return (
    typeof x === 'object' &&
    x !== null &&
    'op' in x &&
    'meta' in x &&
    typeof (x as Node).setMeta === 'function'
  );
}

/**
 * Calls `fn` once on every node reachable from `root` (an engine node): operands, macro expansions
 * and macro parts. Nodes are told apart by the root's class, which every node shares.
 */
export function forEachNode(root: unknown, fn: (n: Node) => void): void {
  if (!isNode(root)) return;
  const nodeClass = (root as object).constructor;
  const seen = new Set<Node>();
  const visit = (x: unknown): void => {
    if (typeof x !== 'object' || x === null) return;
    if (x.constructor === nodeClass) {
      const n = x as Node;
      if (seen.has(n)) return;
      seen.add(n);
      fn(n);
      visit(n.args);
      const meta = n.meta;
      if (meta.alternate !== undefined) visit(meta.alternate);
      if (meta.macro !== undefined) for (const v of Object.values(meta.macro)) visit(v);
    } else if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) visit(x[i]);
    } else if (x.constructor === Object) {
      for (const v of Object.values(x)) visit(v);
    }
  };
  visit(root);
}

/** An error the fixes raise at parse time, shaped as the engine's (code, bare message, range). */
export class FixError extends Error {
  constructor(
    readonly code: string,
    readonly summary: string,
    readonly range: { start: number; end: number },
  ) {
    super(summary);
  }
}

const MAX_INT = 2n ** 63n - 1n;

const TIMESTAMP = 'google.protobuf.Timestamp';
const DURATION = 'google.protobuf.Duration';

function isEmptyLiteral(n: unknown): n is Node {
  return isNode(n) && (n.op === 'list' || n.op === 'map') && Array.isArray(n.args) && n.args.length === 0;
}

/** Fixes applied to a freshly parsed AST, before the checker sees it. */
export function fixParsed(root: unknown, source: Preprocessed): void {
  // Int literals past int64 (the engine keeps any bigint); 2^63 only as the operand of a minus.
  const tooLarge: Node[] = [];
  const negatedMin = new Set<unknown>();
  forEachNode(root, (n) => {
    if (n.op === '-_' && isNode(n.args) && n.args.op === 'value' && n.args.args === MAX_INT + 1n)
      negatedMin.add(n.args);
    if (n.op === 'value' && typeof n.args === 'bigint' && n.args > MAX_INT) tooLarge.push(n);
    if ((n.op === '.' || n.op === '.?') && source.quoted.size > 0) {
      const name = source.quoted.get(n.pos);
      if (name !== undefined) (n.args as unknown[])[1] = name;
    }
    if (n.op === 'value' && n.args instanceof Uint8Array) {
      const decoded = source.bytes.get(n.start);
      if (decoded !== undefined) n.args = decoded;
    }
    // `[].all(e, e > 0)`: the engine types an empty literal's element as a type parameter, and
    // then finds every `>` overload ambiguous for it. Iterated, it is a list (or map) of dyn.
    if (n.op === 'comprehension') {
      const iterable = (n.args as { iterable?: unknown }).iterable;
      if (isEmptyLiteral(iterable)) {
        const type = iterable.op === 'list' ? 'list<dyn>' : 'map<dyn, dyn>';
        iterable.setMeta('check', (chk: Checker) => chk.getType(type));
      }
    }
    if (n.op === '+') {
      const check = n.meta.check;
      n.setMeta('check', (chk: Checker, ast: Node, ctx: unknown) => {
        const t = check(chk, ast, ctx);
        return t.name === DURATION && ast.right?.checkedType?.name === TIMESTAMP ? chk.getType(TIMESTAMP) : t;
      });
    }
  });
  if (source.inserted.length > 0) {
    forEachNode(root, (n) => {
      n.pos = originalOffset(source, n.pos);
      n.start = originalOffset(source, n.start);
      n.end = originalOffset(source, n.end);
    });
  }
  for (const n of tooLarge) {
    if (!negatedMin.has(n))
      throw new FixError('invalid_int', 'invalid int literal', { start: n.start, end: n.end });
  }
}
