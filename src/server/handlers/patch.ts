// PATCH: JSON Patch, JSON Merge Patch and strategic merge patch, applied to the current object and
// written as an update at that object's resourceVersion, inside the store's update loop: a lost
// race applies the patch again to the newer object, unless the patch pins a resourceVersion of its
// own, which is then a precondition (409 when stale). Every write records its fields under the
// field manager (or the User-Agent); server-side apply has its own path (apply.ts).

import { APPLY_PATCH_CBOR_MEDIA_TYPE } from '../../codec/cbor/index.ts';
import { jsonDepthMessage, jsonTooDeep, valueTooDeep } from '../../codec/depth.ts';
import { scanDuplicateKeys } from '../../codec/json-duplicates.ts';
import { parseMediaType } from '../../codec/media-type.ts';
import { goQuote, invalid as invalidField, newPath } from '../../machinery/field-errors.ts';
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
  PatchTooDeepError,
  strategicMergePatch,
} from '../../patch/index.ts';
import { addWarnings } from '../warnings.ts';
import { applyPatch } from './apply.ts';
import { readBody } from './body.ts';
import { breathe, pacedTracking } from './breathe.ts';
import { admitFor, type HandlerEnv, type ResourceHandler, type Target } from './env.ts';
import { type FieldValidation, fieldValidationOf, sortedWalkOrder } from './field-validation.ts';
import { dryRunOf, updateManagerOf, writeOptionsOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';
const APPLY_PATCH = 'application/apply-patch+yaml';
const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, APPLY_PATCH];
/** With CBOR on, server-side apply also takes a CBOR configuration. */
const PATCH_TYPES_CBOR = [...PATCH_TYPES, APPLY_PATCH_CBOR_MEDIA_TYPE];

/**
 * The patch body as JSON, 400 in upstream's words when it is not, or nests too deeply for the
 * patchers (which recurse). Upstream decodes a patch with a different call per type and
 * fieldValidation, and each words its failure its own way.
 */
function parsePatch(text: string, type: string, validation: FieldValidation): unknown {
  const refuse = (reason: string) => {
    if (type === STRATEGIC_PATCH) return badRequest(reason);
    if (validation !== 'Ignore') return badRequest(`error decoding patch: ${reason}`);
    // Unchecked, a merge patch that is not JSON is the patch library's sentinel error.
    return badRequest(type === MERGE_PATCH ? 'Invalid JSON Patch' : reason);
  };
  const deep = jsonTooDeep(text);
  if (deep !== undefined) throw refuse(jsonDepthMessage(deep));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw refuse((err as Error).message);
  }
}

/** Where a kind's Go types live upstream, as its conversion errors name them. */
function goPackage(group: string, version?: string): string {
  const short = group === '' ? 'core' : group.split('.')[0];
  const base =
    short === 'apiextensions'
      ? 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions'
      : short === 'apiregistration'
        ? 'k8s.io/kube-aggregator/pkg/apis/apiregistration'
        : undefined;
  if (version === undefined) return base ?? `k8s.io/kubernetes/pkg/apis/${short}`;
  return base !== undefined ? `${base}/${version}` : `k8s.io/api/${short}/${version}`;
}

/**
 * Why a JSON or merge patch that turned the object into another kind cannot be decoded as the
 * endpoint's kind: upstream decodes the result as the kind it names and then fails to convert
 * that into the endpoint's type, or finds no such kind at all.
 */
function kindChangeError(env: HandlerEnv, t: Target, apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash === -1 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const known = env.served.list.some(
    (s) =>
      s.kind.resource.group === group && s.kind.resource.version === version && s.kind.resource.kind === kind,
  );
  if (!known) {
    return `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`;
  }
  const own = t.served.kind.resource;
  return `converting (${goPackage(group, version)}) ${kind} to (${goPackage(own.group)}) ${own.kind}: unknown conversion`;
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
  const doc = parsePatch(text, type, validation);
  await breathe(raw.length);
  const kind = t.served.kind;
  const own = kind.resource;
  const ownApiVersion = own.group === '' ? own.version : `${own.group}/${own.version}`;

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
  const change = async (current: ApiObject): Promise<ApiObject> => {
    let patched: unknown;
    try {
      patched = apply(current);
    } catch (err) {
      if (err instanceof PatchTooDeepError) {
        throw patchInvalid(err.document, `couldn't get version/kind; json parse error: ${err.message}`);
      }
      if (!(err instanceof PatchError)) throw err;
      if (err.kind === 'malformed') throw badRequest(err.message);
      throw genericServerResponse(422, 'PATCH', undefined, '', err.message);
    }
    await breathe(raw.length);
    if (!isPlainObject(patched)) throw patchInvalid(patched, 'the patched object must be a JSON object');
    // Upstream decodes a JSON or merge patch's result from JSON, whose decoder bounds its depth.
    const deep = valueTooDeep(patched);
    if (deep !== undefined) {
      throw patchInvalid(patched, `couldn't get version/kind; json parse error: ${jsonDepthMessage(deep)}`);
    }
    const next = patched as ApiObject;
    if (type !== STRATEGIC_PATCH) {
      // The result is decoded as the kind it names, which must be the endpoint's.
      const { apiVersion, kind: named } = next as { apiVersion?: unknown; kind?: unknown };
      if (
        typeof apiVersion === 'string' &&
        typeof named === 'string' &&
        named !== '' &&
        (apiVersion !== ownApiVersion || named !== own.kind) &&
        !(apiVersion === '' && named === own.kind)
      ) {
        throw patchInvalid(patched, kindChangeError(env, t, apiVersion, named));
      }
    }
    // The patched object must still name the object on the URL (upstream's checkName): a patch
    // that drops the metadata, or deletes the whole object, leaves it nameless.
    const patchedName = isPlainObject(next.metadata) ? next.metadata.name : undefined;
    if (patchedName !== t.name) {
      throw badRequest(
        `the name of the object (${typeof patchedName === 'string' ? patchedName : ''}) does not match the name on the URL (${t.name})`,
      );
    }
    const rv = next.metadata?.resourceVersion;
    if (pinned && rv !== current.metadata?.resourceVersion) {
      throw conflict(t.served.store.groupResource, t.name, OPTIMISTIC_LOCK_MESSAGE);
    }
    await breathe(raw.length);
    const { unknownFields, typeErrors } = kind.schema.normalize(next);
    if (typeErrors.length > 0) throw patchInvalid(patched, typeErrors[0]);
    // The result went through Go maps upstream, so its unknown fields come out in key order.
    findings = [
      ...patchFindings,
      ...sortedWalkOrder(unknownFields).map((f) => `unknown field ${JSON.stringify(f)}`),
    ];
    if (findings.length > 0 && validation === 'Strict') {
      throw patchInvalid(patched, `strict decoding error: ${findings.join(', ')}`);
    }
    return next;
  };
  await breathe(raw.length);
  const object = await t.served.store.patch(t.namespace, t.name, change, {
    dryRun,
    subresource: t.subresource,
    ...pacedTracking(ctx, fields, manager),
    admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
  });
  await breathe(raw.length);
  // Only what the response can carry is kept: upstream bounds Warning headers (warnings.ts).
  if (validation === 'Warn') addWarnings(ctx.warnings, findings);
  respondObject(ctx, t, 200, object, choice);
};
