// The deployment controller (upstream's deployment_controller.go): Deployments, their ReplicaSets
// and Pods are watched; a change queues the owning (or, for an orphan, every matching) Deployment;
// `ConcurrentDeploymentSyncs` workers sync one Deployment at a time each: claim its ReplicaSets,
// then pause bookkeeping, a rollback request, a resize, or a step of its strategy.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import type { EventRecorder } from '../../client/events/index.ts';
import { realClock } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import { type LabelMatcher, labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { deploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  hasStatusCause,
  keyOf,
  messageOf,
  NAMESPACE_TERMINATING_CAUSE,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';
import {
  claimObjects,
  controllerRefOf,
  type OwnerReference,
  recheckOwner,
} from '../workload/controller-ref.ts';
import type { SyncContext } from './context.ts';
import { type PodMap, rolloutRecreate } from './recreate.ts';
import { rollback, rollbackTo } from './rollback.ts';
import { rolloutRolling } from './rolling.ts';
import { checkPausedConditions, isScalingEvent, sync, syncStatusOnly } from './sync.ts';
import {
  DEPLOYMENTS,
  type Deployment,
  RECREATE,
  REPLICA_SETS,
  type ReplicaSet,
  ROLLING_UPDATE,
  strategyType,
  uidOf,
} from './types.ts';
import { updateDeploymentStatus } from './writes.ts';

/** Upstream's maxRetries: a Deployment failing this often is dropped until its next change. */
export const MAX_RETRIES = 15;

export interface DeploymentControllerOptions {
  client: ApiClient;
  deployments: SharedInformer<Deployment>;
  replicaSets: SharedInformer<ReplicaSet>;
  pods: SharedInformer;
  recorder: EventRecorder;
  naming: NamingProfile;
  log: ControllerLogger;
  /** ConcurrentDeploymentSyncs; 5 when absent. */
  workers?: number;
  /** Feature gate DeploymentReplicaSetTerminatingReplicas; off when absent. */
  terminatingReplicas?: boolean;
  clock?: Clock;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class DeploymentController {
  readonly queue: RateLimitingQueue<string>;
  readonly ctx: SyncContext;
  private readonly unwatch: () => void;

  constructor(private readonly o: DeploymentControllerOptions) {
    const clock = o.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>({ clock, name: 'deployment' });
    this.ctx = {
      client: o.client,
      recorder: o.recorder,
      names: deploymentAnnotationNames(o.naming),
      clock,
      terminatingReplicas: o.terminatingReplicas ?? false,
      replicaSets: o.replicaSets.lister,
      log: o.log,
      enqueueAfter: (d, ms) => this.queue.addAfter(keyOf(d), ms),
      enqueueRateLimited: (d) => this.queue.addRateLimited(keyOf(d)),
    };
    const enqueue = (d: Deployment) => this.queue.add(keyOf(d));
    this.unwatch = watchAll([
      [o.deployments as SharedInformer, { add: enqueue, update: (_o, d) => enqueue(d), delete: enqueue }],
      [
        o.replicaSets as SharedInformer,
        {
          add: (rs) => this.addReplicaSet(rs),
          update: (old, cur) => this.updateReplicaSet(old, cur),
          delete: (rs) => this.deleteReplicaSet(rs),
        },
      ],
      [o.pods, { delete: (pod) => this.deletePod(pod) }],
    ]);
  }

  // ----- event handlers

  private enqueue(d: Deployment | undefined): void {
    if (d !== undefined) this.queue.add(keyOf(d));
  }

  /** The Deployment a controller reference names, if it still is that one. */
  private resolveControllerRef(namespace: string, ref: OwnerReference): Deployment | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = this.o.deployments.lister.get(`${namespace}/${ref.name}`);
    return d !== undefined && uidOf(d) === ref.uid ? d : undefined;
  }

  /** Deployments whose (non-empty) selector matches an orphan ReplicaSet's labels. */
  private deploymentsForReplicaSet(rs: ReplicaSet): Deployment[] {
    const labels = rs.metadata?.labels;
    if (labels === undefined || Object.keys(labels).length === 0) return [];
    const out: Deployment[] = [];
    for (const d of this.o.deployments.lister.list(String(rs.metadata?.namespace ?? ''))) {
      let sel: LabelMatcher;
      try {
        sel = labelSelectorAsMatcher(d.spec?.selector);
      } catch {
        continue;
      }
      if (sel.empty() || !sel.matches(labels)) continue;
      out.push(d);
    }
    if (out.length > 1)
      this.o.log.info('more than one deployment is selecting replica set', {
        replicaSet: keyOf(rs),
        deployments: out.map(keyOf),
      });
    return out;
  }

  private addReplicaSet(rs: ReplicaSet): void {
    if (rs.metadata?.deletionTimestamp) {
      this.deleteReplicaSet(rs);
      return;
    }
    const ns = String(rs.metadata?.namespace ?? '');
    const ref = controllerRefOf(rs);
    if (ref !== undefined) {
      this.enqueue(this.resolveControllerRef(ns, ref));
      return;
    }
    for (const d of this.deploymentsForReplicaSet(rs)) this.enqueue(d);
  }

  private updateReplicaSet(old: ReplicaSet, cur: ReplicaSet): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const ns = String(cur.metadata?.namespace ?? '');
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    const refChanged = !sameJson(curRef, oldRef);
    if (refChanged && oldRef !== undefined) this.enqueue(this.resolveControllerRef(ns, oldRef));
    if (curRef !== undefined) {
      this.enqueue(this.resolveControllerRef(ns, curRef));
      return;
    }
    if (refChanged || !sameJson(cur.metadata?.labels, old.metadata?.labels))
      for (const d of this.deploymentsForReplicaSet(cur)) this.enqueue(d);
  }

  private deleteReplicaSet(rs: ReplicaSet): void {
    const ref = controllerRefOf(rs);
    if (ref !== undefined) this.enqueue(this.resolveControllerRef(String(rs.metadata?.namespace ?? ''), ref));
  }

  /** A Recreate Deployment waits for its last old Pod to go: that deletion queues it. */
  private deletePod(pod: ApiObject): void {
    const ns = String(pod.metadata?.namespace ?? '');
    const podRef = controllerRefOf(pod);
    if (podRef?.kind !== 'ReplicaSet') return;
    const rs = this.o.replicaSets.lister.get(`${ns}/${podRef.name}`);
    if (rs === undefined || uidOf(rs) !== podRef.uid) return;
    const rsRef = controllerRefOf(rs);
    const d = rsRef === undefined ? undefined : this.resolveControllerRef(ns, rsRef);
    if (d === undefined || strategyType(d) !== RECREATE) return;
    let pods = 0;
    for (const list of this.podMapFor(d, this.ownedReplicaSets(d)).values()) pods += list.length;
    if (pods === 0) this.enqueue(d);
  }

  // ----- reading what a Deployment has

  /** ReplicaSets in the cache whose controller reference is `d`. */
  private ownedReplicaSets(d: Deployment): ReplicaSet[] {
    return this.o.replicaSets.lister
      .list(String(d.metadata?.namespace ?? ''))
      .filter((rs) => controllerRefOf(rs)?.uid === uidOf(d));
  }

  /** Adopts matching orphans, releases owned ReplicaSets that stopped matching; the owned ones. */
  private async claimReplicaSets(d: Deployment, selector: LabelMatcher): Promise<ReplicaSet[]> {
    const ns = String(d.metadata?.namespace ?? '');
    const name = String(d.metadata?.name ?? '');
    const deployments = this.o.client.resource<Deployment>(DEPLOYMENTS, ns);
    const claimed = await claimObjects(this.o.replicaSets.lister.list(ns), {
      owner: d,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      matches: (labels) => selector.matches(labels),
      client: this.o.client.resource(REPLICA_SETS, ns),
      canAdopt: recheckOwner(() => deployments.get(name), d, `Deployment ${ns}/${name}`),
    });
    return claimed as ReplicaSet[];
  }

  /** The Deployment's Pods by the uid of the ReplicaSet controlling them. */
  podMapFor(d: Deployment, rsList: readonly ReplicaSet[]): PodMap {
    const map: PodMap = new Map();
    for (const rs of rsList) map.set(uidOf(rs), []);
    let selector: LabelMatcher;
    try {
      selector = labelSelectorAsMatcher(d.spec?.selector);
    } catch {
      return map;
    }
    for (const pod of this.o.pods.lister.list(String(d.metadata?.namespace ?? ''))) {
      if (!selector.matches(pod.metadata?.labels)) continue;
      const ref = controllerRefOf(pod);
      const list = ref === undefined ? undefined : map.get(ref.uid);
      list?.push(pod as never);
    }
    return map;
  }

  // ----- the sync

  async syncDeployment(key: string): Promise<void> {
    const cached = this.o.deployments.lister.get(key);
    if (cached === undefined) return;
    const d = structuredClone(cached) as Deployment;
    const ctx = this.ctx;
    const sel = d.spec?.selector;
    if (sel !== undefined && sel !== null && sameJson(sel, {})) {
      ctx.recorder.event(
        d,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        d.status = { ...(d.status ?? {}), observedGeneration: d.metadata?.generation };
        await updateDeploymentStatus(ctx, d);
      }
      return;
    }
    let selector: LabelMatcher;
    try {
      selector = labelSelectorAsMatcher(sel);
    } catch (err) {
      throw new Error(`deployment ${key} has invalid label selector: ${messageOf(err)}`);
    }
    const rsList = await this.claimReplicaSets(d, selector);
    const podMap = this.podMapFor(d, rsList);

    if (d.metadata?.deletionTimestamp) return syncStatusOnly(ctx, d, rsList);
    await checkPausedConditions(ctx, d);
    if (d.spec?.paused) return sync(ctx, d, rsList);
    if (rollbackTo(ctx, d) !== undefined) return rollback(ctx, d, rsList);
    if (await isScalingEvent(ctx, d, rsList)) return sync(ctx, d, rsList);
    switch (strategyType(d)) {
      case RECREATE:
        return rolloutRecreate(ctx, d, rsList, podMap);
      case ROLLING_UPDATE:
        return rolloutRolling(ctx, d, rsList);
    }
    throw new Error(`unexpected deployment strategy type: ${strategyType(d)}`);
  }

  private async syncKey(key: string): Promise<void> {
    try {
      await this.syncDeployment(key);
    } catch (err) {
      // Every create in a namespace being deleted fails alike: nothing to retry.
      if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
      throw err;
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers(
      [this.o.deployments as SharedInformer, this.o.replicaSets as SharedInformer, this.o.pods],
      signal,
    );
    await runWorkers(this.queue, this.o.workers ?? 5, (key) => this.syncKey(key), signal, {
      maxRetries: MAX_RETRIES,
      onError: (key, err, requeues) =>
        this.o.log.error(
          requeues >= MAX_RETRIES ? 'dropping deployment out of the queue' : 'error syncing deployment',
          { deployment: key, err: messageOf(err) },
        ),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
