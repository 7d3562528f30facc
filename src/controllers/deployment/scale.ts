// Resizing ReplicaSets: one at a time with its ScalingReplicaSet event, and the proportional
// scaling of every active ReplicaSet when the Deployment itself is resized in the middle of a
// rollout or while paused (upstream's scale), so a resize neither hastens nor slows the rollout.

import type { DeploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import { replicaBounds, replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './annotations.ts';
import type { SyncContext } from './context.ts';
import { maxSurge } from './fenceposts.ts';
import { isSaturated, replicaSetProportion } from './proportions.ts';
import { activeOf, bySizeNewer, bySizeOlder, findActiveOrLatest, specReplicaCount } from './replicasets.ts';
import { type Deployment, desiredReplicas, isRollingUpdate, type ReplicaSet, rsReplicas } from './types.ts';
import { updateReplicaSet } from './writes.ts';

export interface ScaleResult {
  scaled: boolean;
  rs: ReplicaSet;
}

/** Sets `rs` to `newScale` replicas (and the replica annotations); records ScalingReplicaSet. */
export async function scaleReplicaSet(
  ctx: SyncContext,
  rs: ReplicaSet,
  newScale: number,
  d: Deployment,
): Promise<ScaleResult> {
  const [desired, max] = replicaBounds(d);
  const oldScale = rsReplicas(rs);
  const sizeNeedsUpdate = oldScale !== newScale;
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max, ctx.names))
    return { scaled: false, rs };
  const copy = structuredClone(rs) as ReplicaSet;
  copy.spec = { ...(copy.spec ?? {}), replicas: newScale };
  setReplicasAnnotations(copy, desired, max, ctx.names);
  const written = await updateReplicaSet(ctx, copy);
  if (!sizeNeedsUpdate) return { scaled: false, rs: written };
  const op = oldScale < newScale ? 'up' : 'down';
  ctx.recorder.event(
    d,
    'Normal',
    'ScalingReplicaSet',
    `Scaled ${op} replica set ${String(written.metadata?.name ?? '')} from ${oldScale} to ${newScale}`,
  );
  return { scaled: true, rs: written };
}

/** scaleReplicaSet, unless `rs` already has that many replicas. */
export async function scaleReplicaSetAndRecordEvent(
  ctx: SyncContext,
  rs: ReplicaSet,
  newScale: number,
  d: Deployment,
): Promise<ScaleResult> {
  if (rsReplicas(rs) === newScale) return { scaled: false, rs };
  return scaleReplicaSet(ctx, rs, newScale, d);
}

/** Each active ReplicaSet's new size when the Deployment's total moves to replicas + maxSurge. */
export function proportionalSizes(
  d: Deployment,
  active: ReplicaSet[],
  names: DeploymentAnnotationNames,
): Map<ReplicaSet, number> {
  const allowed = desiredReplicas(d) > 0 ? desiredReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowed - specReplicaCount(active);
  // Larger ReplicaSets first; among equals newer ones grow first and older ones shrink first.
  if (toAdd > 0) active.sort(bySizeNewer);
  else if (toAdd < 0) active.sort(bySizeOlder);
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of active) {
    if (toAdd === 0) {
      sizes.set(rs, rsReplicas(rs));
      continue;
    }
    const p = replicaSetProportion(rs, d, toAdd, added, names);
    sizes.set(rs, rsReplicas(rs) + p);
    added += p;
  }
  // The rounding's leftover goes to the largest.
  if (toAdd !== 0 && active.length > 0) {
    const first = active[0];
    sizes.set(first, Math.max(0, (sizes.get(first) ?? 0) + toAdd - added));
  }
  return sizes;
}

/** Brings the ReplicaSets' total to the Deployment's size without advancing the rollout. */
export async function scale(
  ctx: SyncContext,
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
): Promise<void> {
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only !== undefined) {
    if (rsReplicas(only) === desiredReplicas(d)) return;
    await scaleReplicaSetAndRecordEvent(ctx, only, desiredReplicas(d), d);
    return;
  }
  // A saturated new ReplicaSet (one adopted, say) leaves nothing for the old ones.
  if (isSaturated(d, newRS, ctx.names)) {
    for (const old of activeOf(oldRSs)) await scaleReplicaSetAndRecordEvent(ctx, old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const sizes = proportionalSizes(d, activeOf([...oldRSs, newRS]), ctx.names);
  for (const [rs, size] of sizes) await scaleReplicaSet(ctx, rs, size, d);
}
