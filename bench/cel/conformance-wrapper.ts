// Conformance candidate: our wrapper (src/cel/), on the project's own engine. Each test compiles
// through createEnvironment/compile/evaluate exactly as a feature would, with the test's declared
// variables translated to CelType values; what the wrapper cannot express (protobuf messages,
// wrappers, containers, function declarations, disabling macros) counts as "unsupported by API".
//
// The wrapper always type-checks (every use in the spec does). A `disable_check` test still runs,
// checked: variables it binds without declaring are declared dyn, and a check error on it is
// reported as such (see conformance.test.ts for the ones that only pass unchecked).

import { Duration, Optional, UnsignedInt } from '../../src/cel/engine.ts';
import { durationFromNanos, timestampFromNanos, timestampParts } from '../../src/cel/fixes/index.ts';
import { type CelType, compile, createEnvironment, evaluate, T } from '../../src/cel/index.ts';
import { matchesLibrary } from '../../src/cel/library/regex.ts';
import { LATEST_STRINGS_VERSION, stringsLibrary } from '../../src/cel/library/strings.ts';
import type {
  Candidate,
  Norm,
  Outcome,
  PbAny,
  PbMessage,
  PbType,
  PbValue,
  SimpleTest,
  Spec,
} from './conformance-data.ts';
import { primitiveNorm } from './conformance-data.ts';

/**
 * The extension libraries cel-go's own conformance run enables that the spec's files test: the
 * strings extension at its newest version (string_ext) and `matches` with RE2 semantics.
 */
const CONFORMANCE_LIBRARIES = [stringsLibrary(LATEST_STRINGS_VERSION), matchesLibrary];

class Unsupported extends Error {}

const PRIMITIVES: readonly (CelType | undefined)[] = [
  undefined,
  T.bool,
  T.int,
  T.uint,
  T.double,
  T.string,
  T.bytes,
];

/** The CelType of a protobuf-JSON type of the test data. */
export function celType(t: PbType | undefined): CelType {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'dyn':
      return T.dyn;
    case 'null':
      return T.null;
    case 'primitive': {
      const p = PRIMITIVES[k.value];
      if (p === undefined) throw new Unsupported(`primitive ${k.value}`);
      return p;
    }
    case 'wellKnown':
      if (k.value === 2) return T.timestamp;
      if (k.value === 3) return T.duration;
      throw new Unsupported('google.protobuf.Any');
    case 'listType':
      return T.list(celType(k.value.elemType));
    case 'mapType':
      return T.map(celType(k.value.keyType), celType(k.value.valueType));
    case 'type':
      return T.type;
    case 'abstractType':
      if (k.value.name === 'optional_type') return T.optional(celType(k.value.parameterTypes[0]));
      throw new Unsupported(`abstract type ${k.value.name}`);
    case 'typeParam':
      return T.dyn;
    case 'wrapper':
      throw new Unsupported('wrapper types');
    case 'messageType':
      if (k.value === 'google.protobuf.Timestamp') return T.timestamp;
      if (k.value === 'google.protobuf.Duration') return T.duration;
      throw new Unsupported('protobuf messages');
    default:
      throw new Unsupported(`type ${k?.case}`);
  }
}

/** cel-go's spelling of a test type, as Program.resultType spells checked types. */
function celGoName(t: PbType | undefined): string {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'dyn':
      return 'dyn';
    case 'null':
      return 'null_type';
    case 'listType':
      return `list(${celGoName(k.value.elemType)})`;
    case 'mapType':
      return `map(${celGoName(k.value.keyType)}, ${celGoName(k.value.valueType)})`;
    case 'type':
      return 'type';
    case 'abstractType':
      return `${k.value.name}(${k.value.parameterTypes.map(celGoName).join(', ')})`;
    default: {
      const c = celType(t);
      return c.kind === 'timestamp'
        ? 'google.protobuf.Timestamp'
        : c.kind === 'duration'
          ? 'google.protobuf.Duration'
          : c.kind;
    }
  }
}

function input(v: PbValue, spec: Spec): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return new UnsignedInt(k.value);
    case 'enumValue':
      return BigInt(k.value.value);
    case 'listValue':
      return k.value.values.map((e) => input(e, spec));
    case 'mapValue': {
      const entries = k.value.entries.map((e) => [input(e.key!, spec), input(e.value!, spec)] as const);
      return entries.every(([key]) => typeof key === 'string')
        ? Object.fromEntries(entries)
        : new Map(entries);
    }
    case 'typeValue':
      throw new Unsupported('type values as bindings');
    case 'objectValue': {
      // Timestamps and durations arrive as protobuf messages; every other message is out of scope.
      const n = spec.messageNorm(unpack(k.value, spec));
      if (n.t === 'timestamp') return timestampFromNanos(n.s * 1_000_000_000n + BigInt(n.n));
      if (n.t === 'duration') return durationFromNanos(n.s * 1_000_000_000n + BigInt(n.n));
      throw new Unsupported('protobuf messages');
    }
    case undefined:
      return undefined;
    default:
      return k.value;
  }
}

function unpack(any: PbAny, spec: Spec): PbMessage {
  const m = spec.pb.anyUnpack(any, spec.registry);
  if (m === undefined) throw new Unsupported(`unknown message ${any.typeUrl}`);
  return m;
}

function output(v: unknown): Norm {
  const p = primitiveNorm(v);
  if (p !== undefined) return p;
  if (v === undefined) return { t: 'null' };
  if (v instanceof UnsignedInt) return { t: 'uint', v: v.value };
  if (v instanceof Duration) return { t: 'duration', s: v.seconds, n: v.nanos };
  if (v instanceof Date) {
    const { seconds, nanos } = timestampParts(v);
    return { t: 'timestamp', s: seconds, n: nanos };
  }
  if (v instanceof Optional)
    return v.hasValue() ? { t: 'optional', v: output(v.value()) } : { t: 'optional' };
  if (Array.isArray(v)) return { t: 'list', v: v.map(output) };
  if (v instanceof Map)
    return { t: 'map', v: [...v.entries()].map(([a, b]) => [output(a), output(b)] as [Norm, Norm]) };
  const name = (v as object).constructor?.name;
  // The engine names null's type `null`; CEL (and `null_type`, the same value) spells it null_type.
  if (name === 'Type')
    return {
      t: 'type',
      v: String(v)
        .replace(/^Type<(.*)>$/, '$1')
        .replace(/^null$/, 'null_type'),
    };
  if (name === 'Object' || name === undefined) {
    return {
      t: 'map',
      v: Object.entries(v as object).map(([a, b]) => [output(a), output(b)] as [Norm, Norm]),
    };
  }
  throw new Unsupported(`value of class ${name}`);
}

function run(test: SimpleTest, spec: Spec): Outcome {
  // Most files set a protobuf container whether or not the expression names a message; only an
  // expression that does (a message literal, an enum, a protobuf type other than the two CEL
  // knows as timestamp and duration) needs one.
  const code = test.expr.replace(/\/\/[^\n]*/g, '').replace(/\s+/g, ' ');
  if (
    /\b[A-Z]\w*\s*[{.]|\bcel\s*\.\s*expr\s*\./.test(code) ||
    /\bgoogle\.protobuf\.(?!(?:Timestamp|Duration)\b(?!\s*\{))/.test(code)
  )
    throw new Unsupported('protobuf messages');
  if (test.disableMacros) throw new Unsupported('disabling macros');
  const variables: Record<string, CelType> = {};
  for (const d of test.typeEnv) {
    if (d.declKind.case !== 'ident') throw new Unsupported('function declarations');
    variables[d.name] = celType(d.declKind.value.type);
  }
  const activation: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(test.bindings)) {
    if (b.kind.case !== 'value') throw new Unsupported('error or unknown bindings');
    activation[name] = input(b.kind.value, spec);
    variables[name] ??= T.dyn;
  }
  const env = createEnvironment({ variables, libraries: CONFORMANCE_LIBRARIES });
  const compiled = compile(env, test.expr);
  if (!compiled.ok) return { kind: 'compileError', message: compiled.error.message };
  const r = test.resultMatcher;
  if (r.case === 'typedResult' && r.value.deducedType !== undefined && r.value.result === undefined) {
    const want = celGoName(r.value.deducedType);
    const got = compiled.program.resultType;
    return { kind: 'type', ok: want === got, message: `${got} (want ${want})` };
  }
  const result = evaluate(compiled.program, activation);
  if (!result.ok) return { kind: 'error', message: result.error.message };
  return { kind: 'value', value: output(result.value) };
}

export function wrapperCandidate(spec: Spec): Candidate {
  return {
    name: 'src/cel (our wrapper)',
    run(test: SimpleTest): Outcome {
      try {
        return run(test, spec);
      } catch (err) {
        if (err instanceof Unsupported) return { kind: 'unsupported', why: err.message };
        throw err;
      }
    },
  };
}
