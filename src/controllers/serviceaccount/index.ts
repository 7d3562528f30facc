// The serviceaccount controller (upstream `serviceaccount-controller`, alias `serviceaccount`): a
// `default` ServiceAccount in every active namespace, recreated when deleted. Uses client/ only.

import type { ControllerDescriptor } from '../controller.ts';
import { NAMESPACES, runController, SERVICE_ACCOUNTS } from '../controller-support.ts';
import { ServiceAccountsController } from './serviceaccounts-controller.ts';

export * from './serviceaccounts-controller.ts';

export const serviceAccountControllerDescriptor: ControllerDescriptor = {
  name: 'serviceaccount-controller',
  aliases: ['serviceaccount'],
  enabledByDefault: true,
  serviceAccountName: 'service-account-controller',
  async start(ctx) {
    const controller = new ServiceAccountsController({
      client: ctx.client,
      namespaces: ctx.informers.forResource(NAMESPACES),
      serviceAccounts: ctx.informers.forResource(SERVICE_ACCOUNTS),
      log: ctx.log,
    });
    return runController(
      ctx,
      'serviceaccount-controller',
      (signal) => controller.run(signal),
      () => controller.stop(),
    );
  },
};
