// The controller manager's metrics: one MetricsRegistry per manager (several managers may share a
// process), holding the work queues' and the leader elector's metrics with upstream's names.

import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { LeaderElectionMetrics } from './leader-election.ts';
import { WorkQueueMetrics } from './workqueue.ts';

export * from './fast-gauge.ts';
export * from './leader-election.ts';
export * from './workqueue.ts';

export interface ControllerManagerMetrics {
  registry: MetricsRegistry;
  workQueues: WorkQueueMetrics;
  leaderElection: LeaderElectionMetrics;
}

/**
 * Defines every metric of one manager. Throws upstream's message when
 * `showHiddenMetricsForVersion` is neither empty nor the previous minor release.
 */
export function controllerManagerMetrics(showHiddenMetricsForVersion = ''): ControllerManagerMetrics {
  const registry = new MetricsRegistry({ showHiddenMetricsForVersion });
  return {
    registry,
    workQueues: new WorkQueueMetrics(registry),
    leaderElection: new LeaderElectionMetrics(registry),
  };
}
