// The CEL specification's `string_ext` conformance file (@bufbuild/cel-spec's copy) through our
// wrapper with the strings extension at its newest version, as cel-go's own conformance run
// enables it. Every test passes but those listed in EXPECTED_FAILURES, each with its reason.
// Also a runner: `npx tsx src/cel/library/strings-conformance.test.ts --verbose` prints each
// failure and the pass rate, at `--version N` (2 is kube-apiserver 1.35's).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  canon,
  loadSpec,
  type Norm,
  type PbType,
  type PbValue,
  type SimpleTest,
} from '../../../bench/cel/conformance-data.ts';
import { compile } from '../compile.ts';
import { Duration, UnsignedInt } from '../engine.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { type CelType, T } from '../types.ts';
import { LATEST_STRINGS_VERSION, stringsLibrary } from './strings.ts';

/** Tests that fail on purpose, with the reason (cel-go 0.26, which kube-apiserver 1.35 uses, agrees). */
const EXPECTED_FAILURES: Record<string, string> = {
  'value_errors/indexof_out_of_range':
    "cel-go returns -1 for an offset past the end; its conformance run skips this test ('need a spec update')",
  'value_errors/lastindexof_out_of_range': 'the same, for lastIndexOf',
  'format_errors/object not allowed': 'protobuf message literal (not supported by the wrapper)',
  'format_errors/object inside list': 'protobuf message literal (not supported by the wrapper)',
  'format_errors/object inside map': 'protobuf message literal (not supported by the wrapper)',
};

const root = fileURLToPath(new URL('../../../', import.meta.url));
const mod = (p: string) => pathToFileURL(`${root}node_modules/${p}`).href;

function celType(t: PbType | undefined): CelType {
  const k = t?.typeKind;
  if (k?.case === 'primitive') return [T.dyn, T.bool, T.int, T.uint, T.double, T.string, T.bytes][k.value];
  if (k?.case === 'listType') return T.list(celType(k.value.elemType));
  if (k?.case === 'mapType') return T.map(celType(k.value.keyType), celType(k.value.valueType));
  return T.dyn;
}

function input(v: PbValue): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return new UnsignedInt(k.value);
    case 'listValue':
      return k.value.values.map(input);
    default:
      return k.value;
  }
}

function output(v: unknown): Norm {
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
  if (v instanceof UnsignedInt) return { t: 'uint', v: v.value };
  if (v instanceof Duration) return { t: 'duration', s: v.seconds, n: v.nanos };
  if (Array.isArray(v)) return { t: 'list', v: v.map(output) };
  return { t: 'string', v: `unexpected ${String(v)}` };
}

/** Undefined when the test passes, otherwise what went wrong. */
function run(test: SimpleTest, expected: Norm | string, version: number): string | undefined {
  if (/\bcel\.expr\./.test(test.expr)) return 'protobuf message literal';
  const variables: Record<string, CelType> = {};
  const activation: Record<string, unknown> = {};
  for (const d of test.typeEnv)
    if (d.declKind.case === 'ident') variables[d.name] = celType(d.declKind.value.type);
  for (const [name, b] of Object.entries(test.bindings)) {
    if (b.kind.case === 'value') activation[name] = input(b.kind.value);
    variables[name] ??= T.dyn;
  }
  const env = createEnvironment({ variables, libraries: [stringsLibrary(version)] });
  const c = compile(env, test.expr);
  if (!c.ok)
    return expected === 'error' && test.disableCheck ? undefined : `compile error: ${c.error.message}`;
  const r = evaluate(c.program, activation);
  if (expected === 'error')
    return r.ok ? `value ${canon(output(r.value))} where an error was expected` : undefined;
  if (!r.ok) return `error: ${r.error.message}`;
  const want = expected === 'true' ? canon({ t: 'bool', v: true }) : canon(expected as Norm);
  const got = canon(output(r.value));
  return got === want ? undefined : `got ${got}, want ${want}`;
}

async function conformance(version: number): Promise<Map<string, string>> {
  const spec = await loadSpec(mod);
  const file = spec.files.find((f) => f.name === 'string_ext');
  assert.ok(file, 'string_ext is in the conformance data');
  const failures = new Map<string, string>();
  for (const { path, test } of file.tests) {
    const e = spec.expectation(test);
    const why = run(test, e, version);
    if (why !== undefined) failures.set(path.slice(1).join('/'), `${test.expr}\n    ${why}`);
  }
  (failures as Map<string, string> & { total?: number }).total = file.tests.length;
  return failures;
}

if (process.argv.includes('--verbose')) {
  const vi = process.argv.indexOf('--version');
  const version = vi >= 0 ? Number(process.argv[vi + 1]) : LATEST_STRINGS_VERSION;
  const failures = await conformance(version);
  for (const [name, why] of failures) console.log(`${name}: ${why}`);
  const total = (failures as Map<string, string> & { total?: number }).total ?? 0;
  console.log(`string_ext at version ${version}: ${total - failures.size} of ${total} pass`);
} else {
  describe('string_ext conformance through the wrapper', () => {
    it('passes every test but the known ones', async () => {
      const failures = await conformance(LATEST_STRINGS_VERSION);
      const unexpected = [...failures].filter(([name]) => EXPECTED_FAILURES[name] === undefined);
      assert.deepEqual(unexpected, []);
    });
  });
}
