// One server of the observability scenario (observability-modes.ts says which), started from
// the sources in a process of its own: `node --import tsx observability-main.ts <port> <dir> <mode>`.
// It writes `ready` on stdout once /readyz would answer 200 and stops cleanly on SIGTERM. Started
// from the sources rather than the build so that audit, being wired, shows up in the figures
// without a rebuild; every mode runs the same code.

import { RequestMetrics } from '../../src/server/metrics/request-metrics.ts';
import { startServer } from '../../src/server/server.ts';
import { isObservabilityMode, observabilityOptions } from './observability-modes.ts';

/**
 * Turns request metrics recording into no-ops for this process: every server built afterwards
 * counts nothing per request. The prototype is the one server.ts instantiates (one module instance
 * per process), so no server option is needed for a comparison only the bench makes.
 */
function shortCircuitRequestMetrics(): void {
  // begin()'s answer only comes back to end(), which ignores it here.
  RequestMetrics.prototype.begin = () => 0;
  RequestMetrics.prototype.end = () => {};
}

async function main(): Promise<void> {
  const [port, dir, mode] = process.argv.slice(2);
  if (!isObservabilityMode(mode)) throw new Error(`unknown mode ${mode}`);
  if (mode === 'metrics-off') shortCircuitRequestMetrics();
  const server = await startServer(observabilityOptions(mode, dir, Number(port)));
  await server.ready;
  process.stdout.write('ready\n');
  const stop = () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`observability server: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
