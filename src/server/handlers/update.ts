// PUT of an object or of its status: 200 with the result, 201 when the PUT created it.

import { methodNotSupported } from '../../machinery/status.ts';
import { decodeObject } from './body.ts';
import { pacedTracking } from './breathe.ts';
import { admitFor, type ResourceHandler } from './env.ts';
import { dryRunOf, updateManagerOf, writeOptionsOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

export const updateHandler: ResourceHandler = async (ctx, env, t) => {
  const subresources = t.served.kind.resource.subresources;
  if (t.subresource !== '' && !subresources[t.subresource]?.includes('update')) {
    throw methodNotSupported(t.served.store.groupResource, 'update');
  }
  const choice = chooseOutput(ctx, env, t, false);
  const dryRun = dryRunOf(ctx, env, 'UpdateOptions');
  const manager = updateManagerOf(ctx, writeOptionsOf(ctx, env, 'UpdateOptions').fieldManager);
  const fields = t.served.fields(t.subresource);
  const obj = await decodeObject(ctx, env, t.served);
  const paced = pacedTracking(ctx, fields, manager);
  const { object, created } = await t.served.store.update(t.namespace, t.name, obj, {
    dryRun,
    ...paced,
    subresource: t.subresource,
    admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
  });
  await paced.pause();
  respondObject(ctx, t, created ? 201 : 200, object, choice);
};
