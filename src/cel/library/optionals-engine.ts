// The engine's internal shapes that the language extensions (optional types, two-variable
// comprehensions, qualified variable names) work with. cel-js exports no parser hooks, but its AST
// nodes, macros, type checker and evaluator are reachable as objects: a macro registered with `ast`
// parameters receives the call's nodes, a node's `meta.check`/`meta.evaluate` can be wrapped, and
// `clone(op, args)` builds new nodes. Declared here structurally (only what we touch), so that no
// file but engine.ts imports the engine package and no `any` leaks out.

/** A type as the engine's checker represents it (`TypeDeclaration`). */
export interface EngineType {
  readonly kind: string;
  readonly name: string;
  readonly type: string;
  readonly keyType?: EngineType;
  readonly valueType?: EngineType;
  readonly hasPlaceholderType: boolean;
  readonly hasDynType: boolean;
  /** The dyn-wrapped form the engine's runtime operator dispatch looks overloads up by. */
  readonly wrappedType: EngineType;
  unify(registry: EngineRegistry, other: EngineType): EngineType | null;
  templated(registry: EngineRegistry, bind: { get(name: string): EngineType | undefined }): EngineType;
  matchesValueType(value: unknown, ev: EngineEvaluator): boolean;
  /** The field or element at `key`, or undefined when absent. */
  fieldLazy(obj: unknown, key: unknown, node: AstNode, ev: EngineEvaluator): unknown;
  /** The field or element at `key`; throws `no such key` when absent. */
  field(obj: unknown, key: unknown, node: AstNode, ev: EngineEvaluator): unknown;
}

export interface EngineRegistry {
  getListType(t: EngineType): EngineType;
  getMapType(k: EngineType, v: EngineType): EngineType;
  getOptionalType(t: EngineType): EngineType;
  findBinaryOverload(
    op: string,
    l: EngineType,
    r: EngineType,
  ): { handler: (a: unknown, b: unknown, node: unknown, ev: EngineEvaluator) => unknown } | false | null;
}

/** The checker (`TypeChecker`) as passed to a node's or macro's check. */
export interface EngineChecker {
  readonly registry: EngineRegistry;
  readonly dynType: EngineType;
  readonly boolType: EngineType;
  readonly intType: EngineType;
  readonly opts: { readonly homogeneousAggregateLiterals: boolean };
  check(node: AstNode, scope: EngineScope): EngineType;
  getType(name: string): EngineType;
  formatType(t: EngineType): string;
  createError(code: string, message: string, node?: AstNode): Error;
}

/** The evaluator as passed to a node's or macro's evaluate. */
export interface EngineEvaluator {
  readonly registry: EngineRegistry;
  run(node: AstNode, scope: EngineScope): unknown;
  debugType(value: unknown): EngineType;
  debugTypeDeep(value: unknown): EngineType;
  createError(code: string, message: string, node?: AstNode): Error;
}

/** A variable scope (RootContext / OverlayContext): one iteration variable per overlay. */
export interface EngineScope {
  forkWithVariable(name: string, type: EngineType): EngineScope;
  /** Rebinds a check-time overlay to the evaluation's parent scope (the overlay is reused). */
  reuse(parent: EngineScope): EngineScope;
  setIterValue(value: unknown, ev: EngineEvaluator): EngineScope;
}

export type CheckFn = (chk: EngineChecker, node: AstNode, scope: EngineScope) => EngineType;
export type EvalFn = (ev: EngineEvaluator, node: AstNode, scope: EngineScope) => unknown;

/** An operator definition as `clone` takes it. */
export interface OpDef {
  name: string;
  check: CheckFn;
  evaluate: EvalFn;
}

export interface AstNode {
  readonly op: string;
  args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  checkedType?: EngineType;
  readonly meta: {
    check: CheckFn;
    evaluate: EvalFn;
    alternate?: AstNode;
    macro?: Record<string, unknown>;
  };
  clone(op: OpDef, args: unknown): AstNode;
  setMeta(key: string, value: unknown): AstNode;
}

/** A macro implemented by our own check and evaluate (no expansion into engine nodes). */
export interface EngineMacro {
  typeCheck(chk: EngineChecker, macro: this, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: this, scope: EngineScope): unknown;
  async: false;
}

/** What a macro registered with `ast` parameters receives when the parser meets its call. */
export interface MacroCall {
  ast: AstNode;
  args: AstNode[];
  receiver: AstNode | null;
  methodName: string;
}

export function isAstNode(x: unknown): x is AstNode {
  return (
    typeof x === 'object' &&
    x !== null &&
    'op' in x &&
    'meta' in x &&
    typeof (x as AstNode).clone === 'function'
  );
}

/**
 * Visits every node of a parsed AST once, including the nodes a macro expanded into (a node's
 * `meta.alternate`, the values of its `meta.macro`). Literal values are not entered.
 */
export function walkAst(root: unknown, visit: (node: AstNode) => void): void {
  const seen = new Set<unknown>();
  const go = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const e of x) go(e);
      return;
    }
    if (!isAstNode(x)) {
      if (Object.getPrototypeOf(x) === Object.prototype) for (const v of Object.values(x)) go(v);
      return;
    }
    visit(x);
    if (x.op !== 'value') go(x.args);
    if (x.meta.alternate !== undefined) go(x.meta.alternate);
    if (x.meta.macro !== undefined) for (const v of Object.values(x.meta.macro)) go(v);
  };
  go(root);
}

/** An error raised while a macro is expanded (reported as a compile error at the node). */
export class MacroError extends Error {
  readonly code = 'invalid_macro_argument';
  readonly summary: string;
  readonly range: { start: number; end: number };
  constructor(message: string, node: AstNode) {
    super(message);
    this.summary = message;
    this.range = { start: node.start, end: node.end };
  }
}

/** The identifier a macro argument must be (`x` in `optMap(x, ...)`), or a MacroError. */
export function identName(node: AstNode, message: string): string {
  if (node.op === 'id' && typeof node.args === 'string') return node.args;
  throw new MacroError(message, node);
}

/** `t` with every type parameter replaced by dyn (a `V` left by `optional.none()` or `{}`). */
export function concreteType(chk: EngineChecker, t: EngineType): EngineType {
  if (!t.hasPlaceholderType) return t;
  const dyn = chk.dynType;
  return t.templated(chk.registry, { get: () => dyn });
}

/**
 * Checks `node` and, when its type still holds type parameters, records the concrete type
 * instead, so the engine's access checks (which cannot index a parameter) see dyn.
 */
export function checkConcrete(chk: EngineChecker, node: AstNode, scope: EngineScope): EngineType {
  const t = chk.check(node, scope);
  if (!t.hasPlaceholderType) return t;
  const c = concreteType(chk, t);
  node.checkedType = c;
  return c;
}
