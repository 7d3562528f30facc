// The only file that imports the CEL engine package (@marcbachmann/cel-js, chosen in
// bench/cel/ENGINE.md). Everything engine-specific that the rest of src/cel/ needs goes through
// here: type strings, environment construction, error details. (Cost tracking and estimation read
// the checked AST's node shapes in cost-instrument.ts and estimate.ts, without the package.)

import { Environment as EngineEnvironment, EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { CelType } from './types.ts';

export { Duration, EngineEnvironment, EvaluationError, Optional, UnsignedInt };

/** The engine's spelling of a declared type. */
export function engineType(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list<${engineType(t.elem)}>`;
    case 'map':
      return `map<${engineType(t.key)}, ${engineType(t.value)}>`;
    case 'optional':
      return `optional<${engineType(t.inner)}>`;
    case 'object':
    case 'opaque':
    case 'param':
      return t.name;
    case 'null':
      // The engine's name for null_type.
      return 'null';
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    default:
      return t.kind;
  }
}

/** The engine prints list<dyn> and map<dyn, dyn> as bare list and map in check results. */
export function normalEngineType(s: string): string {
  return s.replace(/\blist<dyn>/g, 'list').replace(/\bmap<dyn, dyn>/g, 'map');
}

/** cel-go's spelling (`list(string)`) of an engine type string (`list<string>`). */
export function celGoTypeName(s: string): string {
  return (
    s
      .replace(/</g, '(')
      .replace(/>/g, ')')
      .replace(/\boptional\(/g, 'optional_type(')
      .replace(/\bnull\b/g, 'null_type')
      // A type parameter left unbound (the element of `[]`) is dyn to cel-go.
      .replace(/\b[A-Z]\b/g, 'dyn')
      .replace(/^list$/, 'list(dyn)')
      .replace(/^map$/, 'map(dyn, dyn)')
  );
}

/** What the engine attaches to its errors: a code, the bare message and the source range. */
export interface EngineErrorDetail {
  code: string;
  summary: string;
  start?: number;
  end?: number;
}

export function engineErrorDetail(err: unknown): EngineErrorDetail {
  if (err instanceof Error) {
    const e = err as Error & { code?: string; summary?: string; range?: { start: number; end: number } };
    return {
      code: e.code ?? 'internal',
      summary: e.summary ?? e.message,
      start: e.range?.start,
      end: e.range?.end,
    };
  }
  return { code: 'internal', summary: String(err) };
}

// --- the engine's own non-standard overloads ------------------------------------------------------

/**
 * Signatures the engine declares by itself beyond CEL's standard library (`string.indexOf`,
 * `string.split`, `list<string>.join`, ...), with its own semantics (UTF-16 indices, Unicode case
 * mapping, JS regular expressions). A library that declares one of these signatures replaces the
 * engine's overload in that environment (dropEngineOverload), so cel-go's semantics win.
 */
const ENGINE_SIGNATURES: ReadonlySet<string> = new Set(
  new EngineEnvironment({}).getDefinitions().functions.map((f) => f.signature),
);

/** The parts of the engine's overload table that dropEngineOverload touches. */
interface EngineCandidates {
  declarations: { signature: string }[];
}

function candidatesOf(engine: EngineEnvironment, receiver: boolean, name: string, argc: number) {
  const args = Array.from({ length: argc }, () => 'dyn(0)').join(', ');
  const parsed = engine.parse(receiver ? `dyn(0).${name}(${args})` : `${name}(${args})`);
  try {
    parsed.check();
  } catch {
    // The overload table is attached before any overload is chosen; a failed choice is fine.
  }
  return (parsed.ast as { candidates?: EngineCandidates }).candidates;
}

/** An environment that never declares anything: it shares the engine's global overload table. */
let pristine: EngineEnvironment | undefined;

/** A placeholder declared (and removed again) only to give an environment its own overload table. */
const OWN_TABLE = { signature: 'bool.__ownOverloadTable(): bool', name: '__ownOverloadTable' };

/**
 * Removes the engine's own overload with exactly this signature from one environment, so the
 * caller can declare it with other semantics. Returns false when the engine has no such overload.
 * An environment shares the engine's global table until it declares its first function, and
 * removing from that would change every environment: such an environment is first given its own
 * table by declaring (and removing again) a placeholder.
 */
export function dropEngineOverload(
  engine: EngineEnvironment,
  signature: string,
  at: { receiver: boolean; name: string; argc: number },
): boolean {
  if (!ENGINE_SIGNATURES.has(signature)) return false;
  pristine ??= new EngineEnvironment({});
  let own = candidatesOf(engine, at.receiver, at.name, at.argc);
  if (own === candidatesOf(pristine, at.receiver, at.name, at.argc)) {
    engine.registerFunction(OWN_TABLE.signature, () => false);
    const placeholder = candidatesOf(engine, true, OWN_TABLE.name, 0);
    placeholder?.declarations.splice(0, placeholder.declarations.length);
    own = candidatesOf(engine, at.receiver, at.name, at.argc);
  }
  const i = own?.declarations.findIndex((d) => d.signature === signature) ?? -1;
  if (own === undefined || i < 0) return false;
  own.declarations.splice(i, 1);
  return true;
}

// --- type names as expressions ----------------------------------------------------------------------

/**
 * Makes the names of registered library types expressions, as cel-go's type identifiers are
 * (`type(x) == net.IP`). The engine reads `net.IP` as a selection on `net` (its own
 * `google.protobuf.Timestamp` is a constant map named `google`), so each first part of the names
 * becomes a constant map; a first part already declared (a variable, a namespace) is left alone.
 * The values are the engine's own type values, what `type(v)` answers, looked up on first use from
 * a throwaway clone: cloning freezes the environment's declarations, so it must wait until they
 * are complete.
 */
export function declareTypeNames(
  engine: EngineEnvironment,
  types: ReadonlyMap<string, abstract new (...args: never[]) => unknown>,
): void {
  let values: Map<string, unknown> | undefined;
  const lookup = (name: string): unknown => {
    if (values === undefined) {
      const probe = engine.clone({ unlistedVariablesAreDyn: true });
      values = new Map();
      for (const [n, ctor] of types)
        values.set(n, probe.evaluate('type(v)', { v: Object.create(ctor.prototype) }));
    }
    return values.get(name);
  };
  const roots = new Map<string, Record<string, unknown>>();
  for (const name of types.keys()) {
    const parts = name.split('.');
    if (parts.length < 2 || engine.hasVariable(parts[0])) continue;
    let node = roots.get(parts[0]);
    if (node === undefined) {
      node = {};
      roots.set(parts[0], node);
    }
    for (const p of parts.slice(1, -1)) {
      node[p] ??= {};
      node = node[p] as Record<string, unknown>;
    }
    Object.defineProperty(node, parts[parts.length - 1], { enumerable: true, get: () => lookup(name) });
  }
  for (const [root, value] of roots) engine.registerConstant(root, 'map<string, dyn>', value);
}
