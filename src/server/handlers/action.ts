// POST to a sub-resource that only creates (registry/subresource-action.ts): the body is decoded as
// the action's kind, in the group the client named (the profile's or upstream's, which stock
// clients hard-code), the action answers, and the answer goes back with 201 in that same group.
// Actions that store nothing have no dry run, field manager or resourceVersion to honour; those that
// change or delete their parent (a Pod's binding, eviction) do it through the parent's store, which
// the request hands them.

import { negotiateInput } from '../../codec/negotiation.ts';
import { DecodeError } from '../../codec/serializers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, methodNotSupported } from '../../machinery/status.ts';
import { groupVersionOf } from '../../registry/resource.ts';
import type { SubresourceAction } from '../../registry/subresource-action.ts';
import type { KindSchema } from '../../schema/types.ts';
import type { RequestContext } from '../context.ts';
import { writeEncoded } from '../respond.ts';
import { addWarnings } from '../warnings.ts';
import { readBody } from './body.ts';
import { admitFor, codecsOf, type HandlerEnv, type Target } from './env.ts';
import { dryRunOf } from './options.ts';
import { chooseOutput } from './output.ts';

async function decodeBody(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  action: SubresourceAction,
): Promise<ApiObject> {
  const serializer = negotiateInput(ctx.req.headers['content-type'], codecsOf(env, t));
  const raw = await readBody(ctx);
  const kind = action.schema.kind;
  let value: unknown;
  try {
    value = serializer.binary ? serializer.decodeChecked(raw).value : serializer.decode(raw.toString('utf8'));
  } catch (err) {
    if (err instanceof DecodeError) {
      throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${err.message}`);
    }
    throw err;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind`,
    );
  }
  const obj = value as ApiObject;
  const schemas: KindSchema[] = [action.schema, ...(action.aliases ?? [])];
  const asked = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const schema = asked === '' ? action.schema : schemas.find((s) => groupVersionOf(s) === asked);
  if (schema === undefined) {
    throw badRequest(
      `the API version in the data (${asked}) does not match the expected API version (${groupVersionOf(action.schema)})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  obj.apiVersion = groupVersionOf(schema);
  obj.kind = kind;
  const { unknownFields, typeErrors } = schema.normalize(obj);
  if (typeErrors.length > 0) {
    throw badRequest(
      `${kind} in version "${schema.version}" cannot be handled as a ${kind}: ${typeErrors[0]}`,
    );
  }
  addWarnings(
    ctx.warnings,
    unknownFields.map((f) => `unknown field "${f}"`),
  );
  return obj;
}

export async function handleAction(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  action: SubresourceAction,
): Promise<void> {
  if (ctx.info.verb !== 'create') throw methodNotSupported(t.served.store.groupResource, ctx.info.verb);
  const choice = chooseOutput(ctx, env, t, false);
  const body = await decodeBody(ctx, env, t, action);
  const dryRun = ctx.query.getAll('dryRun').length > 0 ? dryRunOf(ctx, env, 'CreateOptions') : false;
  // Admitted as a create of the sub-resource, as upstream admits a binding, an eviction or a
  // token request (NodeRestriction decides which of them a node may ask for).
  await admitFor(ctx, env, t, 'CREATE', dryRun)(body, null);
  const answer = await action.create({
    namespace: t.namespace,
    name: t.name,
    body,
    get: async (group, version, resource, namespace, name) => {
      const r = env.served.lookup(group, version, resource);
      if (r === undefined) return undefined;
      try {
        return await r.store.get(namespace, name);
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },
    warn: (text) => addWarnings(ctx.warnings, [text]),
    dryRun,
    updateParent: (change, subresource, opts) =>
      t.served.store.patch(t.namespace, t.name, change, { subresource, dryRun: opts?.dryRun }),
    deleteParent: (opts) => t.served.store.delete(t.namespace, t.name, opts),
  });
  writeEncoded(ctx, 201, answer, choice.serializer);
}
