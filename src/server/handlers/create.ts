// POST to a collection: decode, admit, create; 201 with the stored object. A kind that is never
// stored (a review) is answered by its review function instead, with the same decoding, admission
// and encodings.

import type { ApiObject } from '../../machinery/object.ts';
import { methodNotSupported } from '../../machinery/status.ts';
import { decodeObject } from './body.ts';
import { pacedTracking } from './breathe.ts';
import { admitFor, type ResourceHandler } from './env.ts';
import { dryRunOf, updateManagerOf, writeOptionsOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

export const createHandler: ResourceHandler = async (ctx, env, t) => {
  if (t.name !== '' || t.subresource !== '') {
    throw methodNotSupported(t.served.store.groupResource, 'create');
  }
  const choice = chooseOutput(ctx, env, t, false);
  const dryRun = dryRunOf(ctx, env, 'CreateOptions');
  const manager = updateManagerOf(ctx, writeOptionsOf(ctx, env, 'CreateOptions').fieldManager);
  const fields = t.served.fields(t.subresource);
  const obj = await decodeObject(ctx, env, t.served);
  const review = t.served.kind.review;
  if (review !== undefined) {
    const admit = admitFor(ctx, env, t, 'CREATE', dryRun);
    const answer = await review(obj, {
      user: ctx.user,
      namespace: t.namespace,
      dryRun,
      admit: (o) => admit(o, null),
    });
    // The answer is of the kind and in the group of the path asked (an alias answers in its own).
    const { apiVersion: _v, kind: _k, ...rest } = answer;
    const typed: ApiObject = { kind: obj.kind, apiVersion: obj.apiVersion, ...rest };
    respondObject(ctx, t, 201, typed, choice);
    return;
  }
  const paced = pacedTracking(ctx, fields, manager);
  const created = await t.served.store.create(t.namespace, obj, {
    dryRun,
    ...paced,
    admit: admitFor(ctx, env, t, 'CREATE', dryRun),
  });
  await paced.pause();
  respondObject(ctx, t, 201, created, choice);
};
