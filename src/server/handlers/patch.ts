// PATCH: JSON Patch, JSON Merge Patch and strategic merge patch, applied to the current object and
// written as an update at that object's resourceVersion, inside the store's update loop: a lost
// race applies the patch again to the newer object, unless the patch pins a resourceVersion of its
// own, which is then a precondition (409 when stale). Every write records its fields under the
// field manager (or the User-Agent); server-side apply has its own path (apply.ts).

import { APPLY_PATCH_CBOR_MEDIA_TYPE } from '../../codec/cbor/index.ts';
import { scanDuplicateKeys } from '../../codec/json-duplicates.ts';
import { parseMediaType } from '../../codec/media-type.ts';
import { invalid as invalidField, newPath } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import {
  badRequest,
  conflict,
  genericServerResponse,
  invalid,
  methodNotSupported,
  OPTIMISTIC_LOCK_MESSAGE,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '../../machinery/status.ts';
import {
  applyJsonPatch,
  decodeJsonPatch,
  isPlainObject,
  jsonPatchFieldProblems,
  MAX_JSON_PATCH_OPERATIONS,
  mergePatch,
  PatchError,
  strategicMergePatch,
} from '../../patch/index.ts';
import { applyPatch } from './apply.ts';
import { readBody } from './body.ts';
import { admitFor, type ResourceHandler } from './env.ts';
import { compareSortedWalk, fieldValidationOf } from './field-validation.ts';
import { dryRunOf, updateManagerOf, writeOptionsOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';
const APPLY_PATCH = 'application/apply-patch+yaml';
const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, APPLY_PATCH];
/** With CBOR on, server-side apply also takes a CBOR configuration. */
const PATCH_TYPES_CBOR = [...PATCH_TYPES, APPLY_PATCH_CBOR_MEDIA_TYPE];

/** The patch body as JSON, 400 in upstream's words when it is not. */
function parsePatch(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/** Upstream reports a patch whose result cannot be decoded, or is strictly refused, as `patch: Invalid value`. */
function patchInvalid(patched: unknown, detail: string) {
  return invalid({ group: '', kind: '' }, '', [
    invalidField(newPath('patch'), JSON.stringify(patched), detail),
  ]);
}

export const patchHandler: ResourceHandler = async (ctx, env, t) => {
  const subresources = t.served.kind.resource.subresources;
  if (t.subresource !== '' && !subresources[t.subresource]?.includes('patch')) {
    throw methodNotSupported(t.served.store.groupResource, 'patch');
  }
  const type = parseMediaType(String(ctx.req.headers['content-type'] ?? ''))?.essence;
  const types = env.codecs.cbor ? PATCH_TYPES_CBOR : PATCH_TYPES;
  if (type === undefined || !types.includes(type)) throw unsupportedMediaType(types);
  const choice = chooseOutput(ctx, env, t, false);
  const dryRun = dryRunOf(ctx, env, 'PatchOptions');
  const validation = fieldValidationOf(ctx);
  const raw = await readBody(ctx);
  if (type === APPLY_PATCH_CBOR_MEDIA_TYPE) return applyPatch(ctx, env, t, { cbor: raw }, dryRun, choice);
  const text = raw.toString('utf8');
  if (type === APPLY_PATCH) return applyPatch(ctx, env, t, { text }, dryRun, choice);
  const manager = updateManagerOf(ctx, writeOptionsOf(ctx, env, 'PatchOptions').fieldManager);
  const fields = t.served.fields(t.subresource);
  const doc = parsePatch(text);
  const kind = t.served.kind;

  // Findings about the patch document itself, in the order upstream reports them.
  const scan = validation === 'Ignore' ? undefined : scanDuplicateKeys(text);
  let patchFindings: string[] = [];
  let apply: (current: ApiObject) => unknown;
  let pinned: boolean;
  if (type === JSON_PATCH) {
    let ops: ReturnType<typeof decodeJsonPatch>;
    try {
      ops = decodeJsonPatch(doc);
    } catch (err) {
      if (err instanceof PatchError) throw badRequest(err.message);
      throw err;
    }
    if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
      throw requestEntityTooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
      );
    }
    patchFindings = scan
      ? jsonPatchFieldProblems(
          ops,
          scan.duplicates.map((d) => d.path),
        )
      : [];
    pinned = ops.some((o) => o.path === '/metadata/resourceVersion' && o.op !== 'test');
    apply = (current) => applyJsonPatch(current, ops);
  } else {
    if (!isPlainObject(doc)) throw badRequest('error decoding patch: the patch must be a JSON object');
    patchFindings = scan
      ? [...new Set(scan.duplicates.map((d) => d.path))].map((p) => `duplicate field ${JSON.stringify(p)}`)
      : [];
    const meta = doc.metadata;
    pinned = isPlainObject(meta) && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '';
    apply =
      type === MERGE_PATCH
        ? (current) => mergePatch(current, doc)
        : (current) => strategicMergePatch(current, doc, kind.schema);
  }

  // The patch is applied inside the store's update loop, to whatever object is current there.
  let findings: string[] = [];
  const change = (current: ApiObject): ApiObject => {
    let patched: unknown;
    try {
      patched = apply(current);
    } catch (err) {
      if (!(err instanceof PatchError)) throw err;
      if (err.kind === 'malformed') throw badRequest(err.message);
      throw genericServerResponse(422, 'PATCH', undefined, '', err.message);
    }
    if (!isPlainObject(patched)) throw patchInvalid(patched, 'the patched object must be a JSON object');
    const next = patched as ApiObject;
    const rv = next.metadata?.resourceVersion;
    if (pinned && rv !== current.metadata?.resourceVersion) {
      throw conflict(t.served.store.groupResource, t.name, OPTIMISTIC_LOCK_MESSAGE);
    }
    const { unknownFields, typeErrors } = kind.schema.normalize(next);
    if (typeErrors.length > 0) throw patchInvalid(patched, typeErrors[0]);
    // The result went through Go maps upstream, so its unknown fields come out in key order.
    findings = [
      ...patchFindings,
      ...[...unknownFields].sort(compareSortedWalk).map((f) => `unknown field ${JSON.stringify(f)}`),
    ];
    if (findings.length > 0 && validation === 'Strict') {
      throw patchInvalid(patched, `strict decoding error: ${findings.join(', ')}`);
    }
    return next;
  };
  const object = await t.served.store.patch(t.namespace, t.name, change, {
    dryRun,
    subresource: t.subresource,
    track: (live, written) => fields.update(live, written, manager),
    admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
  });
  if (validation === 'Warn') ctx.warnings.push(...findings);
  respondObject(ctx, t, 200, object, choice);
};
