// Command line of bench/run.ts: `<scenario…> [--backend sqlite|etcd3|both] [--quick]`.

import { parseArgs } from 'node:util';
import { ALL_BACKENDS, type BackendName, type BenchOptions } from './scenario.ts';

export class UsageError extends Error {}

export interface BenchArgs extends BenchOptions {
  scenarios: string[];
  help: boolean;
}

function parseBackend(value: string | undefined): BackendName[] {
  if (value === undefined || value === 'both') return [...ALL_BACKENDS];
  const match = ALL_BACKENDS.find((b) => b === value);
  if (match === undefined) throw new UsageError(`--backend must be sqlite, etcd3 or both, not '${value}'`);
  return [match];
}

export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = {}): BenchArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const envQuick = env.BENCH_QUICK !== undefined && env.BENCH_QUICK !== '' && env.BENCH_QUICK !== '0';
  return {
    scenarios: positionals,
    backends: parseBackend(values.backend),
    quick: values.quick === true || envQuick,
    help: values.help === true,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      backend: { type: 'string' },
      quick: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
