// cel-go's optional types library (cel.OptionalTypes, on in every kube-apiserver environment since
// 1.28, unversioned there, so with all of its functions): `x.?f`, `x[?k]`, `[?e]`, `{?k: v}`,
// optional.of / ofNonZeroValue / none, hasValue, value, or, orValue, optMap, optFlatMap, first,
// last, optional.unwrap / unwrapOpt, optional equality and `type()` of an optional.
// The engine brings of, none, hasValue, value, or, orValue and `.?` / `[?]` parsing; the rest is
// added here: functions as ordinary overloads, macros, the operator and the constant through the
// engine hooks, and the syntax and selection semantics through optionals-syntax.ts and
// optionals-ast.ts.

import { Duration, type EngineEnvironment, Optional, UnsignedInt } from '../engine.ts';
import type { CelLibrary } from '../environment.ts';
import { celEquals } from '../fixes/index.ts';
import { T } from '../types.ts';
import { prepareOptionalsAst } from './optionals-ast.ts';
import {
  type AstNode,
  checkConcrete,
  concreteType,
  type EngineMacro,
  type EngineScope,
  identName,
  type MacroCall,
} from './optionals-engine.ts';
import { blankOptionalMarkers, scanOptionalEntries } from './optionals-syntax.ts';

const NS = T.opaque('OptionalNamespace');
const V = T.param('V');

/** Go's zero time.Time (0001-01-01T00:00:00Z), which cel-go's Timestamp.IsZeroValue tests for. */
const GO_ZERO_TIME_MS = -62135596800000;

/** cel-go's IsZeroValue: the default value of the value's type (a message with no field set). */
export function isZeroValue(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return !v;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    case 'string':
      return v === '';
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (v instanceof UnsignedInt) return v.value === 0n;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length === 0;
  if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
  if (v instanceof Date) return v.getTime() === GO_ZERO_TIME_MS;
  if (v instanceof Set) return v.size === 0;
  if (v instanceof Map) {
    // Typed objects are Maps that read their fields lazily: present means defined.
    for (const [, x] of v) if (x !== undefined) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return Object.keys(v as object).length === 0;
  return false;
}

function unwrapList(list: readonly Optional[]): unknown[] {
  const out: unknown[] = [];
  for (const o of list) if (o.hasValue()) out.push(o.value());
  return out;
}

// --- macros ------------------------------------------------------------------------------------------

interface OptMapMacro extends EngineMacro {
  receiver: AstNode;
  varName: string;
  body: AstNode;
  flat: boolean;
  scope?: EngineScope;
}

function optMapMacro(call: MacroCall, flat: boolean): OptMapMacro {
  const fn = flat ? 'optFlatMap' : 'optMap';
  const receiver = call.receiver;
  if (receiver === null) throw new Error(`${fn}() needs a receiver`);
  return {
    receiver,
    varName: identName(call.args[0], `${fn}() variable name must be a simple identifier`),
    body: call.args[1],
    flat,
    async: false,
    typeCheck(chk, m, scope) {
      const rt = checkConcrete(chk, m.receiver, scope);
      if (rt.kind !== 'optional' && rt.kind !== 'dyn') {
        throw chk.createError(
          'optional_expected',
          `${fn}() receiver must be optional, got '${chk.formatType(rt)}'`,
          m.receiver,
        );
      }
      m.scope = scope.forkWithVariable(
        m.varName,
        rt.kind === 'optional' ? (rt.valueType ?? chk.dynType) : rt,
      );
      const bt = concreteType(chk, chk.check(m.body, m.scope));
      if (!m.flat) return chk.registry.getOptionalType(bt);
      if (bt.kind === 'optional') return bt;
      if (bt.kind === 'dyn') return chk.registry.getOptionalType(bt);
      throw chk.createError(
        'optional_expected',
        `optFlatMap() expression must be optional, got '${chk.formatType(bt)}'`,
        m.body,
      );
    },
    evaluate(ev, m, scope) {
      const r = ev.run(m.receiver, scope);
      if (!(r instanceof Optional))
        throw ev.createError('optional_expected', `${fn}() receiver must be optional`, m.receiver);
      if (!r.hasValue()) return r;
      const inner = (m.scope as EngineScope).reuse(scope).setIterValue(r.value(), ev);
      const v = ev.run(m.body, inner);
      if (!m.flat) return Optional.of(v);
      if (v instanceof Optional) return v;
      throw ev.createError('optional_expected', 'optFlatMap() expression must be optional', m.body);
    },
  };
}

// --- equality and type ------------------------------------------------------------------------------

/** The `optional_type` type value; made from the engine's own type class so `==` compares it. */
let optionalTypeValue: unknown;
function optionalType(engine: EngineEnvironment): unknown {
  if (optionalTypeValue === undefined) {
    const int = engine.evaluate('int') as object;
    const TypeCtor = int.constructor as new (name: string) => unknown;
    optionalTypeValue = new TypeCtor('optional_type');
  }
  return optionalTypeValue;
}

function install(engine: EngineEnvironment): void {
  engine.registerFunction('optional.optMap(ast, ast): optional<dyn>', (call: MacroCall) =>
    optMapMacro(call, false),
  );
  engine.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', (call: MacroCall) =>
    optMapMacro(call, true),
  );
  engine.registerOperator('optional == optional', (a: Optional, b: Optional) => celEquals(a, b));
  const type = optionalType(engine);
  engine.registerFunction('type(optional): type', () => type);
  engine.registerConstant('optional_type', 'type', type);
}

// --- the library ------------------------------------------------------------------------------------

export const optionalsLibrary: CelLibrary = {
  name: 'cel.lib.optional',
  functions: [
    {
      name: 'ofNonZeroValue',
      overloads: [
        {
          id: 'optional_ofNonZeroValue',
          receiver: NS,
          params: [V],
          result: T.optional(V),
          impl: (_ns: unknown, v: unknown) => (isZeroValue(v) ? Optional.none() : Optional.of(v)),
        },
      ],
    },
    {
      name: 'first',
      overloads: [
        {
          id: 'list_first',
          receiver: T.list(V),
          params: [],
          result: T.optional(V),
          impl: (l: readonly unknown[]) => (l.length === 0 ? Optional.none() : Optional.of(l[0])),
        },
      ],
    },
    {
      name: 'last',
      overloads: [
        {
          id: 'list_last',
          receiver: T.list(V),
          params: [],
          result: T.optional(V),
          impl: (l: readonly unknown[]) => (l.length === 0 ? Optional.none() : Optional.of(l[l.length - 1])),
        },
      ],
    },
    {
      name: 'unwrap',
      overloads: [
        {
          id: 'optional_unwrap',
          receiver: NS,
          params: [T.list(T.optional(V))],
          result: T.list(V),
          impl: (_ns: unknown, l: readonly Optional[]) => unwrapList(l),
        },
      ],
    },
    {
      name: 'unwrapOpt',
      overloads: [
        {
          id: 'optional_unwrapOpt',
          receiver: T.list(T.optional(V)),
          params: [],
          result: T.list(V),
          impl: (l: readonly Optional[]) => unwrapList(l),
        },
      ],
    },
  ],
  language: {
    install,
    rewrite: (expression) => blankOptionalMarkers(expression, scanOptionalEntries(expression)),
    prepare: (ast, expression, env) =>
      prepareOptionalsAst(ast, expression, { errorOnBadPresenceTest: env.errorOnBadPresenceTest }),
  },
};
