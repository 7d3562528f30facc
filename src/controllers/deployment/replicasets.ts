// Reading a Deployment's ReplicaSets (upstream's deployment_util and controller_utils): which is new
// (same template) and which are old, their orderings, replica sums, and whether one is active.

import { equalIgnoreHash } from './hash.ts';
import { type Deployment, type ReplicaSet, rsReplicas, uidOf } from './types.ts';

function created(rs: ReplicaSet): number {
  const t = rs.metadata?.creationTimestamp;
  const ms = t === undefined ? Number.NaN : Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

const nameOf = (rs: ReplicaSet) => String(rs.metadata?.name ?? '');

/** Oldest first; equal timestamps by name (upstream's ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = created(a) - created(b);
  if (d !== 0) return d;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

/** Larger first; equal sizes oldest first (upstream's ReplicaSetsBySizeOlder, for scaling down). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  const d = rsReplicas(b) - rsReplicas(a);
  return d !== 0 ? d : byCreation(a, b);
}

/** Larger first; equal sizes newest first (upstream's ReplicaSetsBySizeNewer, for scaling up). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  const d = rsReplicas(b) - rsReplicas(a);
  return d !== 0 ? d : byCreation(b, a);
}

/** Those with spec.replicas above zero (upstream's FilterActiveReplicaSets). */
export function activeOf(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && rsReplicas(rs) > 0);
}

const sum = (rss: readonly (ReplicaSet | undefined)[], f: (rs: ReplicaSet) => number) =>
  rss.reduce((n, rs) => (rs === undefined ? n : n + f(rs)), 0);

/** Sum of spec.replicas. */
export const specReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) => sum(rss, rsReplicas);
/** Sum of status.replicas. */
export const actualReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) =>
  sum(rss, (rs) => rs.status?.replicas ?? 0);
export const readyReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) =>
  sum(rss, (rs) => rs.status?.readyReplicas ?? 0);
export const availableReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) =>
  sum(rss, (rs) => rs.status?.availableReplicas ?? 0);

/**
 * Sum of status.terminatingReplicas, or undefined when a ReplicaSet its controller has already
 * observed does not report it (an older controller): upstream then leaves the field unset.
 */
export function terminatingReplicaCount(rss: readonly (ReplicaSet | undefined)[]): number | undefined {
  let n = 0;
  for (const rs of rss) {
    if (rs === undefined) continue;
    const t = rs.status?.terminatingReplicas;
    if (t === undefined) {
      if ((rs.status?.observedGeneration ?? 0) === 0) continue;
      return undefined;
    }
    n += t;
  }
  return n;
}

/** The oldest ReplicaSet whose template is the Deployment's: the new one. */
export function findNewReplicaSet(
  d: Deployment,
  rss: readonly ReplicaSet[],
  hashLabel: string,
): ReplicaSet | undefined {
  return [...rss]
    .sort(byCreation)
    .find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template, hashLabel));
}

/** Every ReplicaSet but the new one. */
export function findOldReplicaSets(
  d: Deployment,
  rss: readonly ReplicaSet[],
  hashLabel: string,
): ReplicaSet[] {
  const newRS = findNewReplicaSet(d, rss, hashLabel);
  return rss.filter((rs) => newRS === undefined || uidOf(rs) !== uidOf(newRS));
}

/**
 * The one active ReplicaSet, or the newest when none is active; undefined when several are
 * active (they are then scaled proportionally).
 */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeOf([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}
