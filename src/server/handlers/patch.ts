// PATCH: JSON Merge Patch (RFC 7386) today; JSON Patch, strategic merge patch and server-side apply
// arrive with their issues and answer 415 until then. The patch applies to the current object and
// the result is written as an update at that object's resourceVersion, retried on a lost race
// unless the patch itself names a resourceVersion.

import { parseMediaType } from '../../codec/media-type.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, isConflict, methodNotSupported, unsupportedMediaType } from '../../machinery/status.ts';
import { readBody } from './body.ts';
import { admitFor, type ResourceHandler } from './env.ts';
import { dryRunOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

const MERGE_PATCH = 'application/merge-patch+json';
const PATCH_TYPES = [MERGE_PATCH];
const ATTEMPTS = 5;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** RFC 7386: objects merge key by key, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export const patchHandler: ResourceHandler = async (ctx, env, t) => {
  const subresources = t.served.kind.resource.subresources;
  if (t.subresource !== '' && !subresources[t.subresource]?.includes('patch')) {
    throw methodNotSupported(t.served.store.groupResource, 'patch');
  }
  const type = parseMediaType(String(ctx.req.headers['content-type'] ?? ''))?.essence;
  if (type === undefined || !PATCH_TYPES.includes(type)) throw unsupportedMediaType(PATCH_TYPES);
  const choice = chooseOutput(ctx, env, false);
  const dryRun = dryRunOf(ctx, env, 'PatchOptions');
  const text = (await readBody(ctx)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
  if (!isPlainObject(patch)) throw badRequest('error decoding patch: a merge patch must be a JSON object');
  const pinned = isPlainObject(patch.metadata) && typeof patch.metadata.resourceVersion === 'string';
  for (let attempt = 1; ; attempt++) {
    const current = await t.served.store.get(t.namespace, t.name);
    const next = mergePatch(current, patch) as ApiObject;
    const { unknownFields, typeErrors } = t.served.kind.schema.normalize(next);
    const r = t.served.kind.resource;
    if (typeErrors.length > 0) {
      throw badRequest(
        `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${typeErrors[0]}`,
      );
    }
    const words = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
    if (words.length > 0 && ctx.query.get('fieldValidation') === 'Strict') {
      throw badRequest(`strict decoding error: ${words.join(', ')}`);
    }
    try {
      const { object } = await t.served.store.update(t.namespace, t.name, next, {
        dryRun,
        subresource: t.subresource,
        admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
      });
      if (words.length > 0 && ctx.query.get('fieldValidation') !== 'Ignore') ctx.warnings.push(...words);
      respondObject(ctx, t, 200, object, choice);
      return;
    } catch (err) {
      if (!isConflict(err) || pinned || attempt >= ATTEMPTS) throw err;
    }
  }
};
