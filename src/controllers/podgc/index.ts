// The pod garbage collector (upstream `pod-garbage-collector-controller`, alias `podgc`): terminated
// Pods beyond PodGCController.TerminatedPodGCThreshold, Pods of nodes that are gone or out of
// service, and unscheduled terminating Pods are force-deleted. Uses client/ only.

import { outOfServiceTaintKey } from '../../naming/node-taints.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { configSection, namingOf, PODS, runController } from '../controller-support.ts';
import { PodGCController } from './pod-gc.ts';

export * from './pod-gc.ts';

/** Upstream's default TerminatedPodGCThreshold. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12500;

/** The threshold from the configuration: a number (0 or less keeps every terminated Pod). */
export function terminatedPodThreshold(config: unknown): number {
  const v = configSection<{ TerminatedPodGCThreshold: number }>(
    config,
    'PodGCController',
  ).TerminatedPodGCThreshold;
  return typeof v === 'number' && Number.isFinite(v) ? v : DEFAULT_TERMINATED_POD_GC_THRESHOLD;
}

export const podGCControllerDescriptor: ControllerDescriptor = {
  name: 'pod-garbage-collector-controller',
  aliases: ['podgc'],
  enabledByDefault: true,
  serviceAccountName: 'pod-garbage-collector',
  async start(ctx) {
    const controller = new PodGCController({
      client: ctx.client,
      pods: ctx.informers.forResource(PODS),
      nodes: ctx.informers.forResource({ group: '', version: 'v1', resource: 'nodes' }),
      terminatedPodThreshold: terminatedPodThreshold(ctx.config),
      outOfServiceTaintKey: outOfServiceTaintKey(namingOf(ctx)),
      log: ctx.log,
    });
    return runController(
      ctx,
      'pod-garbage-collector',
      (signal) => controller.run(signal),
      () => controller.stop(),
    );
  },
};
