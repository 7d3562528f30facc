// The table of Pods as upstream's printer writes it (`kubectl get pods`, `-o wide`): how many
// containers are ready, a one-word status summarizing phase, init containers, waiting and
// terminated containers and deletion, and restarts with the time since the last one.

import type { TableColumn } from '../../../codec/table.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import { AGE_COLUMN, humanDuration, NAME_COLUMN } from '../../printing.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const objs = (v: unknown): Obj[] => arr(v).filter(isObj);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

interface Summary {
  ready: string;
  status: string;
  restarts: string;
}

/** A sidecar: an init container that keeps running beside the regular ones. */
const isSidecar = (c: Obj | undefined): boolean => c?.restartPolicy === 'Always';

const terminatedOf = (state: unknown): Obj | undefined =>
  isObj(state) && isObj(state.terminated) ? state.terminated : undefined;
const waitingOf = (state: unknown): Obj | undefined =>
  isObj(state) && isObj(state.waiting) ? state.waiting : undefined;

/** When the container last finished a run, in ms (0 when never). */
const lastFinished = (status: Obj): number => {
  const t = terminatedOf(status.lastState);
  const at = t === undefined ? Number.NaN : Date.parse(str(t.finishedAt));
  return Number.isNaN(at) ? 0 : at;
};

const conditionTrue = (status: Obj, type: string): boolean =>
  objs(status.conditions).some((c) => c.type === type && c.status === 'True');

const exitReason = (t: Obj, prefix: string): string =>
  num(t.signal) !== 0 ? `${prefix}Signal:${num(t.signal)}` : `${prefix}ExitCode:${num(t.exitCode)}`;

function summarize(pod: ApiObject, now: number): Summary {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const status = isObj(pod.status) ? pod.status : {};
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of objs(status.conditions)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initSpecs = new Map(objs(spec.initContainers).map((c) => [str(c.name), c]));
  const total = objs(spec.containers).length + [...initSpecs.values()].filter(isSidecar).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  let initializing = false;
  const inits = objs(status.initContainerStatuses);
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    const sidecar = isSidecar(initSpecs.get(str(c.name)));
    restarts += num(c.restartCount);
    lastRestart = Math.max(lastRestart, lastFinished(c));
    if (sidecar) {
      sidecarRestarts += num(c.restartCount);
      lastSidecarRestart = Math.max(lastSidecarRestart, lastFinished(c));
    }
    const terminated = terminatedOf(c.state);
    const waiting = waitingOf(c.state);
    if (terminated !== undefined && num(terminated.exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated !== undefined) {
      reason =
        str(terminated.reason) === '' ? exitReason(terminated, 'Init:') : `Init:${str(terminated.reason)}`;
    } else if (waiting !== undefined && str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.size}`;
    }
    initializing = true;
    break;
  }
  if (!initializing || conditionTrue(status, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const regular = objs(status.containerStatuses);
    for (let i = regular.length - 1; i >= 0; i--) {
      const c = regular[i];
      restarts += num(c.restartCount);
      lastRestart = Math.max(lastRestart, lastFinished(c));
      const waiting = waitingOf(c.state);
      const terminated = terminatedOf(c.state);
      if (waiting !== undefined && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (terminated !== undefined && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (terminated !== undefined) reason = exitReason(terminated, '');
      else if (c.ready === true && isObj(isObj(c.state) ? c.state.running : undefined)) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning)
      reason = conditionTrue(status, 'Ready') ? 'Running' : 'NotReady';
  }
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (pod.metadata?.deletionTimestamp !== undefined && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp !== undefined && !terminal) reason = 'Terminating';
  const restartsCell =
    restarts !== 0 && lastRestart !== 0
      ? `${restarts} (${humanDuration(now - lastRestart)} ago)`
      : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsCell };
}

const summaries = new WeakMap<ApiObject, Summary>();
/** The summary of one object, computed once for the three columns that show it. */
function summaryOf(pod: ApiObject): Summary {
  let s = summaries.get(pod);
  if (s === undefined) {
    s = summarize(pod, Date.now());
    summaries.set(pod, s);
  }
  return s;
}

const orNone = (s: string): string => (s === '' ? '<none>' : s);

export const podColumns: TableColumn[] = [
  NAME_COLUMN,
  {
    name: 'Ready',
    type: 'string',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    cell: (pod) => summaryOf(pod).ready,
  },
  {
    name: 'Status',
    type: 'string',
    description: 'The aggregate status of the containers in this pod.',
    cell: (pod) => summaryOf(pod).status,
  },
  {
    name: 'Restarts',
    type: 'string',
    description:
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    cell: (pod) => summaryOf(pod).restarts,
  },
  AGE_COLUMN,
  {
    name: 'IP',
    type: 'string',
    priority: 1,
    description:
      'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
    cell: (pod) => {
      const status = isObj(pod.status) ? pod.status : {};
      return orNone(str(objs(status.podIPs)[0]?.ip));
    },
  },
  {
    name: 'Node',
    type: 'string',
    priority: 1,
    description:
      'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.',
    cell: (pod) => orNone(str(isObj(pod.spec) ? pod.spec.nodeName : '')),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    priority: 1,
    description:
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
    cell: (pod) => orNone(str(isObj(pod.status) ? pod.status.nominatedNodeName : '')),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    priority: 1,
    description:
      'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True"',
    cell: (pod) => {
      const gates = objs(isObj(pod.spec) ? pod.spec.readinessGates : undefined);
      if (gates.length === 0) return '<none>';
      const conditions = objs(isObj(pod.status) ? pod.status.conditions : undefined);
      const met = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True');
      return `${met.length}/${gates.length}`;
    },
  },
];
