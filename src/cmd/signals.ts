// How every program ends: on SIGTERM or SIGINT it stops what it started and exits 0 (1 when the
// stop fails); a second signal while stopping is ignored, as the first is already being honoured.

export function stopOnSignals(stop: () => Promise<void>): void {
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = true;
    process.stderr.write(`${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`shutdown failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
