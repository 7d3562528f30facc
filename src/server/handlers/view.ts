// Sub-resources served in another kind's shape (a Deployment's scale as autoscaling/v1 Scale):
// GET reads the view of the stored object; PUT and PATCH map the new view back onto the object
// and update it like any write of the resource, at the view's resourceVersion when it has one.

import type { ApiObject } from '../../machinery/object.ts';
import {
  badRequest,
  conflict,
  invalid,
  isConflict,
  methodNotSupported,
  OPTIMISTIC_LOCK_MESSAGE,
} from '../../machinery/status.ts';
import { mergePatch } from '../../patch/index.ts';
import type { SubresourceView } from '../../registry/kind.ts';
import type { RequestContext } from '../context.ts';
import { writeEncoded } from '../respond.ts';
import { decodeAs, readBody } from './body.ts';
import { pacedTracking } from './breathe.ts';
import { admitFor, type HandlerEnv, type Target } from './env.ts';
import { retryLostRace } from './lost-races.ts';
import { dryRunOf, updateManagerOf, writeOptionsOf } from './options.ts';
import { chooseOutput } from './output.ts';

/** Writes `view` onto the stored object; without a resourceVersion, lost races are retried. */
async function writeView(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  view: SubresourceView,
  body: ApiObject,
  dryRun: boolean,
): Promise<ApiObject> {
  const name = body.metadata?.name;
  if (name !== undefined && name !== t.name) {
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${t.name})`);
  }
  const errs = view.validate(body);
  if (errs.length > 0) throw invalid({ group: view.schema.group, kind: view.schema.kind }, t.name, errs);
  const requested = body.metadata?.resourceVersion;
  const optionsKind = ctx.info.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions';
  const manager = updateManagerOf(ctx, writeOptionsOf(ctx, env, optionsKind).fieldManager);
  const fields = t.served.fields(t.subresource);
  for (let attempt = 1; ; attempt++) {
    const current = await t.served.store.get(t.namespace, t.name);
    if (requested !== undefined && requested !== '' && requested !== current.metadata?.resourceVersion) {
      throw conflict(t.served.store.groupResource, t.name, OPTIMISTIC_LOCK_MESSAGE);
    }
    const next = view.write(body, structuredClone(current));
    next.metadata = { ...next.metadata, resourceVersion: current.metadata?.resourceVersion };
    try {
      const { object } = await t.served.store.update(t.namespace, t.name, next, {
        dryRun,
        ...pacedTracking(ctx, fields, manager),
        admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
      });
      return view.read(object);
    } catch (err) {
      if (!isConflict(err) || (requested !== undefined && requested !== '') || !retryLostRace(ctx, attempt))
        throw err;
    }
  }
}

export async function handleView(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  view: SubresourceView,
): Promise<void> {
  const verb = ctx.info.verb;
  if (!(t.served.kind.resource.subresources[t.subresource] ?? []).includes(verb)) {
    throw methodNotSupported(t.served.store.groupResource, verb);
  }
  const choice = chooseOutput(ctx, env, t, false);
  const viewType = { group: view.schema.group, version: view.schema.version, kind: view.schema.kind };
  if (verb === 'get') {
    writeEncoded(ctx, 200, view.read(await t.served.store.get(t.namespace, t.name)), choice.serializer);
    return;
  }
  if (verb === 'update') {
    const dryRun = dryRunOf(ctx, env, 'UpdateOptions');
    const body = await decodeAs(ctx, env, t.served, viewType, view.schema);
    writeEncoded(ctx, 200, await writeView(ctx, env, t, view, body, dryRun), choice.serializer);
    return;
  }
  // patch: a merge patch of the current view.
  const dryRun = dryRunOf(ctx, env, 'PatchOptions');
  const type = String(ctx.req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  if (type !== 'application/merge-patch+json' && type !== 'application/strategic-merge-patch+json') {
    throw badRequest(`patch type ${JSON.stringify(type)} is not supported on ${t.subresource}`);
  }
  let patch: unknown;
  try {
    patch = JSON.parse((await readBody(ctx)).toString('utf8'));
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
  const current = view.read(await t.served.store.get(t.namespace, t.name));
  const patched = mergePatch(current, patch) as ApiObject;
  view.schema.normalize(patched);
  writeEncoded(ctx, 200, await writeView(ctx, env, t, view, patched, dryRun), choice.serializer);
}
