// The clusterrole-aggregation controller (upstream `clusterrole-aggregation-controller`, alias
// `clusterrole-aggregation`): aggregated ClusterRoles (admin, edit, view and any with an
// aggregationRule) hold the union of the rules of the ClusterRoles their selectors match. Uses
// client/ only.

import { groupName } from '../../naming/index.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { namingOf, runController } from '../controller-support.ts';
import { ClusterRoleAggregationController } from './clusterrole-aggregation-controller.ts';

export * from './clusterrole-aggregation-controller.ts';

export const clusterRoleAggregationControllerDescriptor: ControllerDescriptor = {
  name: 'clusterrole-aggregation-controller',
  aliases: ['clusterrole-aggregation'],
  enabledByDefault: true,
  serviceAccountName: 'clusterrole-aggregation-controller',
  async start(ctx) {
    const resource = {
      group: groupName(namingOf(ctx), 'rbac.authorization'),
      version: 'v1',
      resource: 'clusterroles',
    };
    const controller = new ClusterRoleAggregationController({
      client: ctx.client,
      clusterRoles: ctx.informers.forResource(resource),
      resource,
      log: ctx.log,
    });
    return runController(
      ctx,
      'clusterrole-aggregation-controller',
      (signal) => controller.run(signal),
      () => controller.stop(),
    );
  },
};
