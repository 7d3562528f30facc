// Conformance candidate: @bufbuild/cel. Its public API parses and plans (evaluates) but exposes no
// type checker (the checker module is not among the package's exports), so tests that only check a
// deduced type count as "unsupported by API"; declared variable types are not used by its planner.

import {
  type Candidate,
  type Norm,
  type Outcome,
  type PbMessage,
  type PbValue,
  primitiveNorm,
  type SimpleTest,
  type Spec,
} from './conformance-data.ts';

interface BufCel {
  parse(expr: string): unknown;
  plan(env: unknown, expr: unknown): (bindings?: Record<string, unknown>) => unknown;
  celEnv(opts: { registry?: unknown; namespace?: string; funcs?: unknown[] }): unknown;
  isCelError(v: unknown): v is Error;
  celUint(v: bigint): unknown;
  isCelUint(v: unknown): v is { value: bigint };
  isCelList(v: unknown): v is Iterable<unknown>;
  isCelMap(v: unknown): v is ReadonlyMap<unknown, unknown>;
  isCelType(v: unknown): v is { name: string };
  objectType(name: string): unknown;
  listType(e: unknown): unknown;
  mapType(k: unknown, v: unknown): unknown;
  CelScalar: Record<string, unknown>;
}

export async function bufCandidate(mod: (p: string) => string, spec: Spec): Promise<Candidate> {
  const cel = (await import(mod('@bufbuild/cel/dist/esm/index.js'))) as BufCel;
  const ext = (await import(mod('@bufbuild/cel/dist/esm/ext/index.js'))) as { strings: unknown[] };
  const S = cel.CelScalar;
  const typeByName: Record<string, unknown> = {
    int: S.INT,
    uint: S.UINT,
    double: S.DOUBLE,
    bool: S.BOOL,
    string: S.STRING,
    bytes: S.BYTES,
    null_type: S.NULL,
    type: S.TYPE,
    list: cel.listType(S.DYN),
    map: cel.mapType(S.DYN, S.DYN),
  };

  const input = (v: PbValue): unknown => {
    const k = v.kind;
    switch (k.case) {
      case 'nullValue':
        return null;
      case 'uint64Value':
        return cel.celUint(k.value);
      case 'enumValue':
        return BigInt(k.value.value);
      case 'listValue':
        return k.value.values.map(input);
      case 'mapValue':
        return new Map(k.value.entries.map((e) => [input(e.key!), input(e.value!)]));
      case 'typeValue':
        return typeByName[k.value] ?? cel.objectType(k.value);
      case 'objectValue':
        return spec.pb.anyUnpack(k.value, spec.registry);
      case undefined:
        return undefined;
      default:
        return k.value;
    }
  };

  const output = (v: unknown): Norm => {
    const p = primitiveNorm(v);
    if (p !== undefined) return p;
    if (cel.isCelUint(v)) return { t: 'uint', v: v.value };
    if (cel.isCelType(v)) return { t: 'type', v: v.name };
    if (cel.isCelList(v)) return { t: 'list', v: [...v].map(output) };
    if (cel.isCelMap(v))
      return { t: 'map', v: [...v.entries()].map(([a, b]) => [output(a), output(b)] as [Norm, Norm]) };
    if (typeof v === 'object' && v !== null && 'message' in v)
      return spec.messageNorm((v as { message: PbMessage }).message);
    throw new Error(`unrecognised value ${String(v)}`);
  };

  return {
    name: '@bufbuild/cel 0.6.1',
    run(test: SimpleTest): Outcome {
      if (
        test.checkOnly ||
        (test.resultMatcher.case === 'typedResult' && test.resultMatcher.value.result === undefined)
      ) {
        return { kind: 'unsupported', why: 'no public type checker' };
      }
      let parsed: unknown;
      try {
        parsed = cel.parse(test.expr);
      } catch (err) {
        return {
          kind: 'compileError',
          message: `syntax: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
      const bindings: Record<string, unknown> = {};
      for (const [name, b] of Object.entries(test.bindings)) {
        if (b.kind.case !== 'value') return { kind: 'unsupported', why: 'error or unknown bindings' };
        bindings[name] = input(b.kind.value);
      }
      const env = cel.celEnv({ registry: spec.registry, namespace: test.container, funcs: ext.strings });
      const result = cel.plan(env, parsed)(bindings);
      if (cel.isCelError(result)) return { kind: 'error', message: result.message };
      return { kind: 'value', value: output(result) };
    },
  };
}
