// GET of a collection: selectors, paging, and the read revision.

import { responseGone } from '../respond.ts';
import type { ResourceHandler } from './env.ts';
import { listParamsOf } from './options.ts';
import { chooseOutput, respondList } from './output.ts';

export const listHandler: ResourceHandler = async (ctx, env, t) => {
  const choice = chooseOutput(ctx, env, t, true, true);
  const p = listParamsOf(ctx, env);
  const list = await t.served.store.list(t.namespace, {
    labelSelector: p.labelSelector,
    fieldSelector: p.fieldSelector,
    limit: p.limit,
    continue: p.continue,
    at: p.at,
  });
  // A client that reset its stream while the list was read gets nothing encoded for it.
  if (responseGone(ctx.res)) return;
  await respondList(ctx, t, list, choice);
};
