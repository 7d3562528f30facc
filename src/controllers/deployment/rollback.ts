// The deprecated rollback request (the `deprecated.deployment.rollback.to` annotation that
// extensions/v1beta1's rollbackTo became): the template of the ReplicaSet with the asked revision
// (0: the one before the current) is copied into the Deployment with that ReplicaSet's annotations,
// and the request removed. `kubectl rollout undo` no longer asks this way: it patches the template
// itself, and the usual sync then makes the old ReplicaSet new again under the next revision.

import { lastRevision, parseInteger, revisionOf, setDeploymentAnnotationsTo } from './annotations.ts';
import { REASONS } from './conditions.ts';
import type { SyncContext } from './context.ts';
import { equalIgnoreHash } from './hash.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import type { Deployment, ReplicaSet } from './types.ts';
import { updateDeployment } from './writes.ts';

/** The revision asked for, or undefined when no (readable) request is there. */
export function rollbackTo(ctx: Pick<SyncContext, 'names'>, d: Deployment): number | undefined {
  const v = d.metadata?.annotations?.[ctx.names.rollbackTo];
  if (v === undefined || v === '') return undefined;
  return parseInteger(v);
}

async function clearRollbackTo(ctx: SyncContext, d: Deployment): Promise<void> {
  if (d.metadata?.annotations !== undefined) delete d.metadata.annotations[ctx.names.rollbackTo];
  await updateDeployment(ctx, d);
}

export async function rollback(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true);
  const allRSs = newRS === undefined ? oldRSs : [...oldRSs, newRS];
  let revision = rollbackTo(ctx, d) ?? 0;
  if (revision === 0) {
    revision = lastRevision(allRSs, ctx.names);
    if (revision === 0) {
      ctx.recorder.event(d, 'Warning', REASONS.rollbackRevisionNotFound, 'Unable to find last revision.');
      return clearRollbackTo(ctx, d);
    }
  }
  const target = allRSs.find((rs) => revisionOf(rs, ctx.names) === revision);
  if (target === undefined) {
    ctx.recorder.event(
      d,
      'Warning',
      REASONS.rollbackRevisionNotFound,
      'Unable to find the revision to rollback to.',
    );
    return clearRollbackTo(ctx, d);
  }
  const name = String(d.metadata?.name ?? '');
  if (equalIgnoreHash(d.spec?.template, target.spec?.template, ctx.names.podTemplateHashLabel)) {
    ctx.recorder.event(
      d,
      'Warning',
      REASONS.rollbackTemplateUnchanged,
      `The rollback revision contains the same template as current deployment ${JSON.stringify(name)}`,
    );
    return clearRollbackTo(ctx, d);
  }
  const template = structuredClone(target.spec?.template ?? {});
  if (template.metadata?.labels !== undefined) {
    delete template.metadata.labels[ctx.names.podTemplateHashLabel];
  }
  d.spec = { ...(d.spec ?? {}), template };
  // The Deployment takes the old ReplicaSet's annotations, or it would stamp its current ones on it.
  setDeploymentAnnotationsTo(d, target, ctx.names);
  await clearRollbackTo(ctx, d);
  ctx.recorder.event(
    d,
    'Normal',
    REASONS.rollbackDone,
    `Rolled back deployment ${JSON.stringify(name)} to revision ${revision}`,
  );
}
