// Resource handlers, one file per verb, and the table that picks one for a request's verb. Handlers
// call the registry, never storage. A call routed to a deprecated version is marked here, before
// its handler runs (deprecation.ts).

import { methodNotSupported } from '../../machinery/status.ts';
import type { RequestContext } from '../context.ts';
import { deprecationSignalOf, signalDeprecatedCall } from '../deprecation.ts';
import { handleAction } from './action.ts';
import { createHandler } from './create.ts';
import { deleteHandler } from './delete.ts';
import { deleteCollectionHandler } from './delete-collection.ts';
import { codecsOf, type HandlerEnv, type ResourceHandler, type Target } from './env.ts';
import { getHandler } from './get.ts';
import { listHandler } from './list.ts';
import { patchHandler } from './patch.ts';
import { updateHandler } from './update.ts';
import { handleView } from './view.ts';
import { watchHandler } from './watch.ts';

export type { HandlerEnv, ResourceHandler, Target } from './env.ts';

const BY_VERB: Record<string, ResourceHandler> = {
  get: getHandler,
  list: listHandler,
  watch: watchHandler,
  create: createHandler,
  update: updateHandler,
  patch: patchHandler,
  delete: deleteHandler,
  deletecollection: deleteCollectionHandler,
};

/** Runs the handler of the request's verb, or answers 405 for a verb the resource does not serve. */
export async function handleResource(ctx: RequestContext, env: HandlerEnv, t: Target): Promise<void> {
  // Errors from here on are written in the encoding the client asked for, where the endpoint has it.
  ctx.codecs = codecsOf(env, t);
  const view = t.subresource === '' ? undefined : t.served.kind.views?.[t.subresource];
  if (view !== undefined) return handleView(ctx, env, t, view);
  const action = t.subresource === '' ? undefined : t.served.kind.actions?.[t.subresource];
  if (action !== undefined) return handleAction(ctx, env, t, action);
  const verb = ctx.info.verb;
  const handler = BY_VERB[verb];
  const r = t.served.kind.resource;
  const allowed =
    t.subresource === '' ? r.verbs.includes(verb) : (r.subresources[t.subresource] ?? []).includes(verb);
  if (handler === undefined || !allowed) throw methodNotSupported(t.served.store.groupResource, verb);
  // Only the resource and sub-resources in its own shape (status): views and actions are other
  // kinds, whose versions upstream judges on their own.
  if (t.served.kind.lifecycle !== undefined) markIfDeprecated(ctx, env, t);
  await handler(ctx, env, t);
}

function markIfDeprecated(ctx: RequestContext, env: HandlerEnv, t: Target): void {
  const signal = deprecationSignalOf(t.served.kind);
  if (signal === undefined) return;
  const r = t.served.kind.resource;
  const endpoint = { group: r.group, version: r.version, resource: r.resource, subresource: t.subresource };
  signalDeprecatedCall(ctx, signal, env.profile, endpoint, env.metrics);
}
