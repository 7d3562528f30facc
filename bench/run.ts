// Bench entry point: `npm run bench -- <scenario…> [--backend sqlite|etcd3|both] [--quick]`.
// Each scenario run leaves a JSON file in bench/results/ and prints a Markdown table.

import { fileURLToPath } from 'node:url';
import { parseBenchArgs, UsageError } from './lib/args.ts';
import { describeMachine, formatMachine } from './lib/machine.ts';
import { writeResult } from './lib/results.ts';
import type { Scenario } from './lib/scenario.ts';
import { startupScenario } from './startup/index.ts';
import { storageScenario } from './storage/index.ts';

const SCENARIOS: Scenario[] = [storageScenario, startupScenario];

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

function usage(): string {
  const names = SCENARIOS.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join('\n');
  return [
    'usage: npm run bench -- <scenario…> [--backend sqlite|etcd3|both] [--quick]',
    '',
    'scenarios:',
    names,
    '',
    '--quick (or BENCH_QUICK=1) runs tiny sizes, for smoke tests only.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseBenchArgs(argv, process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${usage()}`);
    return 2;
  }
  if (args.help || args.scenarios.length === 0) {
    (args.help ? console.log : console.error)(usage());
    return args.help ? 0 : 2;
  }
  const byName = new Map(SCENARIOS.map((s) => [s.name, s]));
  const unknown = args.scenarios.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    console.error(`unknown scenario: ${unknown.join(', ')}\n\n${usage()}`);
    return 2;
  }

  const machine = describeMachine();
  const log = (message: string) => console.error(`[bench] ${message}`);
  for (const name of args.scenarios) {
    const scenario = byName.get(name)!;
    const startedAt = new Date();
    log(`${name}: starting (backends: ${args.backends.join(', ')}${args.quick ? ', quick' : ''})`);
    const output = await scenario.run({ backends: args.backends, quick: args.quick, log });
    const finishedAt = new Date();
    const path = writeResult(RESULTS_DIR, name, startedAt, {
      scenario: name,
      startedAt: startedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      options: { backends: args.backends, quick: args.quick },
      machine,
      results: output.results,
    });
    console.log(`## Bench: ${name} (${startedAt.toISOString()})\n`);
    console.log(`Machine: ${formatMachine(machine)}\n`);
    console.log(output.markdown);
    console.log(`\nResult: ${path}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  },
);
