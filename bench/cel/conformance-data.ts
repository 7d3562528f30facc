// The engine-neutral half of the conformance runner: loads the `simple` test files from
// @bufbuild/cel-spec (dynamically, from the scratch directory), flattens their sections, and turns
// expected values into a normal form (`Norm`) that both candidates' results are compared in.
// The protobuf shapes are declared structurally here, only as far as the runner reads them.

export type Norm =
  | { t: 'int' | 'uint'; v: bigint }
  | { t: 'double'; v: number }
  | { t: 'string'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'bytes'; v: string }
  | { t: 'list'; v: Norm[] }
  | { t: 'map'; v: [Norm, Norm][] }
  | { t: 'type'; v: string }
  | { t: 'timestamp' | 'duration'; s: bigint; n: number }
  | { t: 'message'; type: string; bin: string }
  | { t: 'optional'; v?: Norm };

export type Outcome =
  | { kind: 'value'; value: Norm }
  | { kind: 'error'; message: string }
  | { kind: 'compileError'; message: string }
  | { kind: 'type'; ok: boolean; message: string }
  | { kind: 'unsupported'; why: string };

export interface Candidate {
  name: string;
  run(test: SimpleTest): Outcome;
}

// --- the protobuf messages, structurally ---------------------------------------------------------

export interface PbAny {
  typeUrl: string;
  value: Uint8Array;
}
export interface PbValue {
  kind:
    | { case: 'nullValue'; value: number }
    | { case: 'boolValue'; value: boolean }
    | { case: 'int64Value' | 'uint64Value'; value: bigint }
    | { case: 'doubleValue'; value: number }
    | { case: 'stringValue'; value: string }
    | { case: 'bytesValue'; value: Uint8Array }
    | { case: 'enumValue'; value: { type: string; value: number } }
    | { case: 'objectValue'; value: PbAny }
    | { case: 'mapValue'; value: { entries: { key?: PbValue; value?: PbValue }[] } }
    | { case: 'listValue'; value: { values: PbValue[] } }
    | { case: 'typeValue'; value: string }
    | { case: undefined; value?: undefined };
}
export interface PbType {
  typeKind:
    | { case: 'dyn' | 'error'; value: unknown }
    | { case: 'null'; value: number }
    | { case: 'primitive' | 'wrapper'; value: number }
    | { case: 'wellKnown'; value: number }
    | { case: 'listType'; value: { elemType?: PbType } }
    | { case: 'mapType'; value: { keyType?: PbType; valueType?: PbType } }
    | { case: 'messageType' | 'typeParam'; value: string }
    | { case: 'type'; value: PbType }
    | { case: 'abstractType'; value: { name: string; parameterTypes: PbType[] } }
    | { case: 'function' | undefined; value?: unknown };
}
export interface SimpleTest {
  name: string;
  expr: string;
  disableMacros: boolean;
  disableCheck: boolean;
  checkOnly: boolean;
  container: string;
  typeEnv: {
    name: string;
    declKind: { case: 'ident'; value: { type?: PbType } } | { case: 'function' | undefined };
  }[];
  bindings: Record<
    string,
    { kind: { case: 'value'; value: PbValue } | { case: 'error' | 'unknown' | undefined } }
  >;
  resultMatcher:
    | { case: 'value'; value: PbValue }
    | { case: 'typedResult'; value: { result?: PbValue; deducedType?: PbType } }
    | { case: 'evalError' | 'anyEvalErrors' | 'unknown' | 'anyUnknowns'; value: unknown }
    | { case: undefined };
}

/** A message as the runner handles it: schema (descriptor) and a type name. */
export interface PbMessage {
  $typeName: string;
  [field: string]: unknown;
}
export interface Registry {
  getMessage(typeName: string): unknown;
}
export interface ProtobufRuntime {
  toBinary(schema: unknown, message: unknown): Uint8Array;
  anyUnpack(any: PbAny, registry: Registry): PbMessage | undefined;
}

export interface Spec {
  files: { name: string; tests: { path: string[]; test: SimpleTest }[] }[];
  registry: Registry;
  pb: ProtobufRuntime;
  /** What the test expects: a value, any error, `true` (no matcher), a deduced type, or unknowns. */
  expectation(test: SimpleTest): Norm | 'error' | 'true' | 'type' | 'unknown';
  norm(value: PbValue): Norm;
  messageNorm(message: PbMessage): Norm;
}

interface IncrementalSuite {
  name: string;
  suites: IncrementalSuite[];
  tests: { original: SimpleTest }[];
}

export async function loadSpec(mod: (p: string) => string): Promise<Spec> {
  const tests = (await import(mod('@bufbuild/cel-spec/dist/esm/testdata/tests.js'))) as {
    getConformanceSuite(): IncrementalSuite;
  };
  const reg = (await import(mod('@bufbuild/cel-spec/dist/esm/testdata/registry.js'))) as {
    getTestRegistry(): Registry;
  };
  const protobuf = (await import(mod('@bufbuild/protobuf/dist/esm/index.js'))) as ProtobufRuntime;
  const wkt = (await import(mod('@bufbuild/protobuf/dist/esm/wkt/index.js'))) as ProtobufRuntime;
  const registry = reg.getTestRegistry();
  const pb: ProtobufRuntime = { toBinary: protobuf.toBinary, anyUnpack: wkt.anyUnpack };

  const files: Spec['files'] = [];
  for (const file of tests.getConformanceSuite().suites) {
    const flat: { path: string[]; test: SimpleTest }[] = [];
    const walk = (s: IncrementalSuite, path: string[]) => {
      for (const t of s.tests) flat.push({ path: [...path, t.original.name], test: t.original });
      for (const sub of s.suites) walk(sub, [...path, sub.name]);
    };
    walk(file, [file.name]);
    files.push({ name: file.name, tests: flat });
  }

  const messageNorm = (m: PbMessage): Norm => {
    const n = m.$typeName;
    if (n === 'google.protobuf.Timestamp' || n === 'google.protobuf.Duration') {
      return {
        t: n === 'google.protobuf.Timestamp' ? 'timestamp' : 'duration',
        s: m.seconds as bigint,
        n: m.nanos as number,
      };
    }
    // Wrappers and JSON values are plain CEL values once read (CEL's rules for well-known types).
    const wrapped = WRAPPERS[n];
    if (wrapped !== undefined) return wrapped(m.value);
    const schema = registry.getMessage(n);
    return { t: 'message', type: n, bin: Buffer.from(pb.toBinary(schema, m)).toString('hex') };
  };
  const norm = (v: PbValue): Norm => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue':
        return { t: 'null' };
      case 'boolValue':
        return { t: 'bool', v: k.value };
      case 'int64Value':
        return { t: 'int', v: k.value };
      case 'uint64Value':
        return { t: 'uint', v: k.value };
      case 'doubleValue':
        return { t: 'double', v: k.value };
      case 'stringValue':
        return { t: 'string', v: k.value };
      case 'bytesValue':
        return { t: 'bytes', v: Buffer.from(k.value).toString('hex') };
      case 'enumValue':
        return { t: 'int', v: BigInt(k.value.value) };
      case 'typeValue':
        return { t: 'type', v: k.value };
      case 'listValue':
        return { t: 'list', v: k.value.values.map(norm) };
      case 'mapValue':
        return { t: 'map', v: k.value.entries.map((e) => [norm(e.key!), norm(e.value!)] as [Norm, Norm]) };
      case 'objectValue': {
        const m = pb.anyUnpack(k.value, registry);
        if (m === undefined) throw new Error(`unknown message ${k.value.typeUrl}`);
        return messageNorm(m);
      }
      default:
        throw new Error('empty Value');
    }
  };
  const expectation = (t: SimpleTest): ReturnType<Spec['expectation']> => {
    const r = t.resultMatcher;
    switch (r.case) {
      case 'value':
        return norm(r.value);
      case 'typedResult':
        return r.value.result !== undefined ? norm(r.value.result) : 'type';
      case 'evalError':
      case 'anyEvalErrors':
        return 'error';
      case 'unknown':
      case 'anyUnknowns':
        return 'unknown';
      default:
        return t.checkOnly ? 'type' : 'true';
    }
  };
  return { files, registry, pb, expectation, norm, messageNorm };
}

const WRAPPERS: Record<string, (v: unknown) => Norm> = {
  'google.protobuf.BoolValue': (v) => ({ t: 'bool', v: v as boolean }),
  'google.protobuf.Int32Value': (v) => ({ t: 'int', v: BigInt(v as number) }),
  'google.protobuf.Int64Value': (v) => ({ t: 'int', v: v as bigint }),
  'google.protobuf.UInt32Value': (v) => ({ t: 'uint', v: BigInt(v as number) }),
  'google.protobuf.UInt64Value': (v) => ({ t: 'uint', v: v as bigint }),
  'google.protobuf.FloatValue': (v) => ({ t: 'double', v: v as number }),
  'google.protobuf.DoubleValue': (v) => ({ t: 'double', v: v as number }),
  'google.protobuf.StringValue': (v) => ({ t: 'string', v: v as string }),
  'google.protobuf.BytesValue': (v) => ({ t: 'bytes', v: Buffer.from(v as Uint8Array).toString('hex') }),
};

/**
 * The normal form of a value every candidate returns as the same JavaScript value (int as bigint,
 * double as number, string, bool, null, bytes as Uint8Array); undefined for the rest, which each
 * candidate represents its own way.
 */
export function primitiveNorm(v: unknown): Norm | undefined {
  switch (typeof v) {
    case 'bigint':
      return { t: 'int', v };
    case 'number':
      return { t: 'double', v };
    case 'string':
      return { t: 'string', v };
    case 'boolean':
      return { t: 'bool', v };
  }
  if (v === null) return { t: 'null' };
  if (v instanceof Uint8Array) return { t: 'bytes', v: Buffer.from(v).toString('hex') };
  return undefined;
}

/** A canonical string of a normal form: map entries sorted, NaN equal to NaN, -0 distinct. */
export function canon(n: Norm): string {
  switch (n.t) {
    case 'int':
    case 'uint':
      return `${n.t}:${n.v}`;
    case 'double':
      return `double:${Object.is(n.v, -0) ? '-0' : String(n.v)}`;
    case 'string':
      return `string:${JSON.stringify(n.v)}`;
    case 'bool':
    case 'bytes':
    case 'type':
      return `${n.t}:${String(n.v)}`;
    case 'null':
      return 'null';
    case 'list':
      return `[${n.v.map(canon).join(',')}]`;
    case 'map':
      return `{${n.v
        .map(([k, v]) => `${canon(k)}=>${canon(v)}`)
        .sort()
        .join(',')}}`;
    case 'timestamp':
    case 'duration':
      return `${n.t}:${n.s}.${n.n}`;
    case 'message':
      return `${n.type}:${n.bin}`;
    case 'optional':
      return n.v === undefined ? 'optional.none' : `optional(${canon(n.v)})`;
  }
}
