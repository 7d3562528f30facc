// Finding or making the Deployment's new ReplicaSet (upstream's getNewReplicaSet): an existing one
// gets the Deployment's annotations, the next revision and minReadySeconds; a missing one is
// created as `<deployment>-<hash>` with the hash label on its template and selector. A name already
// taken by another template is a hash collision: status.collisionCount goes up and the next sync
// tries another name.

import type { LabelSelector } from '../../machinery/labels.ts';
import {
  hasStatusCause,
  isAlreadyExists,
  messageOf,
  NAMESPACE_TERMINATING_CAUSE,
} from '../controller-support.ts';
import { newControllerRef } from '../workload/controller-ref.ts';
import { controllerRefOf } from '../workload/index.ts';
import { maxRevision, setDeploymentRevision, setNewReplicaSetAnnotations } from './annotations.ts';
import { getCondition, newCondition, PROGRESSING, REASONS, setCondition } from './conditions.ts';
import { nowOf, type SyncContext } from './context.ts';
import { computeHash, equalIgnoreHash } from './hash.ts';
import { newRSNewReplicas } from './proportions.ts';
import { findNewReplicaSet, findOldReplicaSets } from './replicasets.ts';
import { APPS_V1, type Deployment, hasProgressDeadline, type ReplicaSet, uidOf } from './types.ts';
import { createReplicaSet, updateDeploymentStatus, updateReplicaSet } from './writes.ts';

export interface ReplicaSetsOfDeployment {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

/**
 * The new ReplicaSet (created when `create` and missing) and every old one, with the new one's
 * revision raised above the old ones' and the Deployment's revision following it.
 */
export async function getAllReplicaSetsAndSyncRevision(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  create: boolean,
): Promise<ReplicaSetsOfDeployment> {
  const oldRSs = findOldReplicaSets(d, rsList, ctx.names.podTemplateHashLabel);
  const newRS = await getNewReplicaSet(ctx, d, rsList, oldRSs, create);
  return { newRS, oldRSs };
}

function selectorWith(sel: LabelSelector | undefined, key: string, value: string): LabelSelector {
  const out: LabelSelector = structuredClone(sel ?? {});
  out.matchLabels = { ...(out.matchLabels ?? {}), [key]: value };
  return out;
}

async function syncExisting(
  ctx: SyncContext,
  d: Deployment,
  existing: ReplicaSet,
  newRevision: number,
): Promise<ReplicaSet> {
  const copy = structuredClone(existing) as ReplicaSet;
  const annotationsUpdated = setNewReplicaSetAnnotations(d, copy, newRevision, true, ctx.names);
  const minReady = d.spec?.minReadySeconds ?? 0;
  if (annotationsUpdated || (copy.spec?.minReadySeconds ?? 0) !== minReady) {
    copy.spec = { ...(copy.spec ?? {}), minReadySeconds: minReady };
    return updateReplicaSet(ctx, copy);
  }
  // The ReplicaSet's revision is the one to trust: the Deployment's may be stale.
  let needsUpdate = setDeploymentRevision(
    d,
    copy.metadata?.annotations?.[ctx.names.revision] ?? '',
    ctx.names,
  );
  if (hasProgressDeadline(d) && getCondition(d.status, PROGRESSING) === undefined) {
    d.status ??= {};
    const msg = `Found new replica set ${JSON.stringify(String(copy.metadata?.name ?? ''))}`;
    setCondition(d.status, newCondition(PROGRESSING, 'True', REASONS.foundNewRS, msg, nowOf(ctx)));
    needsUpdate = true;
  }
  if (needsUpdate) await updateDeploymentStatus(ctx, d);
  return copy;
}

export async function getNewReplicaSet(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  create: boolean,
): Promise<ReplicaSet | undefined> {
  const names = ctx.names;
  const existing = findNewReplicaSet(d, rsList, names.podTemplateHashLabel);
  const newRevision = maxRevision(oldRSs, names) + 1;
  if (existing !== undefined) return syncExisting(ctx, d, existing, newRevision);
  if (!create) return undefined;

  const template = structuredClone(d.spec?.template ?? {});
  const hash = computeHash(d.spec?.template, d.status?.collisionCount);
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), [names.podTemplateHashLabel]: hash },
  };
  const namespace = d.metadata?.namespace;
  const rsName = `${String(d.metadata?.name ?? '')}-${hash}`;
  const fresh: ReplicaSet = {
    apiVersion: APPS_V1,
    kind: 'ReplicaSet',
    metadata: {
      name: rsName,
      namespace,
      ownerReferences: [newControllerRef(d, APPS_V1, 'Deployment')],
      labels: { ...(template.metadata.labels ?? {}) },
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: selectorWith(d.spec?.selector, names.podTemplateHashLabel, hash),
      template,
    },
  };
  const replicas = newRSNewReplicas(d, [...oldRSs, fresh], fresh);
  fresh.spec = { ...fresh.spec, replicas };
  setNewReplicaSetAnnotations(d, fresh, newRevision, false, names);

  let created: ReplicaSet;
  let alreadyExisted = false;
  try {
    created = await createReplicaSet(ctx, fresh);
  } catch (err) {
    if (isAlreadyExists(err)) {
      // A slow cache, or a hash collision with a ReplicaSet of another template.
      const found = ctx.replicaSets.get(`${namespace}/${rsName}`);
      if (found === undefined) throw err;
      const ref = controllerRefOf(found);
      if (
        ref !== undefined &&
        ref.uid === uidOf(d) &&
        equalIgnoreHash(d.spec?.template, found.spec?.template, names.podTemplateHashLabel)
      ) {
        created = found;
        alreadyExisted = true;
      } else {
        d.status ??= {};
        const before = d.status.collisionCount ?? 0;
        d.status.collisionCount = before + 1;
        try {
          await updateDeploymentStatus(ctx, d);
          ctx.log.info('found a hash collision for deployment - bumping collisionCount to resolve it', {
            deployment: `${namespace}/${String(d.metadata?.name ?? '')}`,
            oldCollisionCount: before,
            newCollisionCount: before + 1,
          });
        } catch {
          // The next sync counts again from what is stored.
        }
        throw err;
      }
    } else if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
      throw err;
    } else {
      const msg = `Failed to create new replica set ${JSON.stringify(rsName)}: ${messageOf(err)}`;
      if (hasProgressDeadline(d)) {
        d.status ??= {};
        setCondition(d.status, newCondition(PROGRESSING, 'False', REASONS.failedRSCreate, msg, nowOf(ctx)));
        try {
          await updateDeploymentStatus(ctx, d);
        } catch {
          // The failure to create is the one worth reporting.
        }
      }
      ctx.recorder.event(d, 'Warning', REASONS.failedRSCreate, msg);
      throw err;
    }
  }
  if (!alreadyExisted && replicas > 0)
    ctx.recorder.event(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${String(created.metadata?.name ?? '')} from 0 to ${replicas}`,
    );
  let needsUpdate = setDeploymentRevision(d, String(newRevision), names);
  if (!alreadyExisted && hasProgressDeadline(d)) {
    d.status ??= {};
    const msg = `Created new replica set ${JSON.stringify(String(created.metadata?.name ?? ''))}`;
    setCondition(d.status, newCondition(PROGRESSING, 'True', REASONS.newReplicaSet, msg, nowOf(ctx)));
    needsUpdate = true;
  }
  if (needsUpdate) await updateDeploymentStatus(ctx, d);
  return created;
}
