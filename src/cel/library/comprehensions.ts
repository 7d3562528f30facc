// cel-go's two-variable comprehensions (ext.TwoVarComprehensions, "cel.lib.ext.comprev2", in every
// kube-apiserver environment since 1.32): over a list the variables are the index and the element,
// over a map the key and the value.
//   all(i, v, p)  exists(i, v, p)  existsOne(i, v, p) (also exists_one)
//   transformList(i, v, [filter,] e)  transformMap(k, v, [filter,] e)  transformMapEntry(k, v, [filter,] e)
// Each is a macro of the engine with its own check and evaluation (the engine's comprehension node
// has one iteration variable). all and exists follow logical AND / OR: they stop at the first false
// / true, and an error is reported only when no such value absorbs it; existsOne and the
// transforms evaluate every entry and stop at the first error, as cel-go's expansions do.

import { CostLimitExceeded } from '../cost.ts';
import type { EngineEnvironment } from '../engine.ts';
import type { CelLibrary } from '../environment.ts';
import { celEquals, mapFromEntries } from '../fixes/index.ts';
import { isMap } from '../fixes/values.ts';
import {
  type AstNode,
  checkConcrete,
  concreteType,
  type EngineChecker,
  type EngineEvaluator,
  type EngineMacro,
  type EngineScope,
  type EngineType,
  identName,
  type MacroCall,
  MacroError,
} from './optionals-engine.ts';

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface TwoVarMacro extends EngineMacro {
  kind: Kind;
  name: string;
  range: AstNode;
  first: string;
  second: string;
  filter?: AstNode;
  body: AstNode;
  scope1?: EngineScope;
  scope2?: EngineScope;
}

/** The accumulator name cel-go's macros use; an iteration variable may not take it. */
const ACCUMULATORS = new Set(['@result', '__result__']);

function expand(kind: Kind, name: string, call: MacroCall): TwoVarMacro {
  if (call.receiver === null) throw new Error(`${name}() needs a receiver`);
  const first = identName(call.args[0], 'argument must be a simple name');
  const second = identName(call.args[1], 'argument must be a simple name');
  if (first === second) throw new MacroError(`duplicate variable name: ${first}`, call.args[1]);
  for (const [v, node] of [
    [first, call.args[0]],
    [second, call.args[1]],
  ] as const) {
    if (ACCUMULATORS.has(v)) throw new MacroError('iteration variable overwrites accumulator variable', node);
  }
  const withFilter = call.args.length === 4;
  return {
    kind,
    name,
    range: call.receiver,
    first,
    second,
    filter: withFilter ? call.args[2] : undefined,
    body: call.args[withFilter ? 3 : 2],
    async: false,
    typeCheck,
    evaluate,
  };
}

function isBoolish(t: EngineType): boolean {
  return t.kind === 'dyn' || t.type === 'bool';
}

function typeCheck(chk: EngineChecker, m: TwoVarMacro, scope: EngineScope): EngineType {
  const rt = checkConcrete(chk, m.range, scope);
  let t1: EngineType;
  let t2: EngineType;
  if (rt.kind === 'list') [t1, t2] = [chk.intType, rt.valueType ?? chk.dynType];
  else if (rt.kind === 'map') [t1, t2] = [rt.keyType ?? chk.dynType, rt.valueType ?? chk.dynType];
  else if (rt.kind === 'dyn') [t1, t2] = [rt, rt];
  else {
    throw chk.createError(
      'invalid_comprehension_range',
      `expression of type '${chk.formatType(rt)}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
      m.range,
    );
  }
  m.scope1 = scope.forkWithVariable(m.first, t1);
  m.scope2 = m.scope1.forkWithVariable(m.second, t2);
  if (m.filter !== undefined) {
    const ft = chk.check(m.filter, m.scope2);
    if (!isBoolish(ft)) {
      throw chk.createError(
        'invalid_condition_type',
        `${m.name}() filter must be bool, got '${chk.formatType(ft)}'`,
        m.filter,
      );
    }
  }
  const bt = concreteType(chk, chk.check(m.body, m.scope2));
  switch (m.kind) {
    case 'all':
    case 'exists':
    case 'existsOne':
      if (!isBoolish(bt)) {
        throw chk.createError(
          'invalid_condition_type',
          `${m.name}() predicate must be bool, got '${chk.formatType(bt)}'`,
          m.body,
        );
      }
      return chk.boolType;
    case 'transformList':
      return chk.registry.getListType(bt);
    case 'transformMap':
      return chk.registry.getMapType(t1, bt);
    case 'transformMapEntry':
      if (bt.kind === 'map') return bt;
      if (bt.kind === 'dyn') return chk.registry.getMapType(chk.dynType, chk.dynType);
      throw chk.createError(
        'invalid_argument',
        `transformMapEntry() expression must be a map, got '${chk.formatType(bt)}'`,
        m.body,
      );
  }
}

/** The (index or key, element or value) pairs of a list or map. */
function entriesOf(ev: EngineEvaluator, v: unknown, m: TwoVarMacro): Iterable<readonly [unknown, unknown]> {
  if (Array.isArray(v)) return v.map((e, i) => [BigInt(i), e] as const);
  if (v instanceof Map && v.constructor === Map) return v.entries();
  if (isMap(v)) return Object.entries(v);
  throw ev.createError(
    'invalid_comprehension_range',
    `expression of type '${ev.debugType(v).name}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
    m.range,
  );
}

function evaluate(ev: EngineEvaluator, m: TwoVarMacro, scope: EngineScope): unknown {
  const range = ev.run(m.range, scope);
  const s1 = (m.scope1 as EngineScope).reuse(scope);
  const s2 = (m.scope2 as EngineScope).reuse(s1);
  const bind = (k: unknown, v: unknown) => {
    s1.setIterValue(k, ev);
    s2.setIterValue(v, ev);
  };
  switch (m.kind) {
    case 'all':
    case 'exists': {
      // all: false decides, exists: true decides; an error counts only if nothing decides.
      const decisive = m.kind === 'exists';
      let error: unknown;
      for (const [k, v] of entriesOf(ev, range, m)) {
        bind(k, v);
        let r: unknown;
        try {
          r = ev.run(m.body, s2);
        } catch (err) {
          if (err instanceof CostLimitExceeded) throw err;
          error ??= err;
          continue;
        }
        if (r === decisive) return decisive;
        if (r !== !decisive) error ??= notBool(ev, m, r);
      }
      if (error !== undefined) throw error;
      return !decisive;
    }
    case 'existsOne': {
      let count = 0;
      for (const [k, v] of entriesOf(ev, range, m)) {
        bind(k, v);
        const r = ev.run(m.body, s2);
        if (r === true) count++;
        else if (r !== false) throw notBool(ev, m, r);
      }
      return count === 1;
    }
    case 'transformList': {
      const out: unknown[] = [];
      for (const [k, v] of entriesOf(ev, range, m)) {
        bind(k, v);
        if (passes(ev, m, s2)) out.push(ev.run(m.body, s2));
      }
      return out;
    }
    case 'transformMap': {
      const keys: unknown[] = [];
      const values: unknown[] = [];
      for (const [k, v] of entriesOf(ev, range, m)) {
        bind(k, v);
        if (!passes(ev, m, s2)) continue;
        keys.push(k);
        values.push(ev.run(m.body, s2));
      }
      return mapFromEntries(keys, values);
    }
    case 'transformMapEntry': {
      const keys: unknown[] = [];
      const values: unknown[] = [];
      for (const [k, v] of entriesOf(ev, range, m)) {
        bind(k, v);
        if (!passes(ev, m, s2)) continue;
        const entry = ev.run(m.body, s2);
        if (!isMap(entry))
          throw ev.createError('invalid_argument', 'transformMapEntry() expression must be a map', m.body);
        for (const [ek, evalue] of entriesOf(ev, entry, m)) {
          if (keys.some((x) => celEquals(x, ek))) {
            throw ev.createError('repeated_key', `insert failed: key ${String(ek)} already exists`, m.body);
          }
          keys.push(ek);
          values.push(evalue);
        }
      }
      return mapFromEntries(keys, values);
    }
  }
}

function passes(ev: EngineEvaluator, m: TwoVarMacro, scope: EngineScope): boolean {
  if (m.filter === undefined) return true;
  const r = ev.run(m.filter, scope);
  if (typeof r === 'boolean') return r;
  throw ev.createError(
    'invalid_condition_type',
    `${m.name}() filter must be bool, got '${ev.debugType(r).name}'`,
    m.filter,
  );
}

function notBool(ev: EngineEvaluator, m: TwoVarMacro, r: unknown): Error {
  return ev.createError(
    'invalid_condition_type',
    `${m.name}() predicate must be bool, got '${ev.debugType(r).name}'`,
    m.body,
  );
}

const MACROS: readonly [string, Kind, number][] = [
  ['all', 'all', 3],
  ['exists', 'exists', 3],
  ['existsOne', 'existsOne', 3],
  ['exists_one', 'existsOne', 3],
  ['transformList', 'transformList', 3],
  ['transformList', 'transformList', 4],
  ['transformMap', 'transformMap', 3],
  ['transformMap', 'transformMap', 4],
  ['transformMapEntry', 'transformMapEntry', 3],
  ['transformMapEntry', 'transformMapEntry', 4],
];

function install(engine: EngineEnvironment): void {
  for (const [name, kind, argc] of MACROS) {
    const params = Array.from({ length: argc }, () => 'ast').join(', ');
    engine.registerFunction(`dyn.${name}(${params}): dyn`, (call: MacroCall) => expand(kind, name, call));
  }
}

export const comprehensionsLibrary: CelLibrary = {
  name: 'cel.lib.ext.comprev2',
  functions: [],
  language: { install },
};
