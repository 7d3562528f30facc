// The annotations the controller keeps on a Deployment and its ReplicaSets: revision numbers (and
// the history of revisions a ReplicaSet served before a rollback brought it back), the desired and
// maximum replica counts for proportional scaling, and the Deployment's own annotations copied to
// its new ReplicaSet (and back on a rollback), save the controller's.

import type { DeploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import { maxSurge } from './fenceposts.ts';
import { type Deployment, desiredReplicas, type ReplicaSet } from './types.ts';

/** Upstream's bound on the revision-history annotation's length. */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** Go's strconv.Atoi, as far as annotations need it. */
export function parseInteger(v: string | undefined): number | undefined {
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The revision, 0 when unset, undefined when unreadable. */
export function revisionOf(
  obj: { metadata?: { annotations?: Record<string, string> } },
  names: DeploymentAnnotationNames,
): number | undefined {
  const v = obj.metadata?.annotations?.[names.revision];
  if (v === undefined) return 0;
  return parseInteger(v);
}

export function maxRevision(rss: readonly ReplicaSet[], names: DeploymentAnnotationNames): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs, names);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** The second highest revision: the one before the current. */
export function lastRevision(rss: readonly ReplicaSet[], names: DeploymentAnnotationNames): number {
  let max = 0;
  let second = 0;
  for (const rs of rss) {
    const v = revisionOf(rs, names);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) second = v;
  }
  return second;
}

function skipped(key: string, names: DeploymentAnnotationNames): boolean {
  return (
    key === names.revision ||
    key === names.revisionAlias ||
    key === names.revisionHistory ||
    key === names.desiredReplicas ||
    key === names.maxReplicas ||
    key === names.rollbackTo ||
    names.notCopied.includes(key)
  );
}

function annotationsOf(obj: { metadata?: { annotations?: Record<string, string> } }): Record<string, string> {
  obj.metadata ??= {};
  obj.metadata.annotations ??= {};
  return obj.metadata.annotations;
}

/** Copies the Deployment's own annotations onto `rs`; whether any changed. */
function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet, names: DeploymentAnnotationNames): boolean {
  const target = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (skipped(k, names) || target[k] === v) continue;
    target[k] = v;
    changed = true;
  }
  return changed;
}

/** Sets desired-replicas and max-replicas on `rs`; whether either changed. */
export function setReplicasAnnotations(
  rs: ReplicaSet,
  desired: number,
  max: number,
  names: DeploymentAnnotationNames,
): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  if (a[names.desiredReplicas] !== String(desired)) {
    a[names.desiredReplicas] = String(desired);
    changed = true;
  }
  if (a[names.maxReplicas] !== String(max)) {
    a[names.maxReplicas] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(
  rs: ReplicaSet,
  desired: number,
  max: number,
  names: DeploymentAnnotationNames,
): boolean {
  const a = rs.metadata?.annotations;
  return a?.[names.desiredReplicas] !== String(desired) || a?.[names.maxReplicas] !== String(max);
}

/** The Deployment's replicas and replicas + maxSurge, as the annotations record them. */
export function replicaBounds(d: Deployment): [number, number] {
  const desired = desiredReplicas(d);
  return [desired, desired + maxSurge(d)];
}

export function desiredReplicasAnnotation(
  rs: ReplicaSet,
  names: DeploymentAnnotationNames,
): number | undefined {
  return parseInteger(rs.metadata?.annotations?.[names.desiredReplicas]);
}

export function maxReplicasAnnotation(rs: ReplicaSet, names: DeploymentAnnotationNames): number | undefined {
  return parseInteger(rs.metadata?.annotations?.[names.maxReplicas]);
}

/**
 * Brings the new ReplicaSet's annotations up to date (upstream's SetNewReplicaSetAnnotations): the
 * Deployment's copied, the revision raised to `newRevision` (an earlier one moving to the revision
 * history, as after a rollback), and, for one about to be created, the replica annotations.
 * Whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  names: DeploymentAnnotationNames,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs, names);
  const a = annotationsOf(rs);
  const had = Object.hasOwn(a, names.revision);
  const oldText = a[names.revision] ?? '';
  const old = oldText === '' ? 0 : parseInteger(oldText);
  if (old === undefined) return false;
  if (old < newRevision) {
    a[names.revision] = String(newRevision);
    if (names.revisionAlias !== undefined) a[names.revisionAlias] = String(newRevision);
    changed = true;
    if (had) {
      const history = a[names.revisionHistory] ?? '';
      if (history === '') a[names.revisionHistory] = oldText;
      else {
        const parts = history.split(',');
        let total = history.length + oldText.length + 1;
        let start = 0;
        while (total > MAX_REV_HISTORY_LENGTH_IN_CHARS && start < parts.length) {
          total -= parts[start].length + 1;
          start++;
        }
        if (total <= MAX_REV_HISTORY_LENGTH_IN_CHARS)
          a[names.revisionHistory] = [...parts.slice(start), oldText].join(',');
      }
    }
  }
  if (!exists) {
    const [desired, max] = replicaBounds(d);
    if (setReplicasAnnotations(rs, desired, max, names)) changed = true;
  }
  return changed;
}

/** Sets the Deployment's revision annotation; whether it changed. */
export function setDeploymentRevision(
  d: Deployment,
  revision: string,
  names: DeploymentAnnotationNames,
): boolean {
  const a = annotationsOf(d);
  const alias = names.revisionAlias;
  if (a[names.revision] === revision && (alias === undefined || a[alias] === revision)) return false;
  a[names.revision] = revision;
  if (alias !== undefined) a[alias] = revision;
  return true;
}

/** On a rollback: the Deployment takes the ReplicaSet's annotations, keeping its controller-owned ones. */
export function setDeploymentAnnotationsTo(
  d: Deployment,
  rs: ReplicaSet,
  names: DeploymentAnnotationNames,
): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (skipped(k, names)) kept[k] = v;
  for (const [k, v] of Object.entries(rs.metadata?.annotations ?? {})) if (!skipped(k, names)) kept[k] = v;
  d.metadata ??= {};
  d.metadata.annotations = kept;
}
