// The root CA certificate publisher (upstream `root-ca-certificate-publisher-controller`, alias
// `root-ca-cert-publisher`): the CA bundle ConfigMap in every namespace, restored when edited or
// deleted. Uses client/ only.

import { controllerObjectNames } from '../../naming/controller-objects.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { CONFIG_MAPS, NAMESPACES, namingOf, runController } from '../controller-support.ts';
import { RootCACertPublisher } from './publisher.ts';
import { rootCAOf } from './root-ca.ts';

export * from './publisher.ts';
export * from './root-ca.ts';

export const rootCACertPublisherDescriptor: ControllerDescriptor = {
  name: 'root-ca-certificate-publisher-controller',
  aliases: ['root-ca-cert-publisher'],
  enabledByDefault: true,
  serviceAccountName: 'root-ca-cert-publisher',
  async start(ctx) {
    const publisher = new RootCACertPublisher({
      client: ctx.client,
      namespaces: ctx.informers.forResource(NAMESPACES),
      configMaps: ctx.informers.forResource(CONFIG_MAPS),
      rootCA: rootCAOf(ctx),
      names: controllerObjectNames(namingOf(ctx)),
      log: ctx.log,
    });
    return runController(
      ctx,
      'root-ca-cert-publisher',
      (signal) => publisher.run(signal),
      () => publisher.stop(),
    );
  },
};
