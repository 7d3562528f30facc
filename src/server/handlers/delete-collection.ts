// DELETE of a collection: every object the selectors match, answered as the list of them.

import { methodNotSupported } from '../../machinery/status.ts';
import { writeEncoded } from '../respond.ts';
import { deleteOptionsOf } from './delete.ts';
import type { ResourceHandler } from './env.ts';
import { listParamsOf } from './options.ts';
import { chooseOutput } from './output.ts';

export const deleteCollectionHandler: ResourceHandler = async (ctx, env, t) => {
  if (!t.served.kind.resource.verbs.includes('deletecollection')) {
    throw methodNotSupported(t.served.store.groupResource, 'deletecollection');
  }
  const choice = chooseOutput(ctx, env, t, false);
  const { dryRun, propagationPolicy, gracePeriodSeconds } = await deleteOptionsOf(ctx, env);
  const p = listParamsOf(ctx, env);
  const list = await t.served.store.deleteCollection(t.namespace, {
    labelSelector: p.labelSelector,
    fieldSelector: p.fieldSelector,
    dryRun,
    propagationPolicy,
    gracePeriodSeconds,
  });
  writeEncoded(ctx, 200, list, choice.serializer);
};
