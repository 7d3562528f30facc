// cel-go's optional-value semantics on the engine's parsed AST, applied before type checking:
//  - selection (`x.f`, `x[k]`) on an optional value and optional selection (`x.?f`, `x[?k]`) test
//    presence: none stays none, a present field or key gives optional.of(value), an absent one
//    optional.none() (the engine turned every error into none, and typed `{}.?k` and
//    `optional.none()[0]` with a type parameter it then could not index);
//  - list and map literals with optional entries (`[?x]`, `{?k: v}`, see optionals-syntax.ts);
//  - `has()` over any operand, optional ones included (the engine's accepted only `ident.f...`).
// A "bad presence test" (selecting a field of an int, of null) yields none / false as in
// kube-apiserver, or an error with cel-go's EnableErrorOnBadPresenceTest (the conformance suite).

import { Optional } from '../engine.ts';
import { mapFromEntries, mapGet } from '../fixes/index.ts';
import { isMap, listIndex } from '../fixes/values.ts';
import {
  type AstNode,
  type CheckFn,
  checkConcrete,
  concreteType,
  type EngineChecker,
  type EngineEvaluator,
  type EngineMacro,
  type EngineType,
  type EvalFn,
  walkAst,
} from './optionals-engine.ts';
import { type OptionalEntries, scanOptionalEntries } from './optionals-syntax.ts';

export interface OptionalsAstOptions {
  errorOnBadPresenceTest: boolean;
}

const ABSENT = Symbol('absent');

export function prepareOptionalsAst(root: unknown, expression: string, opts: OptionalsAstOptions): void {
  const entries = scanOptionalEntries(expression);
  walkAst(root, (node) => {
    switch (node.op) {
      case '.':
      case '.?':
      case '[]':
      case '[?]':
        wrapSelect(node, opts);
        break;
      case 'list':
      case 'map':
        if (entries !== undefined) markOptionalEntries(node, entries);
        break;
      case 'call': {
        const [name, args] = node.args as [string, AstNode[]];
        if (name === 'has' && args.length === 1 && node.meta.macro !== undefined) {
          node.setMeta('macro', hasMacro(args[0], opts));
        }
        break;
      }
    }
  });
}

// --- selection -------------------------------------------------------------------------------------

function wrapSelect(node: AstNode, opts: OptionalsAstOptions): void {
  const inner = node.meta.check;
  const check: CheckFn = (chk, n, scope) => {
    const [left] = n.args as [AstNode, unknown];
    checkConcrete(chk, left, scope);
    const t = concreteType(chk, inner(chk, n, scope));
    const optionalOp = n.op === '.?' || n.op === '[?]';
    if (optionalOp || left.checkedType?.kind === 'optional') {
      n.setMeta('evaluate', optionalSelect(n.op, opts));
    }
    return t;
  };
  node.setMeta('check', check);
}

function optionalSelect(op: string, opts: OptionalsAstOptions): EvalFn {
  const isIndex = op === '[]' || op === '[?]';
  const optionalOp = op === '.?' || op === '[?]';
  return (ev, n, scope) => {
    const [left, right] = n.args as [AstNode, AstNode | string];
    let obj = ev.run(left, scope);
    const key = isIndex ? ev.run(right as AstNode, scope) : right;
    if (obj instanceof Optional) {
      if (!obj.hasValue()) return obj;
      obj = obj.value();
    } else if (!optionalOp) {
      return ev.debugType(obj).field(obj, key, n, ev);
    }
    const v = presentValue(ev, obj, key, n, opts.errorOnBadPresenceTest);
    return v === ABSENT ? Optional.none() : Optional.of(v);
  };
}

/** The value at `key` of a map, message or list, or ABSENT; what cel-go's QualifyIfPresent does. */
function presentValue(
  ev: EngineEvaluator,
  obj: unknown,
  key: unknown,
  node: AstNode,
  errorOnBadPresenceTest: boolean,
): unknown {
  if (Array.isArray(obj)) {
    const i = listIndex(key);
    if (i === undefined) throw ev.createError('invalid_argument', `invalid list index: ${String(key)}`, node);
    return i >= 0n && i < BigInt(obj.length) ? obj[Number(i)] : ABSENT;
  }
  if (isMap(obj)) {
    const v = mapGet(obj, key);
    return v === undefined ? ABSENT : v;
  }
  if (obj instanceof Map) {
    // A typed object (the engine's Map subclass, fields read lazily).
    const v = ev.debugType(obj).fieldLazy(obj, key, node, ev);
    return v === undefined ? ABSENT : v;
  }
  if (errorOnBadPresenceTest) throw ev.createError('no_such_key', `No such key: ${String(key)}`, node);
  return ABSENT;
}

// --- has() -------------------------------------------------------------------------------------------

interface HasMacro extends EngineMacro {
  arg: AstNode;
}

function hasMacro(arg: AstNode, opts: OptionalsAstOptions): HasMacro {
  return {
    arg,
    async: false,
    typeCheck(chk, m, scope) {
      if (m.arg.op !== '.') {
        throw chk.createError('invalid_macro_argument', 'invalid argument to has() macro', m.arg);
      }
      checkConcrete(chk, (m.arg.args as [AstNode, string])[0], scope);
      chk.check(m.arg, scope);
      return chk.boolType;
    },
    evaluate(ev, m, scope) {
      const [operand, field] = m.arg.args as [AstNode, string];
      let obj = ev.run(operand, scope);
      if (obj instanceof Optional) {
        if (!obj.hasValue()) return false;
        obj = obj.value();
      }
      return presentValue(ev, obj, field, m.arg, opts.errorOnBadPresenceTest) !== ABSENT;
    },
  };
}

// --- optional entries of list and map literals ----------------------------------------------------

function markOptionalEntries(node: AstNode, entries: OptionalEntries): void {
  const marks = entries.get(node.start);
  if (marks === undefined) return;
  const elems = node.args as (AstNode | [AstNode, AstNode])[];
  const optional = new Set<number>();
  for (const [i, q] of marks) {
    const e = elems[i];
    // Macro expansions clone nodes at the call's offset (an empty accumulator list): only the
    // literal itself has an element after the `?`.
    const first = Array.isArray(e) ? e[0] : e;
    if (first !== undefined && first.start > q) optional.add(i);
  }
  if (optional.size === 0) return;
  node.setMeta('check', node.op === 'list' ? listCheck(optional) : mapCheck(optional));
}

/** The type an optional entry contributes: T of optional(T) (dyn stays dyn). */
function entryType(chk: EngineChecker, t: EngineType, el: AstNode): EngineType {
  if (t.kind === 'optional') return t.valueType ?? chk.dynType;
  if (t.kind === 'dyn') return t;
  throw chk.createError(
    'optional_expected',
    `optional entry must be of an optional type, got '${chk.formatType(t)}'`,
    el,
  );
}

function joinType(chk: EngineChecker, acc: EngineType | undefined, t: EngineType, el: AstNode, what: string) {
  if (acc === undefined) return t;
  const u = acc.unify(chk.registry, t);
  if (u !== null) return u;
  if (chk.opts.homogeneousAggregateLiterals) {
    throw chk.createError(
      `heterogeneous_${what}`,
      `expected type '${chk.formatType(acc)}' but found '${chk.formatType(t)}'`,
      el,
    );
  }
  return chk.dynType;
}

function listCheck(optional: ReadonlySet<number>): CheckFn {
  return (chk, n, scope) => {
    const elems = n.args as AstNode[];
    let elem: EngineType | undefined;
    elems.forEach((el, i) => {
      let t = checkConcrete(chk, el, scope);
      if (optional.has(i)) t = entryType(chk, t, el);
      elem = joinType(chk, elem, t, el, 'list_element');
    });
    n.setMeta('evaluate', listEvaluate(optional));
    return chk.registry.getListType(elem ?? chk.dynType);
  };
}

function listEvaluate(optional: ReadonlySet<number>): EvalFn {
  return (ev, n, scope) => {
    const elems = n.args as AstNode[];
    const out: unknown[] = [];
    for (let i = 0; i < elems.length; i++) {
      const v = ev.run(elems[i], scope);
      if (!optional.has(i)) out.push(v);
      else if (optionalValue(ev, v, elems[i]).hasValue()) out.push((v as Optional).value());
    }
    return out;
  };
}

function mapCheck(optional: ReadonlySet<number>): CheckFn {
  return (chk, n, scope) => {
    const entries = n.args as [AstNode, AstNode][];
    let key: EngineType | undefined;
    let value: EngineType | undefined;
    entries.forEach(([k, v], i) => {
      key = joinType(chk, key, checkConcrete(chk, k, scope), k, 'map_key');
      let t = checkConcrete(chk, v, scope);
      if (optional.has(i)) t = entryType(chk, t, v);
      value = joinType(chk, value, t, v, 'map_value');
    });
    n.setMeta('evaluate', mapEvaluate(optional));
    return chk.registry.getMapType(key ?? chk.dynType, value ?? chk.dynType);
  };
}

/** Builds the literal from the entries present, as the fixed map literal does (mapFromEntries). */
function mapEvaluate(optional: ReadonlySet<number>): EvalFn {
  return (ev, n, scope) => {
    const entries = n.args as [AstNode, AstNode][];
    const keys: unknown[] = [];
    const values: unknown[] = [];
    for (let i = 0; i < entries.length; i++) {
      const [k, v] = entries[i];
      const key = ev.run(k, scope);
      const value = ev.run(v, scope);
      if (!optional.has(i)) {
        keys.push(key);
        values.push(value);
      } else if (optionalValue(ev, value, v).hasValue()) {
        keys.push(key);
        values.push((value as Optional).value());
      }
    }
    return mapFromEntries(keys, values);
  };
}

function optionalValue(ev: EngineEvaluator, v: unknown, node: AstNode): Optional {
  if (v instanceof Optional) return v;
  throw ev.createError(
    'optional_expected',
    `optional entry must be optional, got '${ev.debugType(v).name}'`,
    node,
  );
}
