// The Events the simulated scheduler and node agents record, worded as upstream's scheduler and
// node agent word them (1.35), so that `kubectl describe pod` tells a Pod's story: Scheduled or
// FailedScheduling from the scheduler; Pulled, Created and Started per container as a Pod starts and
// Killing per running container as it is deleted, from the node's agent, each about the container's
// field path. Recording never waits: the recorder queues and writes in the background, so none of
// this is on the path that binds Pods or writes their status.

import type { ApiClient } from '../client/api.ts';
import { createEventRecorder, type EventBroadcaster, type EventRecorder } from '../client/events/recorder.ts';
import type { ApiObject } from '../machinery/object.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import type { Container, Pod } from './objects.ts';

/** Informer items may lack kind and apiVersion, which an Event's reference needs. */
function podRef(pod: Pod): ApiObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata };
}

/** The recorder of the scheduler: its source is the scheduler's name (upstream's reportingController). */
export function schedulerRecorder(
  client: ApiClient,
  profile: NamingProfile,
  log?: (m: string) => void,
): EventBroadcaster {
  return createEventRecorder(client, simulatedNodeNames(profile).defaultSchedulerName, { log });
}

/** The recorder of a node's agent: source the agent's component name, host the node. */
export function nodeAgentRecorder(
  client: ApiClient,
  profile: NamingProfile,
  nodeName: string,
  log?: (m: string) => void,
): EventBroadcaster {
  return createEventRecorder(client, profile.nodeAgent, { host: nodeName, log });
}

/** The scheduler bound the Pod to `nodeName`. */
export function recordScheduled(recorder: EventRecorder | undefined, pod: Pod, nodeName: string): void {
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  recorder?.event(podRef(pod), 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${nodeName}`);
}

/** The Pod fits nowhere: the same message its PodScheduled condition carries. */
export function recordFailedScheduling(recorder: EventRecorder | undefined, pod: Pod, message: string): void {
  recorder?.event(podRef(pod), 'Warning', 'FailedScheduling', message);
}

const isSidecar = (c: Container) => c.restartPolicy === 'Always';

/**
 * What a node agent records about one Pod: its containers starting, once per run of the Pod, and
 * stopping, once, when it is deleted while they run. The runtimes the agent keeps per Pod are the
 * keys, so a Pod forgotten by the agent is forgotten here too.
 */
export class PodEvents {
  private readonly started = new WeakSet<object>();
  private readonly stopped = new WeakSet<object>();

  constructor(private readonly recorder: EventRecorder) {}

  /**
   * The Pod's containers are about to be reported started (or, asked to exit, finished). A Pod
   * whose status already shows a start was started by an earlier agent: nothing is recorded again.
   */
  starting(pod: Pod, runtime: object): void {
    if (this.started.has(runtime)) return;
    this.started.add(runtime);
    if (pod.status?.startTime) return;
    const ref = podRef(pod);
    const each = (containers: readonly Container[] | undefined, field: string) => {
      for (const c of containers ?? []) {
        const path = `${field}{${c.name}}`;
        this.recorder.event(
          ref,
          'Normal',
          'Pulled',
          `Container image ${JSON.stringify(c.image ?? '')} already present on machine and can be accessed by the pod`,
          path,
        );
        this.recorder.event(ref, 'Normal', 'Created', 'Container created', path);
        this.recorder.event(ref, 'Normal', 'Started', 'Container started', path);
      }
    };
    each(pod.spec?.initContainers, 'spec.initContainers');
    each(pod.spec?.containers, 'spec.containers');
  }

  /** The deleted Pod's running containers are asked to stop: regular ones, then sidecars. */
  stopping(pod: Pod, runtime: object): void {
    if (this.stopped.has(runtime)) return;
    this.stopped.add(runtime);
    const phase = pod.status?.phase;
    if (phase !== 'Running' && !this.started.has(runtime)) return;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const ref = podRef(pod);
    for (const c of pod.spec?.containers ?? [])
      this.recorder.event(
        ref,
        'Normal',
        'Killing',
        `Stopping container ${c.name}`,
        `spec.containers{${c.name}}`,
      );
    for (const c of [...(pod.spec?.initContainers ?? [])].reverse())
      if (isSidecar(c))
        this.recorder.event(
          ref,
          'Normal',
          'Killing',
          `Stopping container ${c.name}`,
          `spec.initContainers{${c.name}}`,
        );
  }
}
