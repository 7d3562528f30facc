// The garbage collector (upstream `garbage-collector-controller`, alias `garbagecollector`): deletes
// objects whose owners are gone and carries out Orphan and Foreground deletion of owners, from a
// graph fed by metadata-only watches of every deletable resource. Uses client/ only.

import { createEventRecorder } from '../../client/events/recorder.ts';
import { componentName } from '../../naming/index.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { configSection, intField, namingOf, runController } from '../controller-support.ts';
import { defaultPlatControllerManagerConfiguration } from '../manager/config/defaults.ts';
import { GarbageCollectorController } from './garbage-collector.ts';
import { discoveryOf, metadataClientOf } from './metadata-client.ts';
import type { IgnoredResource } from './rest-mapper.ts';

export * from './absent-owner-cache.ts';
export * from './attempt-to-delete.ts';
export * from './garbage-collector.ts';
export * from './graph.ts';
export * from './graph-builder.ts';
export * from './metadata-client.ts';
export * from './monitors.ts';
export * from './operations.ts';
export * from './references.ts';
export * from './rest-mapper.ts';

function ignoredResources(v: unknown): IgnoredResource[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object')
    .map((r) => ({ Group: String(r.Group ?? ''), Resource: String(r.Resource ?? '') }));
}

export const GARBAGE_COLLECTOR_CONTROLLER_NAME = 'garbage-collector-controller';

export const garbageCollectorControllerDescriptor: ControllerDescriptor = {
  name: GARBAGE_COLLECTOR_CONTROLLER_NAME,
  aliases: ['garbagecollector'],
  enabledByDefault: true,
  serviceAccountName: 'generic-garbage-collector',
  async start(ctx) {
    const profile = namingOf(ctx);
    const defaults = defaultPlatControllerManagerConfiguration({}, profile).GarbageCollectorController;
    const section = configSection(ctx.config, 'GarbageCollectorController');
    if (section.EnableGarbageCollector === false) {
      ctx.log.info('garbage collector is disabled (EnableGarbageCollector: false)');
      return { stop: async () => {} };
    }
    const recorder = createEventRecorder(ctx.client, GARBAGE_COLLECTOR_CONTROLLER_NAME, {
      log: (m) => ctx.log.error(m),
    });
    const gc = new GarbageCollectorController({
      client: ctx.client,
      metadataClient: metadataClientOf(ctx),
      discovery: discoveryOf(ctx),
      profile,
      ignoredResources: ignoredResources(section.GCIgnoredResources) ?? defaults.GCIgnoredResources,
      workers: intField(section.ConcurrentGCSyncs, defaults.ConcurrentGCSyncs),
      fieldManager: componentName(profile, 'controller-manager'),
      log: ctx.log,
      recorder,
    });
    const running = runController(
      ctx,
      GARBAGE_COLLECTOR_CONTROLLER_NAME,
      (signal) => gc.run(signal),
      () => {
        void gc.shutDown();
        void recorder.stop();
      },
    );
    return {
      check: () => {
        running.check?.();
        gc.check();
      },
      stop: () => running.stop(),
    };
  },
};
