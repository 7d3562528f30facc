// Test support for the deployment controller: a fake cluster with informers and a fake clock, a
// controller whose syncs a test runs one at a time, and a stand-in for the ReplicaSet controller
// and node agents that moves ReplicaSet status (Pods created, then ready). Imported by tests only.

import { FakeEventRecorder } from '../../client/events/index.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeClock } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import {
  type DeploymentAnnotationNames,
  deploymentAnnotationNames,
} from '../../naming/deployment-annotations.ts';
import { namingProfile } from '../../naming/profile.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { PODS } from '../controller-support.ts';
import { MemoryLog } from '../garbage-collector/testing.ts';
import { controllerRefOf } from '../workload/controller-ref.ts';
import { DeploymentController } from './controller.ts';
import { equalIgnoreHash } from './hash.ts';
import { byCreation } from './replicasets.ts';
import { DEPLOYMENTS, type Deployment, REPLICA_SETS, type ReplicaSet, rsReplicas } from './types.ts';

export const NS = 'apps-test';

export function podTemplate(image: string, labels: Record<string, string> = { app: 'web' }) {
  return {
    metadata: { labels },
    spec: { containers: [{ name: 'c', image }], restartPolicy: 'Always' },
  };
}

export function deploymentObject(
  name: string,
  spec: Partial<NonNullable<Deployment['spec']>> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: podTemplate('img:1'),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      ...spec,
    },
  };
}

export class DeploymentFixture {
  readonly clock = new FakeClock();
  readonly cluster = new FakeCluster({ clock: this.clock });
  readonly informers = new SharedInformerFactory(this.cluster);
  readonly recorder = new FakeEventRecorder();
  readonly log = new MemoryLog();
  readonly names: DeploymentAnnotationNames = deploymentAnnotationNames(namingProfile('spec'));
  readonly controller: DeploymentController;
  readonly deployments = this.cluster.resource<Deployment>(DEPLOYMENTS, NS);
  readonly replicaSets = this.cluster.resource<ReplicaSet>(REPLICA_SETS, NS);
  readonly pods = this.cluster.resource(PODS, NS);

  constructor(opts: { terminatingReplicas?: boolean } = {}) {
    this.controller = new DeploymentController({
      client: this.cluster,
      deployments: this.informers.forResource<Deployment>(DEPLOYMENTS),
      replicaSets: this.informers.forResource<ReplicaSet>(REPLICA_SETS),
      pods: this.informers.forResource(PODS),
      recorder: this.recorder,
      naming: namingProfile('spec'),
      log: this.log,
      clock: this.clock,
      terminatingReplicas: opts.terminatingReplicas,
    });
  }

  async start(): Promise<void> {
    this.informers.start();
    await this.informers.waitForSync();
  }

  stop(): void {
    this.controller.stop();
    this.informers.stop();
  }

  /** Waits until the informers' caches hold exactly what the fake cluster stores. */
  async settle(): Promise<void> {
    const pairs: [typeof this.deployments, typeof DEPLOYMENTS][] = [
      [this.deployments, DEPLOYMENTS],
      [this.replicaSets as never, REPLICA_SETS],
      [this.pods as never, PODS],
    ];
    await waitUntil(async () => {
      for (const [client, gvr] of pairs) {
        const stored = (await client.list()).items;
        const cached = this.informers.forResource(gvr).lister.list(NS);
        if (stored.length !== cached.length) return false;
        const rv = new Map(cached.map((o) => [o.metadata?.name, o.metadata?.resourceVersion]));
        if (stored.some((o) => rv.get(o.metadata?.name) !== o.metadata?.resourceVersion)) return false;
      }
      return true;
    }, 'informer caches to catch up');
  }

  /** One sync of the Deployment, on caches that are up to date, then caches updated again. */
  async sync(name: string): Promise<void> {
    await this.settle();
    await this.controller.syncDeployment(`${NS}/${name}`);
    await this.settle();
  }

  /** Syncs until a sync fails (a conflict a cache lag caused is retried at once, as the queue would). */
  async syncRetrying(name: string): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.sync(name);
        return;
      } catch (err) {
        if (i >= 3) throw err;
      }
    }
  }

  get(name: string): Promise<Deployment> {
    return this.deployments.get(name);
  }

  /** The ReplicaSets `d` controls, oldest first. */
  async owned(name: string): Promise<ReplicaSet[]> {
    const d = await this.get(name);
    return (await this.replicaSets.list()).items
      .filter((rs) => controllerRefOf(rs)?.uid === d.metadata?.uid)
      .sort(byCreation);
  }

  /**
   * What the ReplicaSet controller and the nodes would report: `created` makes each ReplicaSet's
   * Pods match its spec with the new ones not yet available; `ready` makes them all available.
   */
  async simulate(
    phase: 'created' | 'ready',
    filter: (rs: ReplicaSet) => boolean = () => true,
  ): Promise<void> {
    for (const rs of (await this.replicaSets.list()).items) {
      if (!filter(rs)) continue;
      const want = rsReplicas(rs);
      const available = phase === 'ready' ? want : Math.min(rs.status?.availableReplicas ?? 0, want);
      await this.replicaSets.update(
        {
          ...rs,
          status: {
            ...(rs.status ?? {}),
            replicas: want,
            fullyLabeledReplicas: want,
            readyReplicas: available,
            availableReplicas: available,
            observedGeneration: rs.metadata?.generation ?? 1,
          },
        },
        { subresource: 'status' },
      );
    }
  }

  async setStatus(rs: ReplicaSet, status: NonNullable<ReplicaSet['status']>): Promise<ReplicaSet> {
    const cur = await this.replicaSets.get(String(rs.metadata?.name));
    return this.replicaSets.update(
      { ...cur, status: { ...(cur.status ?? {}), ...status } },
      { subresource: 'status' },
    );
  }

  /** Replaces the Deployment's spec fields (a user's edit). */
  async edit(name: string, spec: Partial<NonNullable<Deployment['spec']>>): Promise<Deployment> {
    const cur = await this.get(name);
    return this.deployments.update({
      ...cur,
      spec: { ...(cur.spec ?? {}), ...spec },
    } as ApiObject as Deployment);
  }

  /**
   * Edits the template (when given) and syncs, with every ReplicaSet's Pods becoming ready after
   * each sync, until the Deployment reports the rollout complete; one more sync follows (the one
   * that trims the history).
   */
  async rollout(name: string, template?: NonNullable<Deployment['spec']>['template']): Promise<void> {
    this.clock.step(60_000);
    if (template !== undefined) await this.edit(name, { template });
    for (let i = 0; i < 30; i++) {
      await this.syncRetrying(name);
      await this.simulate('ready');
      const d = await this.get(name);
      const progressing = d.status?.conditions?.find((c) => c.type === 'Progressing');
      const active = (await this.owned(name)).filter((rs) => rsReplicas(rs) > 0);
      const done =
        active.length === 1 &&
        equalIgnoreHash(active[0].spec?.template, d.spec?.template, this.names.podTemplateHashLabel) &&
        rsReplicas(active[0]) === (d.spec?.replicas ?? 1) &&
        progressing?.reason === 'NewReplicaSetAvailable';
      if (done) {
        await this.syncRetrying(name);
        return;
      }
    }
    throw new Error(`rollout of ${name} did not complete`);
  }

  reasons(): string[] {
    return this.recorder.reasons();
  }

  messages(reason?: string): string[] {
    return this.recorder.events
      .filter((e) => reason === undefined || e.reason === reason)
      .map((e) => e.message);
  }
}
