// How every program ends: on SIGTERM or SIGINT it stops what it started and exits 0 (1 when the
// stop fails); a second signal while stopping is ignored, as the first is already being honoured.

import { type Logger, loggerFor } from '../machinery/logging/index.ts';

export function stopOnSignals(stop: () => Promise<void>, log: Logger = loggerFor('cmd/signals')): void {
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = true;
    log.info('Received signal, shutting down', { signal });
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        log.error(err, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
