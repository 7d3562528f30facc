// The namespace controller (upstream `namespace-controller`, alias `namespace`): empties a
// terminating namespace of every namespaced resource discovery reports, keeps its deletion
// conditions, then releases its finalizer. Uses client/ only.

import { componentName, namespaceFinalizer } from '../../naming/index.ts';
import type { ControllerDescriptor } from '../controller.ts';
import {
  configSection,
  durationField,
  intField,
  NAMESPACES,
  namingOf,
  runController,
} from '../controller-support.ts';
import { discoveryOf, metadataClientOf } from '../garbage-collector/metadata-client.ts';
import { NamespaceController } from './namespace-controller.ts';
import { NamespacedResourcesDeleter } from './namespaced-resources-deleter.ts';

export * from './conditions.ts';
export * from './namespace-controller.ts';
export * from './namespaced-resources-deleter.ts';

/** Upstream's defaults: NamespaceSyncPeriod 5m, ConcurrentNamespaceSyncs 10. */
const DEFAULT_SYNC_PERIOD_MS = 5 * 60_000;
const DEFAULT_WORKERS = 10;

export const namespaceControllerDescriptor: ControllerDescriptor = {
  name: 'namespace-controller',
  aliases: ['namespace'],
  enabledByDefault: true,
  serviceAccountName: 'namespace-controller',
  async start(ctx) {
    const profile = namingOf(ctx);
    const section = configSection(ctx.config, 'NamespaceController');
    const deleter = new NamespacedResourcesDeleter({
      client: ctx.client,
      metadataClient: metadataClientOf(ctx),
      discovery: discoveryOf(ctx),
      finalizer: namespaceFinalizer(profile),
      fieldManager: componentName(profile, 'controller-manager'),
    });
    const controller = new NamespaceController({
      namespaces: ctx.informers.forResource(NAMESPACES),
      deleter,
      workers: intField(section.ConcurrentNamespaceSyncs, DEFAULT_WORKERS),
      resyncPeriodMs: durationField(section.NamespaceSyncPeriod, DEFAULT_SYNC_PERIOD_MS),
      log: ctx.log,
    });
    return runController(
      ctx,
      'namespace-controller',
      (signal) => controller.run(signal),
      () => controller.stop(),
    );
  },
};
