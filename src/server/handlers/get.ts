// GET of one object (or of its status sub-resource, which reads the same object).

import type { ResourceHandler } from './env.ts';
import { chooseOutput, respondObject } from './output.ts';

export const getHandler: ResourceHandler = async (ctx, env, t) => {
  const choice = chooseOutput(ctx, env, t.subresource === '');
  const obj = await t.served.store.get(t.namespace, t.name);
  respondObject(ctx, t, 200, obj, choice);
};
