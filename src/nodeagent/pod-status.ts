// The status a simulated agent reports for one of its Pods, computed from the Pod, what the agent
// remembers of it (when its containers started, its address) and the time: Running with every
// container running (init containers completed first, sidecars running), a container with a
// readiness probe ready once its initialDelaySeconds have passed, and the Pod conditions derived as
// upstream's agent derives them (readiness gates included); or terminal, with every container
// terminated by the exit code asked for. Transition times are kept while a condition holds.

import { createHash } from 'node:crypto';
import {
  type Condition,
  type Container,
  type ContainerStatus,
  type Pod,
  type PodStatus,
  rfc3339,
} from './objects.ts';

/** What the agent keeps of a Pod it runs. */
export interface PodRuntime {
  uid: string;
  /** When its sandbox and containers started (ms). */
  startedAt: number;
  podIP: string;
  hostIP: string;
}

const KUBELET_CONDITIONS = new Set([
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
]);

function sha(input: string): string {
  return createHash('sha256').update(input).digest('hex');
}

/** An image reference as a container runtime reports it: `nginx` is `docker.io/library/nginx:latest`. */
export function normalizeImage(image: string): string {
  let ref = image;
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasDomain) ref = `docker.io/${slash < 0 ? 'library/' : ''}${ref}`;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  if (!ref.includes('@') && !last.includes(':')) ref += ':latest';
  return ref;
}

function imageID(image: string): string {
  const ref = normalizeImage(image);
  const at = ref.indexOf('@');
  if (at >= 0) return ref;
  const last = ref.lastIndexOf(':');
  const repo = last > ref.lastIndexOf('/') ? ref.slice(0, last) : ref;
  return `${repo}@sha256:${sha(`image/${ref}`)}`;
}

function containerID(rt: PodRuntime, name: string): string {
  return `simulated://${sha(`container/${rt.uid}/${name}`)}`;
}

const delayMs = (probe: { initialDelaySeconds?: number } | undefined) =>
  probe === undefined ? 0 : Math.max(0, probe.initialDelaySeconds ?? 0) * 1000;

/** When a running container counts as started and as ready. */
function readyTimes(c: Container, rt: PodRuntime): { startedAt: number; readyAt: number } {
  const startedAt = rt.startedAt + delayMs(c.startupProbe);
  return { startedAt, readyAt: startedAt + delayMs(c.readinessProbe) };
}

function baseStatus(c: Container, rt: PodRuntime): Omit<ContainerStatus, 'state' | 'ready' | 'started'> {
  const image = normalizeImage(c.image ?? '');
  return {
    name: c.name,
    image,
    imageID: imageID(c.image ?? ''),
    containerID: containerID(rt, c.name),
    restartCount: 0,
    lastState: {},
  };
}

function runningContainer(c: Container, rt: PodRuntime, now: number): ContainerStatus {
  const t = readyTimes(c, rt);
  return {
    ...baseStatus(c, rt),
    state: { running: { startedAt: rfc3339(rt.startedAt) } },
    ready: now >= t.readyAt,
    started: now >= t.startedAt,
  };
}

function terminatedContainer(
  c: Container,
  rt: PodRuntime,
  exitCode: number,
  finishedAt: number,
): ContainerStatus {
  return {
    ...baseStatus(c, rt),
    state: {
      terminated: {
        exitCode,
        reason: exitCode === 0 ? 'Completed' : 'Error',
        startedAt: rfc3339(rt.startedAt),
        finishedAt: rfc3339(finishedAt),
        containerID: containerID(rt, c.name),
      },
    },
    ready: false,
    started: false,
  };
}

const isSidecar = (c: Container) => c.restartPolicy === 'Always';
const byName = (a: ContainerStatus, b: ContainerStatus) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The earliest time after `now` at which a running Pod's status would change, if any. */
export function nextChangeAt(pod: Pod, rt: PodRuntime, now: number): number | undefined {
  let next: number | undefined;
  const all = [...(pod.spec?.initContainers ?? []).filter(isSidecar), ...(pod.spec?.containers ?? [])];
  for (const c of all) {
    const t = readyTimes(c, rt);
    for (const at of [t.startedAt, t.readyAt]) if (at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

function condition(pod: Pod, type: string, status: boolean, reason?: string, message?: string): Condition {
  const c: Condition = { type, status: status ? 'True' : 'False' };
  const gen = pod.metadata?.generation;
  if (gen !== undefined) c.observedGeneration = gen;
  if (reason !== undefined) c.reason = reason;
  if (message !== undefined) c.message = message;
  return c;
}

/** Ready as upstream derives it: containers ready, then every readiness gate's condition True. */
function readyCondition(pod: Pod, containersReady: Condition): Condition {
  if (containersReady.status !== 'True')
    return condition(pod, 'Ready', false, containersReady.reason, containersReady.message);
  const unready: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = (pod.status?.conditions ?? []).find((x) => x.type === gate.conditionType);
    if (c === undefined)
      unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (unready.length > 0) return condition(pod, 'Ready', false, 'ReadinessGatesNotReady', unready.join(', '));
  return condition(pod, 'Ready', true);
}

/**
 * The Pod's conditions: those others own first (readiness gates, disruption), then the agent's
 * five, each keeping its transition time (and probe time) while its status is unchanged.
 */
function withConditions(pod: Pod, own: Condition[], now: number): Condition[] {
  const before = new Map((pod.status?.conditions ?? []).map((c) => [c.type, c]));
  const others = (pod.status?.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type));
  const scheduled = before.get('PodScheduled');
  const mine = [...own, scheduled?.status === 'True' ? scheduled : condition(pod, 'PodScheduled', true)];
  // lastProbeTime is left out: nothing probes, and a null inside a merge patch is easily misread.
  const strip = ({ lastProbeTime: _p, ...c }: Condition): Condition => c;
  return [
    ...others.map(strip),
    ...mine.map((c) => {
      const old = before.get(c.type);
      const keep = old !== undefined && old.status === c.status && old.lastTransitionTime;
      return strip({ ...c, lastTransitionTime: keep ? (old.lastTransitionTime as string) : rfc3339(now) });
    }),
  ];
}

function addresses(pod: Pod, rt: PodRuntime): Partial<PodStatus> {
  const podIP = pod.spec?.hostNetwork ? rt.hostIP : rt.podIP;
  return { hostIP: rt.hostIP, hostIPs: [{ ip: rt.hostIP }], podIP, podIPs: [{ ip: podIP }] };
}

function observed(pod: Pod): Partial<PodStatus> {
  const gen = pod.metadata?.generation;
  return gen === undefined ? {} : { observedGeneration: gen };
}

/** The status of a Pod whose containers all run (init containers done, sidecars running). */
export function runningStatus(pod: Pod, rt: PodRuntime, now: number): PodStatus {
  const init = (pod.spec?.initContainers ?? []).map((c) =>
    isSidecar(c)
      ? runningContainer(c, rt, now)
      : { ...terminatedContainer(c, rt, 0, rt.startedAt), ready: true },
  );
  const containers = (pod.spec?.containers ?? []).map((c) => runningContainer(c, rt, now)).sort(byName);
  const unready = [
    ...init.filter((_s, i) => isSidecar(pod.spec?.initContainers?.[i] as Container)),
    ...containers,
  ]
    .filter((s) => !s.ready)
    .map((s) => s.name);
  const containersReady =
    unready.length > 0
      ? condition(
          pod,
          'ContainersReady',
          false,
          'ContainersNotReady',
          `containers with unready status: [${unready.join(' ')}]`,
        )
      : condition(pod, 'ContainersReady', true);
  const own = [
    condition(pod, 'PodReadyToStartContainers', true),
    condition(pod, 'Initialized', true),
    readyCondition(pod, containersReady),
    containersReady,
  ];
  return assembled(pod, rt, 'Running', own, now, init, containers);
}

/**
 * The status of a Pod whose containers have all exited with `exitCode` at `now`: Succeeded for 0,
 * Failed otherwise, its sandbox gone.
 */
export function terminalStatus(pod: Pod, rt: PodRuntime, exitCode: number, now: number): PodStatus {
  const phase = exitCode === 0 ? 'Succeeded' : 'Failed';
  const reason = exitCode === 0 ? 'PodCompleted' : 'PodFailed';
  const init = (pod.spec?.initContainers ?? []).map((c) =>
    isSidecar(c)
      ? terminatedContainer(c, rt, 0, now)
      : { ...terminatedContainer(c, rt, 0, rt.startedAt), ready: true },
  );
  const containers = (pod.spec?.containers ?? [])
    .map((c) => terminatedContainer(c, rt, exitCode, now))
    .sort(byName);
  const own = [
    condition(pod, 'PodReadyToStartContainers', false),
    exitCode === 0
      ? condition(pod, 'Initialized', true, 'PodCompleted')
      : condition(pod, 'Initialized', true),
    condition(pod, 'Ready', false, reason),
    condition(pod, 'ContainersReady', false, reason),
  ];
  return assembled(pod, rt, phase, own, now, init, containers);
}

/** A status from its parts: the phase, the agent's own conditions merged into the Pod's, the containers. */
function assembled(
  pod: Pod,
  rt: PodRuntime,
  phase: string,
  own: Parameters<typeof withConditions>[1],
  now: number,
  init: PodStatus['initContainerStatuses'],
  containers: PodStatus['containerStatuses'],
): PodStatus {
  const status: PodStatus = {
    ...observed(pod),
    phase,
    conditions: withConditions(pod, own, now),
    ...addresses(pod, rt),
    startTime: rfc3339(rt.startedAt),
  };
  if (init !== undefined && init.length > 0) status.initContainerStatuses = init;
  status.containerStatuses = containers;
  return status;
}

export const isTerminal = (pod: Pod): boolean =>
  pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
