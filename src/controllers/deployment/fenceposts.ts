// How far a rolling update may go past or below the desired replica count: maxSurge and
// maxUnavailable resolved from an int or a percent of spec.replicas (surge rounds up, unavailable
// rounds down, as upstream's ResolveFenceposts), with the rule that both resolving to zero leaves
// one Pod unavailable so a rollout can still move where surge is impossible.

import { type Deployment, desiredReplicas, type IntOrString, isRollingUpdate } from './types.ts';

/** The value the server defaults both fields to. */
export const DEFAULT_FENCEPOST: IntOrString = '25%';

/**
 * An int, or a percent of `total` rounded up or down; throws for a string that is not a
 * percent (validation keeps those out of stored objects).
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (!v.endsWith('%'))
    throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits))
    throw new Error(`invalid value "${v}": strconv.Atoi: parsing "${digits}": invalid syntax`);
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** [surge, unavailable] for `desired` replicas. */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): [number, number] {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  // Validation forbids both being zero as written, but rounding a small percent down can get there.
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

function fenceposts(d: Deployment): [number, number] {
  const ru = d.spec?.strategy?.rollingUpdate;
  try {
    return resolveFenceposts(
      ru?.maxSurge ?? DEFAULT_FENCEPOST,
      ru?.maxUnavailable ?? DEFAULT_FENCEPOST,
      desiredReplicas(d),
    );
  } catch {
    // Validation rejects such values; a stored one can only come from an older server.
    return [0, 0];
  }
}

/** Pods a rolling update may run above spec.replicas (0 for Recreate). */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? fenceposts(d)[0] : 0;
}

/** Pods a rolling update may have unavailable, at most spec.replicas (0 for Recreate). */
export function maxUnavailable(d: Deployment): number {
  const replicas = desiredReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d)[1], replicas);
}

/** Pods that must stay available during a rolling update (0 for Recreate). */
export function minAvailable(d: Deployment): number {
  return isRollingUpdate(d) ? desiredReplicas(d) - maxUnavailable(d) : 0;
}
