// The ReplicaSet controller on the client, as upstream's: informers on ReplicaSets and Pods feed a
// rate-limited queue of ReplicaSet keys; a sync claims the active Pods its selector matches (adopting
// orphans, releasing Pods that stopped matching), creates or deletes Pods toward spec.replicas (at
// most 500 per sync, creations in slow-start batches, deletions in upstream's ranking), and writes
// the status through the status subresource. Expectations hold a ReplicaSet back until the informer
// has seen the Pods a sync created or deleted, so a stale cache never makes it do so twice.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import type { EventRecorder } from '../../client/events/recorder.ts';
import { realClock } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import { type LabelMatcher, labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  hasStatusCause,
  isNotFound,
  keyOf,
  messageOf,
  NAMESPACE_TERMINATING_CAUSE,
  PODS,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';
import {
  claimObjects,
  controllerRefOf,
  newControllerRef,
  type OwnerReference,
  recheckOwner,
} from '../workload/controller-ref.ts';
import { UidTrackingExpectations } from '../workload/expectations.ts';
import { podsToDelete } from '../workload/pod-ranking.ts';
import { isPodActive, isPodReady, isPodTerminating, type PodLike } from '../workload/pod-state.ts';
import { slowStartBatch } from '../workload/slow-start.ts';
import { PodControl } from './pod-control.ts';
import { calculateStatus, statusUnchanged } from './status.ts';
import {
  BURST_REPLICAS,
  DEFAULT_WORKERS,
  desiredReplicas,
  minReadySecondsOf,
  REPLICA_SETS,
  type ReplicaSet,
  type ReplicaSetStatus,
  RS_API_VERSION,
  RS_KIND,
  SLOW_START_INITIAL_BATCH,
  TERMINATING_REPLICAS_GATE,
  withKind,
} from './types.ts';

export interface ReplicaSetControllerOptions {
  client: ApiClient;
  replicaSets: SharedInformer<ReplicaSet>;
  pods: SharedInformer<PodLike>;
  recorder: EventRecorder;
  log: ControllerLogger;
  /** ConcurrentRSSyncs. */
  workers?: number;
  clock?: Clock;
  /** Upstream's BurstReplicas (500). */
  burstReplicas?: number;
  /** Feature gates; DeploymentReplicaSetTerminatingReplicas adds status.terminatingReplicas. */
  featureGates?: Readonly<Record<string, boolean>>;
  /** Names the pod-deletion-cost annotation. */
  naming?: NamingProfile;
}

/** How many times a status write is retried after re-reading the ReplicaSet (upstream's statusUpdateRetries). */
const STATUS_UPDATE_RETRIES = 1;

export class ReplicaSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: UidTrackingExpectations;
  private readonly clock: Clock;
  private readonly podControl: PodControl;
  private readonly unwatch: () => void;
  private readonly terminatingGate: boolean;

  constructor(private readonly o: ReplicaSetControllerOptions) {
    this.clock = o.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>({ clock: this.clock, name: 'replicaset' });
    this.expectations = new UidTrackingExpectations({ clock: this.clock });
    this.podControl = new PodControl((ns) => o.client.resource(PODS, ns), o.recorder);
    this.terminatingGate = o.featureGates?.[TERMINATING_REPLICAS_GATE] === true;
    this.unwatch = watchAll([
      [
        o.replicaSets as SharedInformer,
        {
          add: (rs) => this.enqueue(rs),
          update: (old, cur) => this.updateRS(old, cur),
          delete: (rs) => {
            this.expectations.delete(keyOf(rs));
            this.enqueue(rs);
          },
        },
      ],
      [
        o.pods as SharedInformer,
        {
          add: (pod) => this.addPod(pod),
          update: (old, cur) => this.updatePod(old, cur),
          delete: (pod) => this.deletePod(pod),
        },
      ],
    ]);
  }

  // ----- event handlers

  private enqueue(rs: ApiObject): void {
    this.queue.add(keyOf(rs));
  }

  private updateRS(old: ApiObject, cur: ApiObject): void {
    // A ReplicaSet deleted and recreated under its name between two events: the old one's
    // expectations must not hold the new one back.
    if (old.metadata?.uid !== cur.metadata?.uid) this.expectations.delete(keyOf(old));
    this.enqueue(cur);
  }

  /** The ReplicaSet a controller reference names, if it exists with that uid. */
  private resolve(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== RS_KIND) return undefined;
    const rs = this.o.replicaSets.lister.get(`${namespace}/${ref.name}`);
    return rs !== undefined && rs.metadata?.uid === ref.uid ? rs : undefined;
  }

  /** ReplicaSets of the Pod's namespace whose (non-empty) selector matches it. */
  private replicaSetsSelecting(pod: PodLike): ReplicaSet[] {
    const labels = pod.metadata?.labels;
    if (labels === undefined || Object.keys(labels).length === 0) return [];
    return this.o.replicaSets.lister.list(pod.metadata?.namespace ?? '').filter((rs) => {
      const m = selectorOf(rs);
      return m !== undefined && !m.empty() && m.matches(labels);
    });
  }

  private addPod(pod: PodLike): void {
    // A Pod already being deleted when first seen (after a restart) is no creation to observe.
    if (pod.metadata?.deletionTimestamp) {
      this.deletePod(pod);
      return;
    }
    const ns = pod.metadata?.namespace ?? '';
    const ref = controllerRefOf(pod);
    if (ref !== undefined) {
      const rs = this.resolve(ns, ref);
      if (rs === undefined) return;
      this.expectations.creationObserved(keyOf(rs));
      this.enqueue(rs);
      return;
    }
    // An orphan: whoever could adopt it syncs.
    for (const rs of this.replicaSetsSelecting(pod)) this.enqueue(rs);
  }

  private updatePod(old: PodLike, cur: PodLike): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const labelsChanged = !sameLabels(old.metadata?.labels, cur.metadata?.labels);
    if (cur.metadata?.deletionTimestamp) {
      // Graceful deletion shows as an update: count the deletion now, not when the Pod is gone.
      this.deletePod(cur);
      if (labelsChanged) this.deletePod(old);
      return;
    }
    const ns = cur.metadata?.namespace ?? '';
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    const refChanged = !sameRef(curRef, oldRef);
    if (refChanged && oldRef !== undefined) {
      const rs = this.resolve(ns, oldRef);
      if (rs !== undefined) this.enqueue(rs);
    }
    if (curRef !== undefined) {
      const rs = this.resolve(ns, curRef);
      if (rs === undefined) return;
      this.enqueue(rs);
      const minReady = minReadySecondsOf(rs);
      // The Pod becomes available minReadySeconds after it became ready: look again then.
      if (!isPodReady(old) && isPodReady(cur) && minReady > 0)
        this.queue.addAfter(keyOf(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelsChanged || refChanged) for (const rs of this.replicaSetsSelecting(cur)) this.enqueue(rs);
  }

  private deletePod(pod: PodLike): void {
    const ref = controllerRefOf(pod);
    if (ref === undefined) return;
    const rs = this.resolve(pod.metadata?.namespace ?? '', ref);
    if (rs === undefined) return;
    const key = keyOf(rs);
    this.expectations.deletionOfObserved(key, keyOf(pod));
    this.enqueue(rs);
  }

  // ----- sync

  async sync(key: string): Promise<void> {
    const cached = this.o.replicaSets.lister.get(key);
    if (cached === undefined) {
      this.expectations.delete(key);
      return;
    }
    const rs = withKind(cached);
    const needsSync = this.expectations.satisfied(key);
    let selector: LabelMatcher | undefined;
    try {
      selector = labelSelectorAsMatcher(rs.spec?.selector);
    } catch (err) {
      // A selector the server let through but that does not parse: nothing to do until it changes.
      this.o.log.error('invalid ReplicaSet selector', { replicaSet: key, err: messageOf(err) });
      return;
    }
    const ns = rs.metadata?.namespace ?? '';
    const all = this.o.pods.lister.list(ns);
    const owned = (await this.claimPods(rs, selector, all.filter(isPodActive))) as PodLike[];
    const terminating = this.terminatingGate
      ? all.filter(
          (p) =>
            isPodTerminating(p) &&
            controllerRefOf(p)?.uid === rs.metadata?.uid &&
            selector.matches(p.metadata?.labels),
        )
      : undefined;

    let manageError: unknown;
    if (needsSync && !rs.metadata?.deletionTimestamp) {
      try {
        await this.manageReplicas(owned, rs, key);
      } catch (err) {
        manageError = err;
      }
    }
    const status = calculateStatus(rs, {
      active: owned,
      terminating,
      manageError,
      now: this.clock.now(),
    });
    const updated = await this.updateStatus(rs, status);
    const minReady = minReadySecondsOf(updated);
    const want = desiredReplicas(updated);
    // A last look once minReadySeconds have passed, against clock skew between Pods and controller.
    if (
      manageError === undefined &&
      minReady > 0 &&
      (updated.status?.readyReplicas ?? 0) === want &&
      (updated.status?.availableReplicas ?? 0) !== want
    )
      this.queue.addAfter(key, minReady * 1000);
    if (manageError !== undefined) throw manageError;
  }

  private claimPods(rs: ReplicaSet, selector: LabelMatcher, pods: readonly PodLike[]): Promise<ApiObject[]> {
    const ns = rs.metadata?.namespace ?? '';
    const name = String(rs.metadata?.name ?? '');
    return claimObjects(pods, {
      owner: rs,
      apiVersion: RS_API_VERSION,
      kind: RS_KIND,
      matches: (labels) => selector.matches(labels),
      client: this.o.client.resource(PODS, ns),
      canAdopt: recheckOwner(
        () => this.o.client.resource<ReplicaSet>(REPLICA_SETS, ns).get(name),
        rs,
        `${RS_KIND} ${ns}/${name}`,
      ),
    });
  }

  private async manageReplicas(owned: readonly PodLike[], rs: ReplicaSet, key: string): Promise<void> {
    const burst = this.o.burstReplicas ?? BURST_REPLICAS;
    const ns = rs.metadata?.namespace ?? '';
    const diff = owned.length - desiredReplicas(rs);
    if (diff < 0) {
      const n = Math.min(-diff, burst);
      // Expect them all before the first request: the informer may see a Pod before create answers.
      this.expectations.expectCreations(key, n);
      const ref = newControllerRef(rs, RS_API_VERSION, RS_KIND);
      const template = rs.spec?.template ?? {};
      const { successes, error } = await slowStartBatch(n, SLOW_START_INITIAL_BATCH, async () => {
        try {
          await this.podControl.createPod(ns, template, rs, ref);
        } catch (err) {
          // In a namespace being deleted every create fails: nothing to report or retry.
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw err;
        }
      });
      // Creations never attempted, or refused, will never be observed.
      for (let i = 0; i < n - successes; i++) this.expectations.creationObserved(key);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      const n = Math.min(diff, burst);
      const victims = podsToDelete(owned, this.relatedPods(rs), n, {
        now: this.clock.now(),
        naming: this.o.naming,
      });
      this.expectations.expectDeletionsOf(key, victims.map(keyOf));
      const results = await Promise.allSettled(
        victims.map(async (pod) => {
          try {
            await this.podControl.deletePod(ns, String(pod.metadata?.name ?? ''), rs);
          } catch (err) {
            // This deletion will never be observed.
            this.expectations.deletionOfObserved(key, keyOf(pod));
            if (!isNotFound(err)) throw err;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    }
  }

  /**
   * The Pods of this ReplicaSet and of its siblings (ReplicaSets with the same controller, as a
   * Deployment's), which rank Pods by how crowded their node is.
   */
  private relatedPods(rs: ReplicaSet): PodLike[] {
    const ns = rs.metadata?.namespace ?? '';
    const owner = controllerRefOf(rs);
    const uids = new Set<string>([String(rs.metadata?.uid ?? '')]);
    if (owner !== undefined)
      for (const other of this.o.replicaSets.lister.list(ns))
        if (controllerRefOf(other)?.uid === owner.uid) uids.add(String(other.metadata?.uid ?? ''));
    return this.o.pods.lister.list(ns).filter((p) => {
      const ref = controllerRefOf(p);
      return ref !== undefined && uids.has(ref.uid);
    });
  }

  /** Writes the status when it changed, retrying once on a fresh read; answers the ReplicaSet as stored. */
  private async updateStatus(rs: ReplicaSet, status: ReplicaSetStatus): Promise<ReplicaSet> {
    if (statusUnchanged(rs, status)) return rs;
    const next: ReplicaSetStatus = { ...status, observedGeneration: rs.metadata?.generation ?? 0 };
    if (!next.observedGeneration) delete next.observedGeneration;
    const client = this.o.client.resource<ReplicaSet>(REPLICA_SETS, rs.metadata?.namespace);
    let cur = rs;
    for (let i = 0; ; i++) {
      try {
        return await client.update({ ...cur, status: next }, { subresource: 'status' });
      } catch (err) {
        if (i >= STATUS_UPDATE_RETRIES) throw err;
        cur = await client.get(String(rs.metadata?.name ?? ''));
      }
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.replicaSets as SharedInformer, this.o.pods as SharedInformer], signal);
    await runWorkers(this.queue, this.o.workers ?? DEFAULT_WORKERS, (k) => this.sync(k), signal, {
      onError: (k, err) =>
        this.o.log.error('error syncing ReplicaSet', { replicaSet: k, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}

function selectorOf(rs: ReplicaSet): LabelMatcher | undefined {
  try {
    return labelSelectorAsMatcher(rs.spec?.selector);
  } catch {
    return undefined;
  }
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a?.[k] === b?.[k]);
}

function sameRef(a: OwnerReference | undefined, b: OwnerReference | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.uid === b.uid &&
    a.name === b.name &&
    a.kind === b.kind &&
    a.apiVersion === b.apiVersion &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}
