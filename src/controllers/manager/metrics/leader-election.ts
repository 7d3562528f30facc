// The leader elector's metrics in the controller manager's registry, as component-base's
// clientgo/leaderelection provider defines them: leader_election_master_status (1 while this
// manager holds the lease named by `name`, 0 otherwise) and leader_election_slowpath_total.

import type { Counter, Gauge } from 'prom-client';
import type { LeaderMetrics } from '../../../client/leader-election/metrics.ts';
import type { MetricsRegistry } from '../../../machinery/metrics/index.ts';

export class LeaderElectionMetrics implements LeaderMetrics {
  private readonly status: Gauge<'name'>;
  private readonly slowpath: Counter<'name'>;

  constructor(registry: MetricsRegistry) {
    this.status = registry.gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      stability: 'ALPHA',
      labelNames: ['name'],
    });
    this.slowpath = registry.counter({
      name: 'leader_election_slowpath_total',
      help: "Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease. Please make sure to group by name.",
      stability: 'ALPHA',
      labelNames: ['name'],
    });
  }

  on(name: string): void {
    this.status.set({ name }, 1);
  }

  off(name: string): void {
    this.status.set({ name }, 0);
  }

  slowpathExercised(name: string): void {
    this.slowpath.inc({ name });
  }
}
