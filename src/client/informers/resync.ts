// The controller manager's resync rule: its shared informer factory resyncs every
// MinResyncPeriod times a random factor in [1, 2), drawn once per factory, so managers started
// together do not resync in step (upstream's ResyncPeriod in kube-controller-manager).

/** A resync period (ms) between `minResyncMs` and twice it. */
export function resyncPeriodFromMin(minResyncMs: number, random: () => number = Math.random): number {
  return Math.floor(minResyncMs * (1 + random()));
}
