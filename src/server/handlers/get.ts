// GET of one object (or of its status sub-resource, which reads the same object), at the revision
// the query asks for: unset is the most recent state, "0" any (the cache's), a number not older.

import { badRequest } from '../../machinery/status.ts';
import type { ReadAt } from '../../storage/interface.ts';
import type { RequestContext } from '../context.ts';
import { responseGone } from '../respond.ts';
import type { ResourceHandler } from './env.ts';
import { chooseOutput, respondObject } from './output.ts';

function readAtOf(ctx: RequestContext): ReadAt | undefined {
  const rv = ctx.query.get('resourceVersion') ?? '';
  if (rv === '') return undefined;
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version ${JSON.stringify(rv)}`);
  return { kind: 'notOlderThan', revision: Number(rv) };
}

export const getHandler: ResourceHandler = async (ctx, env, t) => {
  const choice = chooseOutput(ctx, env, t, t.subresource === '');
  const obj = await t.served.store.get(t.namespace, t.name, readAtOf(ctx));
  if (responseGone(ctx.res)) return;
  respondObject(ctx, t, 200, obj, choice);
};
