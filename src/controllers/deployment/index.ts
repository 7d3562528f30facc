// The deployment controller (upstream `deployment-controller`, alias `deployment`): rolls
// Deployments out through ReplicaSets (RollingUpdate and Recreate), keeps their revisions and
// history, pauses, rolls back, and reports progress and availability. Uses client/ only.

import { createEventRecorder } from '../../client/events/index.ts';
import type { ControllerContext, ControllerDescriptor } from '../controller.ts';
import { configSection, intField, namingOf, PODS, runController } from '../controller-support.ts';
import type { DeploymentControllerConfiguration } from '../manager/config/types-controllers.ts';
import { controllerFeatureGates } from '../manager/feature-gates.ts';
import { DeploymentController } from './controller.ts';
import { DEPLOYMENTS, type Deployment, REPLICA_SETS, type ReplicaSet } from './types.ts';

export * from './controller.ts';
export { maxSurge, maxUnavailable, resolveFenceposts } from './fenceposts.ts';
export { computeHash, equalIgnoreHash, safeEncodeString } from './hash.ts';
export { DEPLOYMENTS, REPLICA_SETS } from './types.ts';

export const TERMINATING_REPLICAS_GATE = 'DeploymentReplicaSetTerminatingReplicas';

/** A gate as the manager hands it over; upstream 1.35's default when no manager says. */
function gateOn(ctx: ControllerContext, name: string): boolean {
  return (ctx.featureGate ?? controllerFeatureGates())(name);
}

export const deploymentControllerDescriptor: ControllerDescriptor = {
  name: 'deployment-controller',
  aliases: ['deployment'],
  enabledByDefault: true,
  serviceAccountName: 'deployment-controller',
  async start(ctx) {
    const section = configSection<DeploymentControllerConfiguration>(ctx.config, 'DeploymentController');
    const recorder = createEventRecorder(ctx.client, 'deployment-controller', {
      log: (m) => ctx.log.info(m),
    });
    const controller = new DeploymentController({
      client: ctx.client,
      deployments: ctx.informers.forResource<Deployment>(DEPLOYMENTS),
      replicaSets: ctx.informers.forResource<ReplicaSet>(REPLICA_SETS),
      pods: ctx.informers.forResource(PODS),
      recorder,
      naming: namingOf(ctx),
      log: ctx.log,
      workers: intField(section.ConcurrentDeploymentSyncs, 5),
      terminatingReplicas: gateOn(ctx, TERMINATING_REPLICAS_GATE),
    });
    return runController(
      ctx,
      'deployment-controller',
      (signal) => controller.run(signal),
      () => {
        controller.stop();
        void recorder.stop();
      },
    );
  },
};
