// Command line of bench/run.ts:
// `<scenario…> [--backend sqlite|etcd3|both] [--quick] [--kubeconfig FILE] [--protocol http1|http2]
// [--encoding json|protobuf] [--server-pid N] [--auth KIND,…|all]`.

import { parseArgs } from 'node:util';
import { ALL_BACKENDS, AUTH_KINDS, type AuthKind, type BackendName, type BenchOptions } from './scenario.ts';

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

/** `--auth`: a comma-separated list of kinds, each once, or `all`. */
function parseAuth(value: string): AuthKind[] {
  if (value === 'all') return [...AUTH_KINDS];
  const out: AuthKind[] = [];
  for (const part of value.split(',')) {
    const kind = AUTH_KINDS.find((k) => k === part.trim());
    if (kind === undefined)
      throw new UsageError(`--auth takes ${AUTH_KINDS.join(', ')} (comma-separated) or all, not '${part}'`);
    if (!out.includes(kind)) out.push(kind);
  }
  return out;
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
  const protocol = values.protocol ?? 'http1';
  if (protocol !== 'http1' && protocol !== 'http2')
    throw new UsageError(`--protocol must be http1 or http2, not '${protocol}'`);
  const encoding = values.encoding ?? 'json';
  if (encoding !== 'json' && encoding !== 'protobuf')
    throw new UsageError(`--encoding must be json or protobuf, not '${encoding}'`);
  const pid = values['server-pid'];
  if (pid !== undefined && !/^\d+$/.test(pid))
    throw new UsageError(`--server-pid must be a process id, not '${pid}'`);
  // The auth comparison is the get scenario's alone: another scenario's result stored with the
  // option would read as a comparison it never made.
  if (values.auth !== undefined && positionals.some((p) => p !== 'get'))
    throw new UsageError('--auth applies to the get scenario only: run other scenarios without it');
  return {
    scenarios: positionals,
    backends: parseBackend(values.backend),
    quick: values.quick === true || envQuick,
    help: values.help === true,
    protocol,
    encoding,
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
    ...(pid === undefined ? {} : { serverPid: Number(pid) }),
    ...(values.auth === undefined ? {} : { auth: parseAuth(values.auth) }),
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
      kubeconfig: { type: 'string' },
      protocol: { type: 'string' },
      encoding: { type: 'string' },
      'server-pid': { type: 'string' },
      auth: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
