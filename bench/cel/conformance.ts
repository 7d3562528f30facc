// CEL conformance runner used to choose the engine (bench/cel/ENGINE.md): runs every `simple` test
// file of the CEL specification (as shipped, in protobuf-JSON form, by @bufbuild/cel-spec) against
// each candidate engine and prints the pass rate per file, overall, and the failures by class.
//
//   npx tsx bench/cel/conformance.ts [--dir /tmp/celtry] [--verbose FILE]
//
// The candidates are loaded from a scratch install (`npm i --prefix /tmp/celtry @bufbuild/cel@0.6.1
// @bufbuild/cel-spec@0.6.1 @marcbachmann/cel-js@8.0.0`), not from the project's node_modules, so
// that the losing candidate never becomes a dependency. Everything (the test data, protobuf runtime,
// both engines) resolves from that one directory, so message classes are never mixed across copies.
// This is a measuring tool, not a test: nothing in `npm test` runs it.

import { pathToFileURL } from 'node:url';
import { bufCandidate } from './conformance-buf.ts';
import { celJsCandidate } from './conformance-celjs.ts';
import {
  type Candidate,
  canon,
  loadSpec,
  type Norm,
  type Outcome,
  type SimpleTest,
} from './conformance-data.ts';

interface FileTally {
  file: string;
  total: number;
  passed: Map<string, number>;
}

/** Failure class of one outcome against the expectation, or undefined when it passed. */
function judge(
  test: SimpleTest,
  out: Outcome,
  expected: Norm | 'error' | 'true' | 'type' | 'unknown',
): string | undefined {
  if (out.kind === 'unsupported') return `unsupported by API (${out.why})`;
  if (expected === 'unknown') return 'unknown values (partial evaluation) not supported';
  if (out.kind === 'compileError') {
    return expected === 'error' && test.disableCheck ? undefined : classifyCompileError(out.message);
  }
  if (expected === 'type') return out.kind === 'type' && out.ok ? undefined : 'inferred result type differs';
  if (expected === 'error') return out.kind === 'error' ? undefined : 'value where an error was expected';
  if (out.kind === 'error') return classifyRuntimeError(out.message);
  if (out.kind !== 'value') return 'no value';
  const want = expected === 'true' ? canon({ t: 'bool', v: true }) : canon(expected);
  return canon(out.value) === want ? undefined : 'wrong value';
}

function classifyCompileError(message: string): string {
  const m = message.toLowerCase();
  if (/syntax|unexpected|expecting|parse|token|invalid .*escape|octal|reserved/.test(m)) return 'parse error';
  if (/unknown variable|undeclared|unknown type|not registered/.test(m))
    return 'type check: unknown identifier or type';
  if (/overload|not defined|no matching|unknown function|found no/.test(m))
    return 'type check: missing function or overload';
  return 'type check: rejected';
}

function classifyRuntimeError(message: string): string {
  const m = message.toLowerCase();
  if (/overload|unbound function|no such function|not defined|unknown function|found no matching/.test(m)) {
    return 'runtime: missing function or overload';
  }
  if (/field|key|property/.test(m)) return 'runtime: field or key access';
  return 'runtime: unexpected error';
}

async function main(argv: string[]): Promise<void> {
  const dirIdx = argv.indexOf('--dir');
  const dir = dirIdx >= 0 ? argv[dirIdx + 1] : (process.env.CEL_TRY_DIR ?? '/tmp/celtry');
  const verboseIdx = argv.indexOf('--verbose');
  const verboseFile = verboseIdx >= 0 ? argv[verboseIdx + 1] : undefined;
  const mod = (p: string) => pathToFileURL(`${dir}/node_modules/${p}`).href;
  const spec = await loadSpec(mod);
  const candidates: Candidate[] = [await bufCandidate(mod, spec), await celJsCandidate(mod)];

  const tallies = new Map<string, FileTally[]>();
  const classes = new Map<string, Map<string, number>>();
  for (const c of candidates) {
    tallies.set(c.name, []);
    classes.set(c.name, new Map());
  }
  for (const file of spec.files) {
    for (const c of candidates) {
      const tally: FileTally = { file: file.name, total: 0, passed: new Map() };
      let passed = 0;
      for (const { path, test } of file.tests) {
        tally.total++;
        const expected = spec.expectation(test);
        let out: Outcome;
        try {
          out = c.run(test);
        } catch (err) {
          out = { kind: 'error', message: `threw: ${err instanceof Error ? err.message : String(err)}` };
        }
        const cls = judge(test, out, expected);
        if (cls === undefined) {
          passed++;
          continue;
        }
        const byClass = classes.get(c.name)!;
        byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
        if (verboseFile === file.name || verboseFile === 'all') {
          const got = out.kind === 'value' ? canon(out.value) : 'message' in out ? out.message : out.kind;
          console.log(
            `[${c.name}] ${path.join('/')}: ${cls}\n    expr: ${test.expr}\n    got:  ${got.split('\n')[0]}`,
          );
        }
      }
      tally.passed.set('all', passed);
      tallies.get(c.name)!.push(tally);
    }
  }

  const names = candidates.map((c) => c.name);
  console.log(`\n| file | tests | ${names.join(' | ')} |`);
  console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} |`);
  const totals = names.map(() => 0);
  let grand = 0;
  for (let i = 0; i < spec.files.length; i++) {
    const row = names.map((n, j) => {
      const t = tallies.get(n)![i];
      totals[j] += t.passed.get('all')!;
      return `${t.passed.get('all')} (${pct(t.passed.get('all')!, t.total)})`;
    });
    const total = tallies.get(names[0])![i].total;
    grand += total;
    console.log(`| ${spec.files[i].name} | ${total} | ${row.join(' | ')} |`);
  }
  console.log(`| **all** | ${grand} | ${totals.map((t) => `${t} (${pct(t, grand)})`).join(' | ')} |`);
  for (const n of names) {
    console.log(`\nFailure classes, ${n}:`);
    const sorted = [...classes.get(n)!.entries()].sort((a, b) => b[1] - a[1]);
    for (const [cls, count] of sorted) console.log(`  ${String(count).padStart(5)}  ${cls}`);
  }
}

function pct(n: number, d: number): string {
  return `${d === 0 ? 100 : ((100 * n) / d).toFixed(1)}%`;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
