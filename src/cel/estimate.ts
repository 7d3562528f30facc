// The static worst-case cost of a checked program, as cel-go's checker.Cost computes it with
// Kubernetes' estimator (k8s.io/apiserver pkg/cel/library/cost.go): every node's cost range,
// comprehensions multiplied by the size of what they iterate, strings and lists sized by what is
// declared for them (a schema's maxLength, maxItems and maxProperties; a caller's figures for its
// variables) or else unknown, which is to say up to 2^64-1. Used at create and update time:
// compile(env, expr, { costLimit }) refuses what could cost more than its limit.
//
// Sizes are looked up by path, as upstream does: the variable, then field names, `@items` for a
// list's elements, `@keys` and `@values` for a map's (`self.spec.ports.@items.name`).
// It reads the engine's checked AST (cel-js node shapes) without importing the package.

import type { Program } from './compile.ts';
import {
  addBounds,
  type Bounds,
  fixed,
  fromBounds,
  LIST_CREATE_BASE_COST,
  LIST_LITERAL_BASE_COST,
  MAP_CREATE_BASE_COST,
  mulBounds,
  toBounds,
  UINT64_MAX,
  UNKNOWN_SIZE,
  unionBounds,
  ZERO,
} from './costs.ts';
import type { CostRange, Environment, SizeRange } from './environment.ts';
import {
  type EngineType,
  type EntrySize,
  isScalar,
  kindOf,
  literalSize,
  type Node,
  unionEntry,
} from './estimate-ast.ts';
import { estimateCall, estimateOperator } from './estimate-call.ts';

export { type EngineType, type EntrySize, kindOf, type Node } from './estimate-ast.ts';

/** Declared sizes for a path (`['self', 'spec', 'items', '@items']`) whose kind is `string`, `list`, ... */
export type SizeEstimator = (path: readonly string[], kind: string) => SizeRange | undefined;

/** A SizeEstimator, or maxima by dotted path (`{ 'self.spec.items': 100 }` means 0 to 100). */
export type SizeDeclarations = SizeEstimator | Readonly<Record<string, number | SizeRange>>;

export function sizeEstimator(sizes: SizeDeclarations | undefined): SizeEstimator {
  if (sizes === undefined) return () => undefined;
  if (typeof sizes === 'function') return sizes;
  return (path) => {
    const key = path.join('.');
    if (!Object.hasOwn(sizes, key)) return undefined;
    const v = sizes[key];
    return typeof v === 'number' ? { min: 0, max: v } : v;
  };
}

/** The worst case and the best case of one evaluation of `program`, in cost units. */
export function estimateCost(program: Program, sizes?: SizeDeclarations): CostRange {
  return fromBounds(estimateCostExact(program, sizes));
}

/** estimateCost with exact figures (upstream's uint64 arithmetic, saturating at 2^64-1). */
export function estimateCostExact(program: Program, sizes?: SizeDeclarations): Bounds {
  return estimateAst(program.env, program.ast, sizes);
}

/** @internal the estimate of a checked AST (compile.ts uses it before the Program exists). */
export function estimateAst(env: Environment, ast: unknown, sizes?: SizeDeclarations): Bounds {
  const libraryTypes = new Set<string>();
  for (const lib of env.libraries) for (const t of lib.types ?? []) libraryTypes.add(t.name);
  return new Estimator(sizeEstimator(sizes ?? env.sizes), libraryTypes).cost(ast as Node);
}

interface Local {
  path: readonly string[];
  size?: Bounds;
  entry?: EntrySize;
}

/** Per-macro parts of cel-go's expansion that are not the user's predicate or transform. */
const QUANTIFIERS: Readonly<Record<string, number>> = { all: 2, exists: 3 };
const EXISTS_ONE = new Set(['exists_one', 'existsOne']);
const LIST_BUILDERS = new Set(['map', 'filter', 'transformList']);
const MAP_BUILDERS = new Set(['transformMap', 'transformMapEntry']);

export class Estimator {
  readonly #paths = new Map<Node, readonly string[]>();
  readonly #sizes = new Map<Node, Bounds>();
  readonly #entries = new Map<Node, EntrySize>();
  readonly #locals = new Map<string, Local[]>();

  constructor(
    readonly lookup: SizeEstimator,
    readonly libraryTypes: ReadonlySet<string>,
  ) {}

  cost(n: Node): Bounds {
    const alt = n.meta.alternate;
    if (alt !== undefined) {
      if (alt.op === 'comprehension' && (n.op === 'rcall' || n.op === 'call')) return this.#macro(n);
      // A named constant (a type name such as `int`) is an identifier to cel-go's checker.
      if (n.op === 'id') return fixed(1);
      return this.cost(alt);
    }
    const macro = n.meta.macro;
    if (macro !== undefined) {
      // has(x.f): the presence test is free (PresenceTestHasCost(false)); its operand is not.
      // (The engine's macro keeps the selection in `args`, the optionals library's in `arg`.)
      const sel = (Array.isArray(macro.macroHasProps) ? (macro.args as Node[])[0] : macro.arg) as
        | Node
        | undefined;
      if (sel?.op === '.') return this.cost((sel.args as Node[])[0]);
      if ('val' in macro && 'exp' in macro)
        return this.#bind(n, macro.var as string, macro.val as Node, macro.exp as Node);
      // The comprehensions library's two-variable macros.
      if (typeof macro.kind === 'string' && macro.range !== undefined && macro.body !== undefined) {
        const body = [macro.filter, macro.body].filter((x) => x !== undefined) as Node[];
        return this.#comprehension(
          n,
          macro.kind,
          macro.range as Node,
          [macro.first as string, macro.second as string],
          body,
        );
      }
      return fixed(1);
    }
    switch (n.op) {
      case 'value':
        return ZERO;
      case 'id':
        return fixed(1);
      case '.': {
        const [operand, field] = n.args as [Node, string];
        const c = this.cost(operand);
        this.#paths.set(n, [...this.pathOf(operand), field]);
        const k = operand.checkedType?.kind;
        return k === 'map' || k === 'param' || (k === 'message' && !isScalar(operand.checkedType))
          ? addBounds(c, fixed(1))
          : c;
      }
      case '.?':
        return addBounds(this.cost((n.args as Node[])[0]), fixed(1));
      case '[]':
        return this.#index(n);
      case '[?]': {
        const [l, r] = n.args as [Node, Node];
        return addBounds(addBounds(this.cost(l), this.cost(r)), fixed(1));
      }
      case 'list':
        return this.#list(n);
      case 'map':
        return this.#map(n);
      case '?:': {
        const [c, t, f] = n.args as [Node, Node, Node];
        const cost = addBounds(this.cost(c), unionBounds(this.cost(t), this.cost(f)));
        this.#sizes.set(n, unionBounds(this.sizeOrUnknown(t), this.sizeOrUnknown(f)));
        const e = unionEntry(this.entryOf(t), this.entryOf(f));
        if (e !== undefined) this.#entries.set(n, e);
        return cost;
      }
      case '&&':
      case '||': {
        const [l, r] = n.args as [Node, Node];
        const lc = this.cost(l);
        const rc = this.cost(r);
        return { min: lc.min, max: addBounds(lc, rc).max };
      }
      case 'call':
      case 'rcall':
        return estimateCall(this, n);
      default:
        return estimateOperator(this, n);
    }
  }

  // --- sizes and paths ------------------------------------------------------------------------------

  pathOf(n: Node): readonly string[] {
    if (n.op === 'id' && n.meta.alternate === undefined) {
      const local = this.#peek(n.args as string);
      return local !== undefined ? local.path : [n.args as string];
    }
    return this.#paths.get(n) ?? [];
  }

  setPath(n: Node, path: readonly string[]): void {
    this.#paths.set(n, path);
  }

  setSize(n: Node, size: Bounds | undefined): void {
    if (size !== undefined) this.#sizes.set(n, size);
  }

  setEntry(n: Node, entry: EntrySize | undefined): void {
    if (entry !== undefined) this.#entries.set(n, entry);
  }

  /** What is known of a node's size, in upstream's order: computed, literal, declared, by type, local. */
  knownSize(n: Node): Bounds | undefined {
    const computed = this.#sizes.get(n);
    if (computed !== undefined) return computed;
    const literal = literalSize(n);
    if (literal !== undefined) return literal;
    const declared = this.lookup(this.pathOf(n), kindOf(n.checkedType));
    if (declared !== undefined) {
      const b = toBounds(declared);
      this.#sizes.set(n, b);
      return b;
    }
    if (isScalar(n.checkedType)) return fixed(1);
    if (n.op === 'id') return this.#peek(n.args as string)?.size;
    return undefined;
  }

  sizeOrUnknown(n: Node): Bounds {
    return this.knownSize(n) ?? UNKNOWN_SIZE;
  }

  /** A declared size looked up by path and type only (what Kubernetes' listElementNode sees). */
  declaredSize(path: readonly string[], t: EngineType | undefined): Bounds {
    const d = this.lookup(path, kindOf(t));
    return d === undefined ? UNKNOWN_SIZE : toBounds(d);
  }

  entryOf(n: Node): EntrySize | undefined {
    const e = this.#entries.get(n);
    if (e !== undefined) return e;
    if (n.op === 'id') return this.#peek(n.args as string)?.entry;
    return undefined;
  }

  // --- nodes ----------------------------------------------------------------------------------------

  #index(n: Node): Bounds {
    const [l, r] = n.args as [Node, Node];
    const cost = addBounds(addBounds(this.cost(l), this.cost(r)), fixed(1));
    const isList = l.checkedType?.kind === 'list';
    this.#paths.set(n, [...this.pathOf(l), isList ? '@items' : '@values']);
    this.setSize(n, this.entryOf(l)?.val);
    return cost;
  }

  #list(n: Node): Bounds {
    const elems = n.args as Node[];
    let sum = ZERO;
    let val: Bounds = elems.length === 0 ? ZERO : { min: UINT64_MAX, max: 0n };
    for (const e of elems) {
      sum = addBounds(sum, this.cost(e));
      val = unionBounds(val, this.sizeOrUnknown(e));
    }
    this.#entries.set(n, { container: 'list', key: fixed(1), val });
    return addBounds(sum, fixed(LIST_LITERAL_BASE_COST));
  }

  #map(n: Node): Bounds {
    const entries = n.args as [Node, Node][];
    let sum = ZERO;
    let key: Bounds = entries.length === 0 ? ZERO : { min: UINT64_MAX, max: 0n };
    let val = key;
    for (const [k, v] of entries) {
      sum = addBounds(addBounds(sum, this.cost(k)), this.cost(v));
      key = unionBounds(key, this.sizeOrUnknown(k));
      val = unionBounds(val, this.sizeOrUnknown(v));
    }
    this.#entries.set(n, { container: 'map', key, val });
    return addBounds(sum, fixed(MAP_CREATE_BASE_COST));
  }

  #bind(n: Node, name: string, init: Node, body: Node): Bounds {
    // A fold over an empty list literal (10) whose accumulator is the bound value.
    let sum = addBounds(fixed(LIST_CREATE_BASE_COST), this.cost(init));
    this.#push(name, { path: this.pathOf(init), size: this.knownSize(init), entry: this.entryOf(init) });
    sum = addBounds(sum, this.cost(body));
    this.#pop(name);
    this.setSize(n, this.knownSize(body));
    this.setEntry(n, this.entryOf(body));
    return sum;
  }

  /** A comprehension macro, costed as cel-go's expansion of it. */
  #macro(n: Node): Bounds {
    const [name, range, fnArgs] = (
      n.op === 'rcall' ? n.args : [(n.args as unknown[])[0], undefined, (n.args as unknown[])[1]]
    ) as [string, Node | undefined, Node[]];
    const twoVars =
      name.startsWith('transform') ||
      (fnArgs.length === 3 && (Object.hasOwn(QUANTIFIERS, name) || EXISTS_ONE.has(name)));
    const vars = (twoVars ? fnArgs.slice(0, 2) : fnArgs.slice(0, 1)).map((v) => v.args as string);
    const body = fnArgs.slice(vars.length);
    if (range === undefined) return fixed(1);
    return this.#comprehension(n, name, range, vars, body);
  }

  /**
   * A comprehension over `range` binding `vars` (one, or index/key and value), with the user's
   * `body` (predicate; or transform; or filter and transform), costed as cel-go's expansion.
   */
  #comprehension(n: Node, name: string, range: Node, vars: readonly string[], body: readonly Node[]): Bounds {
    let sum = this.cost(range);
    const rangeSize = this.sizeOrUnknown(range);
    const container = this.entryOf(range)?.container ?? (range.checkedType?.kind === 'map' ? 'map' : 'list');
    const entry = this.entryOf(range);
    const rangePath = this.pathOf(range);
    if (vars.length === 1) {
      this.#push(vars[0], {
        path: [...rangePath, container === 'list' ? '@items' : '@keys'],
        size: container === 'list' ? entry?.val : entry?.key,
      });
    } else {
      this.#push(vars[0], {
        path: [...rangePath, container === 'list' ? '@indices' : '@keys'],
        size: entry?.key,
      });
      this.#push(vars[1], {
        path: [...rangePath, container === 'list' ? '@items' : '@values'],
        size: entry?.val,
      });
    }
    let init = ZERO;
    let loop = ZERO;
    let step: Bounds;
    let result = fixed(1);
    const accu = fixed(1);
    if (Object.hasOwn(QUANTIFIERS, name)) {
      // `@not_strictly_false(__result__)` (all) or of `!__result__` (exists); step `__result__ && p`.
      loop = fixed(QUANTIFIERS[name]);
      const p = this.cost(body[0]);
      step = { min: accu.min, max: addBounds(accu, p).max };
      this.setSize(n, fixed(1));
    } else if (EXISTS_ONE.has(name)) {
      // step `p ? __result__ + 1 : __result__`, result `__result__ == 1`.
      step = addBounds(this.cost(body[0]), unionBounds(fixed(2), accu));
      result = fixed(2);
      this.setSize(n, fixed(1));
    } else if (LIST_BUILDERS.has(name) || MAP_BUILDERS.has(name)) {
      const list = LIST_BUILDERS.has(name);
      init = fixed(list ? LIST_CREATE_BASE_COST : MAP_CREATE_BASE_COST);
      const filter = name === 'filter' ? body[0] : body.length === 2 ? body[0] : undefined;
      const transform = name === 'filter' ? undefined : body[body.length - 1];
      let append: Bounds;
      let elemSize: Bounds;
      if (list) {
        // `__result__ + [e]`: the concatenation, the accumulator and a one-element list.
        const e = transform === undefined ? fixed(1) : this.cost(transform);
        elemSize =
          transform === undefined ? this.#iterVarSize(vars[0], range) : this.sizeOrUnknown(transform);
        append = addBounds(e, fixed(2 + LIST_CREATE_BASE_COST));
      } else {
        // `cel.@mapInsert(__result__, k, v)` or `cel.@mapInsert(__result__, entry)`.
        append = addBounds(this.cost(transform as Node), fixed(name === 'transformMap' ? 3 : 2));
        elemSize = ZERO;
      }
      step = filter === undefined ? append : addBounds(this.cost(filter), unionBounds(append, accu));
      this.setSize(n, rangeSize);
      if (list) this.setEntry(n, { container: 'list', key: fixed(1), val: unionBounds(ZERO, elemSize) });
    } else {
      step = body.length > 0 ? this.cost(body[body.length - 1]) : ZERO;
    }
    for (const v of vars) this.#pop(v);
    sum = addBounds(addBounds(addBounds(sum, init), result), mulBounds(rangeSize, addBounds(step, loop)));
    return sum;
  }

  /** The size of a reference to iteration variable `name` over `range` (filter's `[x]`). */
  #iterVarSize(name: string, range: Node): Bounds {
    const l = this.#peek(name);
    const t = range.checkedType;
    const elemType = t?.kind === 'list' ? t.valueType : t?.kind === 'map' ? t.keyType : undefined;
    if (l === undefined) return UNKNOWN_SIZE;
    const declared = this.lookup(l.path, kindOf(elemType));
    if (declared !== undefined) return toBounds(declared);
    if (isScalar(elemType)) return fixed(1);
    return l.size ?? UNKNOWN_SIZE;
  }

  #push(name: string, local: Local): void {
    const stack = this.#locals.get(name);
    if (stack === undefined) this.#locals.set(name, [local]);
    else stack.push(local);
  }

  #pop(name: string): void {
    this.#locals.get(name)?.pop();
  }

  #peek(name: string): Local | undefined {
    const stack = this.#locals.get(name);
    return stack === undefined || stack.length === 0 ? undefined : stack[stack.length - 1];
  }
}
