// Bench entry point: `npm run bench -- <scenario…> [--backend sqlite|etcd3|both] [--quick]
// [--kubeconfig FILE] [--protocol http1|http2] [--encoding json|protobuf] [--server-pid N]
// [--auth KIND,…|all]`, or
// `npm run bench -- report`, or `npm run bench -- charts`.
// Each scenario run leaves a JSON file in bench/results/ and prints a Markdown table; `report`
// joins the latest result of every scenario into bench/REPORT.md, with a latency chart per table
// in bench/charts/; `charts` draws the charts of REPORT.md as it stands, leaving it untouched.

import { fileURLToPath } from 'node:url';
import { observabilityScenario } from './api/observability.ts';
import { apiScenarios } from './api/scenarios.ts';
import { authzScenario } from './auth/rbac-decision.ts';
import { celScenario } from './cel/index.ts';
import { codecScenario } from './codec/index.ts';
import { stallsScenario } from './codec/request-stalls.ts';
import { controllersScenario } from './controllers/index.ts';
import { parseBenchArgs, UsageError } from './lib/args.ts';
import { describeMachine, formatMachine } from './lib/machine.ts';
import { writeReport, writeStandingCharts } from './lib/report.ts';
import { writeResult } from './lib/results.ts';
import type { Scenario } from './lib/scenario.ts';
import { startupScenario } from './startup/index.ts';
import { storageScenario } from './storage/index.ts';
import { rolloutScenario } from './workloads/index.ts';

const SCENARIOS: Scenario[] = [
  storageScenario,
  startupScenario,
  codecScenario,
  stallsScenario,
  celScenario,
  authzScenario,
  controllersScenario,
  rolloutScenario,
  ...apiScenarios,
  {
    name: 'observability',
    description: 'get and create with request metrics off, on, and with Metadata audit to a file',
    run: observabilityScenario,
  },
];

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const REPORT_PATH = fileURLToPath(new URL('./REPORT.md', import.meta.url));

function usage(): string {
  const names = SCENARIOS.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join('\n');
  return [
    'usage: npm run bench -- <scenario…> [--backend sqlite|etcd3|both] [--quick]',
    '                        [--kubeconfig FILE] [--protocol http1|http2] [--encoding json|protobuf]',
    '                        [--server-pid N] [--auth cert,static-token,sa-token,oidc-token|all]',
    '       npm run bench -- report',
    '       npm run bench -- charts   (bench/charts/*.svg from REPORT.md as it stands)',
    '',
    'scenarios:',
    names,
    '',
    '--quick (or BENCH_QUICK=1) runs tiny sizes, for smoke tests only.',
    '--kubeconfig drives the server that file names (any compatible implementation) instead of ours.',
    '--auth runs the get scenario as each kind of user in turn, in rounds, and compares them.',
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
  if (args.scenarios.length === 1 && args.scenarios[0] === 'report') {
    const path = writeReport(RESULTS_DIR, REPORT_PATH);
    console.log(`Wrote ${path}`);
    return 0;
  }
  if (args.scenarios.length === 1 && args.scenarios[0] === 'charts') {
    for (const { heading, links } of writeStandingCharts(REPORT_PATH)) {
      console.log(`${heading}\n${links.join('\n')}\n`);
    }
    return 0;
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
    const options = {
      backends: args.backends,
      quick: args.quick,
      protocol: args.protocol,
      encoding: args.encoding,
      kubeconfig: args.kubeconfig,
      serverPid: args.serverPid,
      auth: args.auth,
    };
    const output = await scenario.run({ ...options, log });
    const finishedAt = new Date();
    const path = writeResult(RESULTS_DIR, name, startedAt, {
      scenario: name,
      startedAt: startedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      options: { ...options, kubeconfig: options.kubeconfig === undefined ? undefined : 'given' },
      markdown: output.markdown,
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
