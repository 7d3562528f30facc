// An Environment is what a caller compiles against: its declared variables, the libraries it
// enables, and its limits. Libraries are plug-ins with one shape (CelLibrary), so each upstream
// library lives in its own file under library/ and is enabled by listing it; nothing here changes
// when one is added.

import { isTracking, noteOverload, reportCallCost } from './cost.ts';
import { declareTypeNames, dropEngineOverload, type EngineEnvironment, engineType } from './engine.ts';
import type { SizeDeclarations } from './estimate.ts';
import { celEquals, FixedEngineEnvironment } from './fixes/index.ts';
import { qualifiedNamesLibrary } from './library/authz-names.ts';
import { comprehensionsLibrary } from './library/comprehensions.ts';
import { optionalsLibrary } from './library/optionals.ts';
import { type CelType, objectTypesIn } from './types.ts';

/** A function implementation: receives the receiver first (for member overloads), then the args. */
// biome-ignore lint/suspicious/noExplicitAny: CEL values of the declared types; each overload knows its own.
export type CelImpl = (...args: any[]) => unknown;

/** Static cost estimate (for the later estimator): a [min, max] range in cost units. */
export interface CostRange {
  min: number;
  max: number;
}

/** What the static estimator knows of an argument: its size bounds (length, element count). */
export interface SizeRange {
  min: number;
  max: number;
}

export interface CelOverload {
  /** Upstream's overload id (`list_sum_int`), unique within the environment. */
  id: string;
  /** Set for a member overload (`x.f(...)`): the receiver's type. */
  receiver?: CelType;
  params: readonly CelType[];
  result: CelType;
  impl: CelImpl;
  /**
   * Runtime cost of the whole call (it replaces the 1 a call costs), from the actual arguments
   * (receiver first) and the result; run after the implementation, as cel-go's trackers are.
   * Leave it out when upstream's rule for the function name applies (cost-table.ts covers
   * Kubernetes' libraries and cel-go's extensions) or the call is constant-time. Helpers:
   * costs.ts (`stringTraversalCost`, `regexCost`, `traversalCost`, `valueSize`).
   */
  cost?: (args: readonly unknown[], result: unknown) => number;
  /**
   * Static cost range of the call itself (its arguments' costs are added by the estimator), from
   * the arguments' size bounds (receiver first); overrides cost-table.ts for this overload.
   */
  estimateCost?: (sizes: readonly SizeRange[]) => CostRange;
  /** Size bounds of the result, for the estimator (e.g. a list function that returns a sublist). */
  estimateResultSize?: (sizes: readonly SizeRange[]) => SizeRange;
}

export interface CelFunction {
  name: string;
  overloads: readonly CelOverload[];
}

/**
 * One CEL library (strings, lists, sets, regex, url, ip, cidr, quantity, format, semver,
 * authorizer...). Declared once as a constant in `src/cel/library/<name>.ts` and enabled by adding
 * it to an environment's `libraries`.
 */
export interface CelLibrary {
  /** Upstream's library name (`lists`, `kubernetes.quantity`), for messages and de-duplication. */
  name: string;
  /** Value types the library introduces: a CEL type name and the class of its runtime values. */
  types?: readonly { name: string; ctor: abstract new (...args: never[]) => unknown }[];
  functions: readonly CelFunction[];
  /** Language features the overload shape cannot express (see LanguageHooks). */
  language?: LanguageHooks;
}

/**
 * Engine-level hooks for language features (optional types, two-variable comprehensions,
 * qualified variable names): macros, operators and constants, syntax the engine's parser lacks,
 * and changes to the parsed AST before it is checked. Only src/cel/library/ files use them.
 */
export interface LanguageHooks {
  /** Declares macros, operators and constants on a new environment's engine. */
  install?(engine: EngineEnvironment): void;
  /** Rewrites an expression before parsing; must keep its length and every offset. */
  rewrite?(expression: string): string;
  /** Adjusts the parsed AST before type checking; `expression` is the text as written. */
  prepare?(ast: unknown, expression: string, env: Environment): void;
  /**
   * Checks the checked AST as cel-go's AST validators do (literal regular expressions and format
   * strings, homogeneous literals): the first issue fails the compilation, at `offset`.
   */
  validate?(ast: unknown, expression: string, env: Environment): ValidationIssue | undefined;
}

/** A finding of a `validate` hook: where cel-go reports it and its words. */
export interface ValidationIssue {
  readonly offset: number;
  readonly reason: string;
}

export interface Limits {
  /** Longest expression accepted, in characters (0: no limit). */
  maxExpressionLength: number;
  /** Default per-evaluation runtime cost limit (evaluate's `costLimit` overrides it). */
  costLimit: number;
}

export interface EnvironmentOptions {
  variables: Readonly<Record<string, CelType>>;
  libraries?: readonly CelLibrary[];
  limits?: Partial<Limits>;
  /**
   * Instrument compiled programs for runtime cost tracking (default true). Off only to measure
   * what tracking costs; then `costLimit` cannot be enforced and cost reads 0.
   */
  trackCost?: boolean;
  /**
   * cel-go's EnableErrorOnBadPresenceTest: `has(x.f)` or `x.?f` on a value without fields (an int,
   * null) is an error rather than false / none. Off in kube-apiserver (the default); the CEL
   * conformance suite runs with it on.
   */
  errorOnBadPresenceTest?: boolean;
  /**
   * Charge at run time as cel-go plans with OptOptimize, which kube-apiserver sets: literals of
   * constants (`[1, 2]`, `{'a': 1}`, `int('1')`) and `in` over a list of constant primitives cost
   * nothing. Default true; false gives cel-go's unoptimized figures (its and Kubernetes' tests).
   */
  optimize?: boolean;
  /** Declared maximum sizes of the variables, for cost estimates (compile's costLimit, estimateCost). */
  sizes?: SizeDeclarations;
}

export interface Environment {
  /** Identity for the program cache: two environments never share compiled programs. */
  readonly id: number;
  readonly variables: Readonly<Record<string, CelType>>;
  readonly libraries: readonly CelLibrary[];
  readonly limits: Readonly<Limits>;
  readonly trackCost: boolean;
  readonly errorOnBadPresenceTest: boolean;
  readonly optimize: boolean;
  readonly sizes?: SizeDeclarations;
  /** @internal the engine's environment; only compile.ts uses it. */
  readonly engine: EngineEnvironment;
}

/** Upstream's per-call limit is much larger; callers pass theirs. This only keeps a stray loop finite. */
const DEFAULT_LIMITS: Limits = { maxExpressionLength: 0, costLimit: Number.MAX_SAFE_INTEGER };

let nextId = 1;

export function createEnvironment(options: EnvironmentOptions): Environment {
  // The engine with the wrapper's corrections to its CEL semantics (fixes/index.ts).
  const engine = new FixedEngineEnvironment({
    // cel-go accepts [1, 'a'] (a list(dyn)); so do we.
    homogeneousAggregateLiterals: false,
    enableOptionalTypes: true,
  });
  const libraries = dedupe([...LANGUAGE_LIBRARIES, ...(options.libraries ?? [])]);
  // A type two libraries share (net.IP, of ip and cidr) is declared once. A library type compares
  // with itself by `==`, as cel-go's _==_(A, A) allows; its values decide how (celEquals).
  const types = new Map<string, abstract new (...args: never[]) => unknown>();
  for (const lib of libraries) {
    for (const t of lib.types ?? []) {
      const seen = types.get(t.name);
      if (seen === t.ctor) continue;
      if (seen !== undefined)
        throw new Error(`library ${lib.name}: type ${t.name} is declared with another class`);
      types.set(t.name, t.ctor);
      engine.registerType(t.name, t.ctor as unknown as new () => unknown);
      engine.registerOperator(`${t.name} == ${t.name}`, celEquals);
    }
  }
  // Object types first, innermost first, so every field's type is known when its owner is declared.
  const objects = new Map<string, CelType & { kind: 'object' }>();
  for (const t of Object.values(options.variables)) objectTypesIn(t, objects);
  for (const lib of libraries) {
    for (const f of lib.functions) {
      for (const o of f.overloads) for (const t of [...o.params, o.result]) objectTypesIn(t, objects);
    }
  }
  for (const o of objects.values()) {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.fields)) fields[k] = engineType(v);
    engine.registerType(o.name, { fields });
  }
  for (const [name, type] of Object.entries(options.variables))
    engine.registerVariable(name, engineType(type));
  const namespaces = new Map<string, string>();
  for (const lib of libraries) {
    for (const f of lib.functions)
      for (const o of f.overloads) registerOverload(engine, lib, f, o, namespaces);
  }
  for (const lib of libraries) lib.language?.install?.(engine);
  // `type(x) == net.IP`: library type names are expressions, as cel-go's type identifiers are.
  declareTypeNames(engine, types);
  return Object.freeze({
    id: nextId++,
    variables: Object.freeze({ ...options.variables }),
    libraries,
    limits: Object.freeze({ ...DEFAULT_LIMITS, ...options.limits }),
    trackCost: options.trackCost ?? true,
    errorOnBadPresenceTest: options.errorOnBadPresenceTest ?? false,
    optimize: options.optimize ?? true,
    sizes: options.sizes,
    engine,
  });
}

/**
 * The language as kube-apiserver 1.35 enables it in every CEL environment (environment/base.go):
 * optional types (cel.OptionalTypes, since 1.28) and two-variable comprehensions
 * (ext.TwoVarComprehensions, since 1.32); and cel-go's qualified variable names
 * (`authorizer.requestResource`).
 */
const LANGUAGE_LIBRARIES: readonly CelLibrary[] = [
  optionalsLibrary,
  comprehensionsLibrary,
  qualifiedNamesLibrary,
];

/** Parses `expression` with the environment's language hooks (rewrite before, prepare after). */
export function parseExpression(
  env: Environment,
  expression: string,
): ReturnType<EngineEnvironment['parse']> {
  let source = expression;
  for (const lib of env.libraries) if (lib.language?.rewrite) source = lib.language.rewrite(source);
  const parsed = env.engine.parse(source);
  for (const lib of env.libraries) lib.language?.prepare?.(parsed.ast, expression, env);
  return parsed;
}

function dedupe(libs: readonly CelLibrary[]): readonly CelLibrary[] {
  const byName = new Map<string, CelLibrary>();
  for (const l of libs) byName.set(l.name, l);
  return Object.freeze([...byName.values()]);
}

/**
 * The engine reads `strings.quote(s)` as a member call on an identifier, so a namespaced function
 * (`strings.quote`, `sets.contains`, `format.named`) is declared as a member of a constant of its
 * own type, named after the namespace, and called without that receiver.
 */
function namespaceType(engine: EngineEnvironment, ns: string, namespaces: Map<string, string>): string {
  let typeName = namespaces.get(ns);
  if (typeName === undefined) {
    typeName = `${ns}Namespace`;
    const ctor = { [typeName]: class {} }[typeName];
    engine.registerType(typeName, ctor);
    engine.registerConstant(ns, typeName, new ctor());
    namespaces.set(ns, typeName);
  }
  return typeName;
}

function registerOverload(
  engine: EngineEnvironment,
  lib: CelLibrary,
  f: CelFunction,
  o: CelOverload,
  namespaces: Map<string, string>,
): void {
  const params = o.params.map(engineType).join(', ');
  const dot = f.name.lastIndexOf('.');
  const namespaced = o.receiver === undefined && dot > 0;
  const name = namespaced ? f.name.slice(dot + 1) : f.name;
  const receiver = namespaced
    ? `${namespaceType(engine, f.name.slice(0, dot), namespaces)}.`
    : o.receiver === undefined
      ? ''
      : `${engineType(o.receiver)}.`;
  const signature = `${receiver}${name}(${params}): ${engineType(o.result)}`;
  const { impl, cost } = o;
  // The call node charges what the hook reports (cost-instrument.ts), once the call has run.
  const charged: CelImpl =
    cost === undefined
      ? impl
      : (...args) => {
          const result = impl(...args);
          if (isTracking()) reportCallCost(cost(args, result));
          return result;
        };
  const handler: CelImpl = namespaced ? (_ns: unknown, ...args) => charged(...args) : charged;
  noteOverload(handler, o);
  try {
    // The engine declares some non-standard overloads itself (string.indexOf, list<string>.join...)
    // with JavaScript semantics; a library that declares the same signature replaces them.
    dropEngineOverload(engine, signature, { receiver: receiver !== '', name, argc: o.params.length });
    engine.registerFunction(signature, handler);
  } catch (err) {
    throw new Error(`library ${lib.name}: overload ${o.id} (${signature}): ${(err as Error).message}`);
  }
}
