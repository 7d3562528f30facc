// The ReplicaSet controller (upstream `replicaset-controller`, alias `replicaset`): keeps
// spec.replicas Pods of each ReplicaSet's template running, adopting and releasing Pods by selector,
// and reports them in its status. Uses client/ only; workload/ holds what it shares with the
// Deployment controller.

import { createEventRecorder } from '../../client/events/recorder.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { configSection, intField, namingOf, PODS, runController } from '../controller-support.ts';
import type { ReplicaSetControllerConfiguration } from '../manager/config/types-controllers.ts';
import { controllerFeatureGates } from '../manager/feature-gates.ts';
import type { PodLike } from '../workload/pod-state.ts';
import { ReplicaSetController } from './replicaset-controller.ts';
import { DEFAULT_WORKERS, REPLICA_SETS, type ReplicaSet, TERMINATING_REPLICAS_GATE } from './types.ts';

export * from './pod-control.ts';
export * from './replicaset-controller.ts';
export * from './status.ts';
export * from './types.ts';

export const REPLICASET_CONTROLLER_NAME = 'replicaset-controller';

export const replicaSetControllerDescriptor: ControllerDescriptor = {
  name: REPLICASET_CONTROLLER_NAME,
  aliases: ['replicaset'],
  enabledByDefault: true,
  serviceAccountName: 'replicaset-controller',
  async start(ctx) {
    const section = configSection<ReplicaSetControllerConfiguration>(ctx.config, 'ReplicaSetController');
    const recorder = createEventRecorder(ctx.client, REPLICASET_CONTROLLER_NAME, {
      log: (m) => ctx.log.error(m),
    });
    const controller = new ReplicaSetController({
      client: ctx.client,
      replicaSets: ctx.informers.forResource<ReplicaSet>(REPLICA_SETS),
      pods: ctx.informers.forResource<PodLike>(PODS),
      recorder,
      log: ctx.log,
      workers: intField(section.ConcurrentRSSyncs, DEFAULT_WORKERS),
      naming: namingOf(ctx),
      featureGates: {
        [TERMINATING_REPLICAS_GATE]: (ctx.featureGate ?? controllerFeatureGates())(TERMINATING_REPLICAS_GATE),
      },
    });
    return runController(
      ctx,
      REPLICASET_CONTROLLER_NAME,
      (signal) => controller.run(signal),
      () => {
        controller.stop();
        void recorder.stop();
      },
    );
  },
};
