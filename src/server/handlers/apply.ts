// Server-side apply: PATCH with `application/apply-patch+yaml` (JSON is YAML), or with
// `application/apply-patch+cbor` when CBOR is on. The configuration
// is merged into the current object by the kind's field manager, which records ownership and
// answers conflicts; an absent object is created (201). A lost race with another writer is retried
// with the newer object; an apply that changes nothing writes nothing.

import { CBOR_SERIALIZER } from '../../codec/binary-serializers.ts';
import type { OutputChoice } from '../../codec/negotiation.ts';
import { DecodeError, JSON_SERIALIZER, YAML_SERIALIZER } from '../../codec/serializers.ts';
import { decodeYamlCheckedOffThread, YamlWorkerError } from '../../codec/yaml-offload.ts';
import { deepEqual } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import {
  badRequest,
  conflict,
  fromStatus,
  isAlreadyExists,
  isConflict,
  isNotFound,
  notFound,
} from '../../machinery/status.ts';
import { isPlainObject } from '../../patch/index.ts';
import type { RequestContext } from '../context.ts';
import { addWarnings } from '../warnings.ts';
import { BREATHE_FROM_BYTES, breathe } from './breathe.ts';
import { admitFor, type HandlerEnv, type Target } from './env.ts';
import { fieldValidationOf } from './field-validation.ts';
import { retryLostRace } from './lost-races.ts';
import { writeOptionsOf } from './options.ts';
import { respondObject } from './output.ts';

/** The configuration: a YAML (or JSON) mapping, 400 in upstream's words otherwise. */
async function decodeConfiguration(
  text: string,
): Promise<{ config: Record<string, unknown>; duplicateLines: string[] }> {
  // Most clients send JSON, which is YAML; parsing it as JSON is far cheaper. Repeated keys are
  // reported by line as the YAML decoder reports them, so such a body takes the YAML path.
  if (/^\s*\{/.test(text)) {
    try {
      const { value, duplicates } = JSON_SERIALIZER.decodeChecked(text);
      if (isPlainObject(value) && duplicates.format === 'json' && duplicates.keys.length === 0) {
        return { config: value, duplicateLines: [] };
      }
    } catch {
      // Not JSON after all (YAML flow style can look like it): the YAML decoder decides.
    }
  }
  let decoded: ReturnType<typeof YAML_SERIALIZER.decodeChecked>;
  try {
    // A large body takes seconds to parse: on a worker thread, with the same outcome, while the
    // event loop serves others (codec/yaml-offload.ts).
    decoded =
      text.length >= BREATHE_FROM_BYTES
        ? await decodeYamlCheckedOffThread(text)
        : YAML_SERIALIZER.decodeChecked(text);
  } catch (err) {
    // A worker that died says nothing about the body: an internal error, not a 400.
    if (err instanceof YamlWorkerError) throw err;
    throw badRequest(`error decoding YAML: ${(err as Error).message}`);
  }
  const { value, duplicates } = decoded;
  if (!isPlainObject(value)) {
    const what = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`,
    );
  }
  return { config: value, duplicateLines: duplicates.format === 'yaml' ? duplicates.lines : [] };
}

/**
 * A CBOR configuration: a map, its repeated keys reported (the last value wins) for fieldValidation
 * to judge as it judges a JSON body's.
 */
function decodeCborConfiguration(body: Buffer): { config: Record<string, unknown>; duplicates: string[] } {
  let decoded: ReturnType<typeof CBOR_SERIALIZER.decodeChecked>;
  try {
    decoded = CBOR_SERIALIZER.decodeChecked(body);
  } catch (err) {
    if (err instanceof DecodeError) throw badRequest(`error decoding CBOR: ${err.message}`);
    throw err;
  }
  const { value, duplicates } = decoded;
  if (!isPlainObject(value)) throw badRequest('error decoding CBOR: the configuration must be a map');
  const keys = duplicates.format === 'json' ? duplicates.keys.map((d) => d.path) : [];
  return { config: value, duplicates: [...new Set(keys)].map((p) => `duplicate field ${JSON.stringify(p)}`) };
}

async function currentOrNull(t: Target): Promise<ApiObject | null> {
  try {
    return await t.served.store.get(t.namespace, t.name);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export async function applyPatch(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  body: { text: string } | { cbor: Buffer },
  dryRun: boolean,
  choice: OutputChoice,
): Promise<void> {
  const { fieldManager, force } = writeOptionsOf(ctx, env, 'PatchOptions', true);
  const validation = fieldValidationOf(ctx);
  let config: Record<string, unknown>;
  let duplicateLines: string[];
  let strictError: () => Error;
  if ('cbor' in body) {
    ({ config, duplicates: duplicateLines } = decodeCborConfiguration(body.cbor));
    strictError = () => badRequest(`strict decoding error: ${duplicateLines.join(', ')}`);
  } else {
    ({ config, duplicateLines } = await decodeConfiguration(body.text));
    strictError = () =>
      badRequest(
        `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${duplicateLines.join('\n  ')}`,
      );
  }
  const size = 'cbor' in body ? body.cbor.length : body.text.length;
  await breathe(size);
  const fields = t.served.fields(t.subresource);
  const kind = t.served.kind;
  // A retry drops the warnings of the attempt it replaces, not those from before (a deprecated version's).
  const warningsBefore = ctx.warnings.length;
  for (let attempt = 1; ; attempt++) {
    const current = await currentOrNull(t);
    if (current === null && t.subresource !== '') throw notFound(t.served.store.groupResource, t.name);
    // Conflicts and schema errors of the configuration come before its repeated keys, as upstream.
    const next = await fields.applyPaced(
      current,
      config as Parameters<typeof fields.apply>[1],
      fieldManager,
      force ?? false,
      () => breathe(size),
    );
    if (duplicateLines.length > 0 && validation === 'Strict') throw strictError();
    await breathe(size);
    const { typeErrors } = kind.schema.normalize(next);
    if (typeErrors.length > 0) {
      // Upstream finds these while typing the configuration and answers a plain 500.
      // (Still so in 1.35: kubernetes/kubernetes#139253.) The object is named as the
      // configuration names it, which need not give a namespace.
      const gvk = `${kind.resource.group}/${kind.resource.version}, Kind=${kind.resource.kind}`;
      const named = isPlainObject(config.metadata) ? config.metadata : {};
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      const problems =
        typeErrors.length === 1 ? typeErrors[0] : ['errors:', ...typeErrors.map((e) => `  ${e}`)].join('\n');
      throw fromStatus({
        code: 500,
        message: `failed to create typed patch object (${text(named.namespace)}/${text(named.name)}; ${gvk}): ${problems}`,
      });
    }
    await breathe(size);
    if (next.metadata === undefined) next.metadata = {};
    const meta = next.metadata;
    if (current === null) {
      const uid = meta.uid;
      if (uid !== undefined && uid !== '') {
        throw conflict(
          t.served.store.groupResource,
          t.name,
          `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`,
        );
      }
      if (meta.name === undefined || meta.name === '') {
        throw badRequest(
          `the name of the object (${t.name} based on URL) was undeterminable: name must be provided`,
        );
      }
    }
    if (meta.name !== undefined && meta.name !== t.name) {
      throw badRequest(
        `the name of the object (${String(meta.name)}) does not match the name on the URL (${t.name})`,
      );
    }
    try {
      if (current === null) {
        delete meta.resourceVersion;
        const created = await t.served.store.create(t.namespace, next, {
          dryRun,
          pause: () => breathe(size),
          admit: admitFor(ctx, env, t, 'CREATE', dryRun),
        });
        await breathe(size);
        if (validation === 'Warn') addWarnings(ctx.warnings, duplicateLines);
        respondObject(ctx, t, 201, created, choice);
        return;
      }
      if (validation === 'Warn') addWarnings(ctx.warnings, duplicateLines);
      if (deepEqual(next, current)) {
        respondObject(ctx, t, 200, current, choice);
        return;
      }
      meta.resourceVersion = current.metadata?.resourceVersion;
      const { object } = await t.served.store.update(t.namespace, t.name, next, {
        dryRun,
        subresource: t.subresource,
        pause: () => breathe(size),
        admit: admitFor(ctx, env, t, 'UPDATE', dryRun),
      });
      await breathe(size);
      respondObject(ctx, t, 200, object, choice);
      return;
    } catch (err) {
      const raced = current === null ? isAlreadyExists(err) : isConflict(err);
      if (!raced || !retryLostRace(ctx, attempt)) throw err;
      ctx.warnings.length = warningsBefore;
    }
  }
}
