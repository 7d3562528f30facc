// Conformance candidate: @marcbachmann/cel-js. Declared variables (typeEnv) are registered with
// their types translated to cel-js type strings; what its API cannot express (protobuf message
// types and values, wrapper types, containers, function declarations, disabling macros, error or
// unknown bindings) makes the test count as failed, class "unsupported by API".

import {
  type Candidate,
  type Norm,
  type Outcome,
  type PbType,
  type PbValue,
  primitiveNorm,
  type SimpleTest,
} from './conformance-data.ts';

interface CelJsEnv {
  registerVariable(name: string, type: string): CelJsEnv;
  parse(expr: string): ((ctx?: Record<string, unknown>) => unknown) & {
    check(): { valid: boolean; type?: string; error?: Error };
  };
}
interface CelJs {
  Environment: new (opts: Record<string, unknown>) => CelJsEnv;
  Optional: new (...args: never[]) => { hasValue(): boolean; value(): unknown };
}
interface CelJsEvaluator {
  UnsignedInt: new (v: bigint) => { value: bigint };
  Duration: new (seconds: bigint, nanos?: number) => { seconds: bigint; nanos: number };
}

class Unsupported extends Error {}

const PRIMITIVES = ['', 'bool', 'int', 'uint', 'double', 'string', 'bytes'];

function typeString(t: PbType | undefined): string {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'dyn':
      return 'dyn';
    case 'null':
      return 'null_type';
    case 'primitive':
      return PRIMITIVES[k.value];
    case 'wellKnown':
      if (k.value === 2) return 'google.protobuf.Timestamp';
      if (k.value === 3) return 'google.protobuf.Duration';
      throw new Unsupported('google.protobuf.Any');
    case 'listType':
      return `list<${typeString(k.value.elemType)}>`;
    case 'mapType':
      return `map<${typeString(k.value.keyType)}, ${typeString(k.value.valueType)}>`;
    case 'type':
      return 'type';
    case 'abstractType':
      if (k.value.name === 'optional_type') return `optional<${typeString(k.value.parameterTypes[0])}>`;
      throw new Unsupported(`abstract type ${k.value.name}`);
    case 'wrapper':
      throw new Unsupported('wrapper types');
    case 'messageType':
      throw new Unsupported('protobuf messages');
    default:
      throw new Unsupported(`type ${k?.case}`);
  }
}

/** cel-js spells list<dyn> and map<dyn, dyn> as list and map in check results. */
const normalType = (s: string) => s.replace(/list<dyn>/g, 'list').replace(/map<dyn, dyn>/g, 'map');

export async function celJsCandidate(mod: (p: string) => string): Promise<Candidate> {
  const cel = (await import(mod('@marcbachmann/cel-js/lib/index.js'))) as CelJs;
  const ev = (await import(mod('@marcbachmann/cel-js/lib/evaluator.js'))) as CelJsEvaluator;

  const input = (v: PbValue): unknown => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue':
        return null;
      case 'uint64Value':
        return new ev.UnsignedInt(k.value);
      case 'enumValue':
        return BigInt(k.value.value);
      case 'listValue':
        return k.value.values.map(input);
      case 'mapValue': {
        const entries = k.value.entries.map((e) => [input(e.key!), input(e.value!)] as const);
        return entries.every(([key]) => typeof key === 'string')
          ? Object.fromEntries(entries)
          : new Map(entries);
      }
      case 'typeValue':
        throw new Unsupported('type values as bindings');
      case 'objectValue':
        throw new Unsupported('protobuf messages');
      case undefined:
        return undefined;
      default:
        return k.value;
    }
  };

  const output = (v: unknown): Norm => {
    const p = primitiveNorm(v);
    if (p !== undefined) return p;
    if (v === undefined) return { t: 'null' };
    if (v instanceof ev.UnsignedInt) return { t: 'uint', v: v.value };
    if (v instanceof ev.Duration) return { t: 'duration', s: v.seconds, n: v.nanos };
    if (v instanceof Date) {
      const ms = BigInt(v.getTime());
      const s = ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n);
      return { t: 'timestamp', s, n: Number(ms - s * 1000n) * 1e6 };
    }
    if (v instanceof cel.Optional)
      return v.hasValue() ? { t: 'optional', v: output(v.value()) } : { t: 'optional' };
    if (Array.isArray(v)) return { t: 'list', v: v.map(output) };
    if (v instanceof Map)
      return { t: 'map', v: [...v.entries()].map(([a, b]) => [output(a), output(b)] as [Norm, Norm]) };
    const name = (v as object).constructor?.name;
    if (name === 'Type') return { t: 'type', v: String(v).replace(/^Type<(.*)>$/, '$1') };
    if (name === 'Object' || name === undefined) {
      return {
        t: 'map',
        v: Object.entries(v as object).map(([a, b]) => [output(a), output(b)] as [Norm, Norm]),
      };
    }
    throw new Unsupported(`value of class ${name}`);
  };

  const run = (test: SimpleTest): Outcome => {
    // Most files set a protobuf container whether or not the expression names a message; only an
    // expression that does (a message literal, an enum, a qualified protobuf name) needs one.
    if (/\b[A-Z]\w*\s*[{.]|\bgoogle\.protobuf\.|\bcel\.expr\./.test(test.expr))
      throw new Unsupported('protobuf messages');
    if (test.disableMacros) throw new Unsupported('disabling macros');
    const env = new cel.Environment({
      enableOptionalTypes: true,
      homogeneousAggregateLiterals: false,
      unlistedVariablesAreDyn: test.disableCheck,
    });
    for (const d of test.typeEnv) {
      if (d.declKind.case !== 'ident') throw new Unsupported('function declarations');
      env.registerVariable(d.name, typeString(d.declKind.value.type));
    }
    const ctx: Record<string, unknown> = {};
    for (const [name, b] of Object.entries(test.bindings)) {
      if (b.kind.case !== 'value') throw new Unsupported('error or unknown bindings');
      ctx[name] = input(b.kind.value);
    }
    let program: ReturnType<CelJsEnv['parse']>;
    try {
      program = env.parse(test.expr);
    } catch (err) {
      return { kind: 'compileError', message: `syntax: ${(err as Error).message}` };
    }
    if (!test.disableCheck) {
      const checked = program.check();
      if (!checked.valid) return { kind: 'compileError', message: checked.error?.message ?? 'invalid' };
      const r = test.resultMatcher;
      if (r.case === 'typedResult' && r.value.deducedType !== undefined && r.value.result === undefined) {
        const want = normalType(typeString(r.value.deducedType));
        const got = normalType(checked.type ?? '');
        return { kind: 'type', ok: want === got, message: `${got} (want ${want})` };
      }
    }
    try {
      return { kind: 'value', value: output(program(ctx)) };
    } catch (err) {
      if (err instanceof Unsupported) throw err;
      return { kind: 'error', message: (err as Error).message };
    }
  };

  return {
    name: '@marcbachmann/cel-js 8.0.0',
    run(test: SimpleTest): Outcome {
      try {
        return run(test);
      } catch (err) {
        if (err instanceof Unsupported) return { kind: 'unsupported', why: err.message };
        throw err;
      }
    },
  };
}
