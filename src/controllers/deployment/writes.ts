// The controller's writes of Deployments and ReplicaSets. A Deployment's status is written through
// /status carrying its annotations too, as upstream does (upstream's status strategy keeps them);
// a server whose status writes drop metadata gets the revision annotation by a second, main-resource
// update. The sync keeps working on its own copy, so each answer's resourceVersion is carried over
// to let the next write of the same sync through.

import type { ApiObject } from '../../machinery/object.ts';
import type { SyncContext } from './context.ts';
import { DEPLOYMENTS, type Deployment, REPLICA_SETS, type ReplicaSet } from './types.ts';

function adoptVersion(target: ApiObject, written: ApiObject): void {
  target.metadata ??= {};
  target.metadata.resourceVersion = written.metadata?.resourceVersion;
}

/** Writes `d`'s status (and revision annotation); `d` takes the new resourceVersion. */
export async function updateDeploymentStatus(ctx: SyncContext, d: Deployment): Promise<Deployment> {
  const client = ctx.client.resource<Deployment>(DEPLOYMENTS, d.metadata?.namespace);
  let written = await client.update(d, { subresource: 'status' });
  adoptVersion(d, written);
  const keys = [ctx.names.revision, ctx.names.revisionAlias].filter((k) => k !== undefined);
  const want = d.metadata?.annotations ?? {};
  const missing = keys.filter((k) => want[k] !== undefined && written.metadata?.annotations?.[k] !== want[k]);
  if (missing.length > 0) {
    const annotations = { ...(written.metadata?.annotations ?? {}) };
    for (const k of missing) annotations[k] = want[k];
    written = await client.update({ ...written, metadata: { ...written.metadata, annotations } });
    adoptVersion(d, written);
  }
  return written;
}

/** Writes `d` whole (a rollback's template and annotations). */
export async function updateDeployment(ctx: SyncContext, d: Deployment): Promise<Deployment> {
  const written = await ctx.client.resource<Deployment>(DEPLOYMENTS, d.metadata?.namespace).update(d);
  adoptVersion(d, written);
  return written;
}

export function updateReplicaSet(ctx: SyncContext, rs: ReplicaSet): Promise<ReplicaSet> {
  return ctx.client.resource<ReplicaSet>(REPLICA_SETS, rs.metadata?.namespace).update(rs);
}

export function createReplicaSet(ctx: SyncContext, rs: ReplicaSet): Promise<ReplicaSet> {
  return ctx.client.resource<ReplicaSet>(REPLICA_SETS, rs.metadata?.namespace).create(rs);
}

export async function deleteReplicaSet(ctx: SyncContext, rs: ReplicaSet): Promise<void> {
  await ctx.client.resource(REPLICA_SETS, rs.metadata?.namespace).delete(String(rs.metadata?.name ?? ''));
}
