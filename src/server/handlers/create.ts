// POST to a collection: decode, admit, create; 201 with the stored object.

import { methodNotSupported } from '../../machinery/status.ts';
import { decodeObject } from './body.ts';
import { admitFor, type ResourceHandler } from './env.ts';
import { dryRunOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

export const createHandler: ResourceHandler = async (ctx, env, t) => {
  if (t.name !== '' || t.subresource !== '') {
    throw methodNotSupported(t.served.store.groupResource, 'create');
  }
  const choice = chooseOutput(ctx, env, false);
  const dryRun = dryRunOf(ctx, env, 'CreateOptions');
  const obj = await decodeObject(ctx, t.served);
  const created = await t.served.store.create(t.namespace, obj, {
    dryRun,
    admit: admitFor(ctx, env, t, 'CREATE', dryRun),
  });
  respondObject(ctx, t, 201, created, choice);
};
