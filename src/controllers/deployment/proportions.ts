// Replica arithmetic of a rollout (upstream's deployment_util): how far the new ReplicaSet may grow
// under maxSurge, whether it is saturated, and each ReplicaSet's share when the Deployment is
// resized in the middle of a rollout (proportional scaling by the max-replicas annotation).

import type { DeploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import { desiredReplicasAnnotation, maxReplicasAnnotation } from './annotations.ts';
import { maxSurge, scaledValue } from './fenceposts.ts';
import { specReplicaCount } from './replicasets.ts';
import {
  type Deployment,
  desiredReplicas,
  RECREATE,
  type ReplicaSet,
  ROLLING_UPDATE,
  rsReplicas,
  strategyType,
} from './types.ts';

/** The replicas the new ReplicaSet should have now (upstream's NewRSNewReplicas). */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const desired = desiredReplicas(d);
  switch (strategyType(d)) {
    case ROLLING_UPDATE: {
      const surge = scaledValue(d.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%', desired, true);
      const current = specReplicaCount(allRSs);
      const maxTotal = desired + surge;
      if (current >= maxTotal) return rsReplicas(newRS);
      const up = Math.min(maxTotal - current, desired - rsReplicas(newRS));
      return rsReplicas(newRS) + up;
    }
    case RECREATE:
      return desired;
    default:
      throw new Error(`deployment type ${strategyType(d)} isn't supported`);
  }
}

/** Whether the new ReplicaSet alone holds every desired replica, all available. */
export function isSaturated(
  d: Deployment,
  rs: ReplicaSet | undefined,
  names: DeploymentAnnotationNames,
): boolean {
  if (rs === undefined) return false;
  const desired = desiredReplicasAnnotation(rs, names);
  if (desired === undefined) return false;
  const replicas = desiredReplicas(d);
  return (
    rsReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/** Go's math.Round for the positive and negative halves alike (away from zero). */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function fraction(rs: ReplicaSet, d: Deployment, names: DeploymentAnnotationNames): number {
  if (desiredReplicas(d) === 0) return -rsReplicas(rs);
  const deploymentReplicas = desiredReplicas(d) + maxSurge(d);
  // Without the annotation the current size stands in: not exact, but the min/max in
  // replicaSetProportion keeps the total within bounds.
  const annotated = maxReplicasAnnotation(rs, names) ?? d.status?.replicas ?? 0;
  if (annotated === 0) return 0;
  return roundHalfAway((rsReplicas(rs) * deploymentReplicas) / annotated) - rsReplicas(rs);
}

/** How many replicas `rs` gains (or loses, negative) of `toAdd`, `added` having been handed out. */
export function replicaSetProportion(
  rs: ReplicaSet | undefined,
  d: Deployment,
  toAdd: number,
  added: number,
  names: DeploymentAnnotationNames,
): number {
  if (rs === undefined || rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d, names);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}
