// POST to a collection: decode, admit, create; 201 with the stored object.

import { methodNotSupported } from '../../machinery/status.ts';
import { pacedTracking } from './breathe.ts';
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
  const paced = pacedTracking(ctx, fields, manager);
  const created = await t.served.store.create(t.namespace, obj, {
    dryRun,
    ...paced,
    admit: admitFor(ctx, env, t, 'CREATE', dryRun),
  });
  await paced.pause();
  respondObject(ctx, t, 201, created, choice);
};
