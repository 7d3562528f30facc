// CEL conformance runner used to choose the engine (bench/cel/ENGINE.md): runs every `simple` test
// file of the CEL specification (as shipped, in protobuf-JSON form, by @bufbuild/cel-spec) against
// each candidate engine and prints the pass rate per file, overall, and the failures by class.
//
//   npx tsx bench/cel/conformance.ts [--dir /tmp/celtry] [--verbose FILE|all] [--wrapper]
//
// A third candidate is our wrapper (src/cel/, with its fixes), on the project's own engine copy.
// `--wrapper` runs it alone, with the test data from the project's node_modules (a devDependency),
// so no scratch install is needed; `npm test` runs the same candidate in conformance.test.ts.
//
// The candidates are loaded from a scratch install (`npm i --prefix /tmp/celtry @bufbuild/cel@0.6.1
// @bufbuild/cel-spec@0.6.1 @marcbachmann/cel-js@8.0.0`), not from the project's node_modules, so
// that the losing candidate never becomes a dependency. Everything (the test data, protobuf runtime,
// both engines) resolves from that one directory, so message classes are never mixed across copies.
// This is a measuring tool, not a test: nothing in `npm test` runs it.

import { fileURLToPath, pathToFileURL } from 'node:url';
import { bufCandidate } from './conformance-buf.ts';
import { celJsCandidate } from './conformance-celjs.ts';
import { type Candidate, canon, loadSpec, type Outcome } from './conformance-data.ts';
import { judge } from './conformance-judge.ts';
import { wrapperCandidate } from './conformance-wrapper.ts';

interface FileTally {
  file: string;
  total: number;
  passed: Map<string, number>;
}

async function main(argv: string[]): Promise<void> {
  const dirIdx = argv.indexOf('--dir');
  const dir = dirIdx >= 0 ? argv[dirIdx + 1] : (process.env.CEL_TRY_DIR ?? '/tmp/celtry');
  const verboseIdx = argv.indexOf('--verbose');
  const verboseFile = verboseIdx >= 0 ? argv[verboseIdx + 1] : undefined;
  const wrapperOnly = argv.includes('--wrapper');
  const root = wrapperOnly ? fileURLToPath(new URL('../..', import.meta.url)) : dir;
  const mod = (p: string) => pathToFileURL(`${root}/node_modules/${p}`).href;
  const spec = await loadSpec(mod);
  const candidates: Candidate[] = wrapperOnly
    ? [wrapperCandidate(spec)]
    : [await bufCandidate(mod, spec), await celJsCandidate(mod), wrapperCandidate(spec)];

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
