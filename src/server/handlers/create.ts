// POST to a collection: decode, admit, create; 201 with the stored object.

import { methodNotSupported } from '../../machinery/status.ts';
import { decodeObject } from './body.ts';
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
  const created = await t.served.store.create(t.namespace, obj, {
    dryRun,
    track: (live, next) => fields.update(live, next, manager),
    admit: admitFor(ctx, env, t, 'CREATE', dryRun),
  });
  respondObject(ctx, t, 201, created, choice);
};
