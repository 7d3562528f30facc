// The contract between bench/run.ts and each scenario.

export type BackendName = 'sqlite' | 'etcd3';

export const ALL_BACKENDS: readonly BackendName[] = ['sqlite', 'etcd3'];

/** How the get scenario's clients authenticate, when it compares them (`--auth`). */
export const AUTH_KINDS = ['cert', 'static-token', 'sa-token', 'oidc-token'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

export interface BenchOptions {
  /** Backends to measure, in order; scenarios that do not touch storage ignore it. */
  backends: BackendName[];
  /** Tiny sizes, for smoke tests: the numbers are meaningless, only the code path is exercised. */
  quick: boolean;
  /** Drive the server this kubeconfig names instead of starting ours (API scenarios). */
  kubeconfig?: string;
  /** HTTP/1.1 keep-alive (default) or HTTP/2 for the load. */
  protocol: 'http1' | 'http2';
  /** The driven server's process, for memory figures when it is not ours. */
  serverPid?: number;
  /** The encoding of watch streams in the watch scenario. */
  encoding: 'json' | 'protobuf';
  /** The get scenario runs as each of these kinds of user in turn, interleaved, and compares them. */
  auth?: AuthKind[];
}

export interface ScenarioContext extends BenchOptions {
  /** Progress for the operator; goes to stderr so stdout stays the clean table. */
  log: (message: string) => void;
}

export interface ScenarioOutput {
  /** Serialised as-is into the results file. */
  results: unknown;
  /** Printed after the run; Markdown, ready to paste. */
  markdown: string;
}

export interface Scenario {
  name: string;
  description: string;
  run(ctx: ScenarioContext): Promise<ScenarioOutput>;
}
