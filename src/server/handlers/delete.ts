// DELETE of one object: DeleteOptions from the body or the query (dryRun, preconditions,
// gracePeriodSeconds, propagationPolicy); 200 with the object or a Success Status.

import { badRequest } from '../../machinery/status.ts';
import type { Preconditions } from '../../storage/interface.ts';
import type { RequestContext } from '../context.ts';
import { readBody } from './body.ts';
import { admitFor, type HandlerEnv, type ResourceHandler } from './env.ts';
import { dryRunOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

interface DeleteOptionsBody {
  dryRun?: unknown;
  preconditions?: Preconditions | null;
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
}

const PROPAGATION = ['Orphan', 'Background', 'Foreground'];

/** The DeleteOptions of a delete or deletecollection; an empty body means none. */
export async function deleteOptionsOf(
  ctx: RequestContext,
  env: HandlerEnv,
): Promise<{ dryRun: boolean; preconditions?: Preconditions }> {
  const text = (await readBody(ctx)).toString('utf8').trim();
  let body: DeleteOptionsBody = {};
  if (text !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('the body of a delete must be a DeleteOptions object');
    }
    body = parsed as DeleteOptionsBody;
  }
  const policy = body.propagationPolicy ?? ctx.query.get('propagationPolicy');
  if (policy !== undefined && policy !== null && policy !== '' && !PROPAGATION.includes(String(policy))) {
    throw badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}`);
  }
  const dryRun = dryRunOf(ctx, env, 'DeleteOptions', body.dryRun ?? []);
  const pre = body.preconditions ?? undefined;
  const preconditions: Preconditions | undefined =
    pre === undefined
      ? undefined
      : { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined };
  return { dryRun, preconditions };
}

export const deleteHandler: ResourceHandler = async (ctx, env, t) => {
  const choice = chooseOutput(ctx, env, false);
  const { dryRun, preconditions } = await deleteOptionsOf(ctx, env);
  const out = await t.served.store.delete(t.namespace, t.name, {
    dryRun,
    preconditions,
    admit: admitFor(ctx, env, t, 'DELETE', dryRun),
  });
  respondObject(ctx, t, 200, out, choice);
};
