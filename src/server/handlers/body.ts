// Reading and decoding a request body: the size limit, the Content-Type's decoder, the kind and
// version check against the endpoint, and the schema's unknown-field handling per fieldValidation.

import { ProtobufDecodeError } from '../../codec/binary-serializers.ts';
import { negotiateInput } from '../../codec/negotiation.ts';
import { DecodeError, type DuplicateKeys, YAML_SERIALIZER } from '../../codec/serializers.ts';
import { decodeYamlCheckedOffThread, decodeYamlOffThread } from '../../codec/yaml-offload.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, requestEntityTooLarge } from '../../machinery/status.ts';
import { sameApiVersion } from '../../naming/group-aliases.ts';
import { groupVersionOf } from '../../registry/resource.ts';
import type { KindSchema } from '../../schema/types.ts';
import { auditRequestBody, auditRequestObject } from '../audit/request-audit.ts';
import type { RequestContext } from '../context.ts';
import type { ServedResource } from '../served-resources.ts';
import { addWarnings } from '../warnings.ts';
import { BREATHE_FROM_BYTES, breathe } from './breathe.ts';
import { codecsOf, type HandlerEnv } from './env.ts';
import { fieldValidationOf, strictFindings } from './field-validation.ts';

/** Upstream's limit for a request body: 3 MiB. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(ctx: RequestContext, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => requestEntityTooLarge(`limit is ${limit}`);
  const declared = Number(ctx.req.headers['content-length'] ?? '0');
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  ctx.bodyBytes = size;
  const body = Buffer.concat(chunks);
  auditRequestBody(ctx, body);
  return body;
}

/**
 * The first 30 bytes of a body, for error messages, as upstream summarizes them: as text when
 * the body opens a JSON object, in hex otherwise.
 */
function snippet(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const shown = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > 30 ? `${shown} ...` : shown;
}

const hasDuplicates = (d: DuplicateKeys) => (d.format === 'json' ? d.keys.length > 0 : d.lines.length > 0);

/**
 * The object of a create or update body: decoded, its apiVersion and kind defaulted from the
 * endpoint or checked against it, unknown fields dropped (reported or refused per fieldValidation).
 */
export async function decodeObject(
  ctx: RequestContext,
  env: HandlerEnv,
  served: ServedResource,
): Promise<ApiObject> {
  return decodeAs(ctx, env, served, served.kind.resource, served.kind.schema);
}

/** As decodeObject, for a body of any kind: a sub-resource's view (autoscaling/v1 Scale). */
export async function decodeAs(
  ctx: RequestContext,
  env: HandlerEnv,
  served: ServedResource,
  r: { group: string; version: string; kind: string },
  schema: KindSchema,
): Promise<ApiObject> {
  const validation = fieldValidationOf(ctx);
  const serializer = negotiateInput(ctx.req.headers['content-type'], codecsOf(env, { served }));
  const raw = await readBody(ctx);
  let value: unknown;
  let duplicates: DuplicateKeys | undefined;
  // A text body is quoted after the reason, as upstream quotes it; binary bytes are not.
  const quoted = serializer.binary ? '' : ` (${snippet(raw)})`;
  const unrecognized = (why: string) =>
    badRequest(`the object provided is unrecognized (must be of type ${r.kind}): ${why}${quoted}`);
  if (serializer.binary) {
    try {
      ({ value, duplicates } = serializer.decodeChecked(raw));
    } catch (err) {
      // Upstream reports a binary body it cannot read as the decoder words it.
      if (err instanceof ProtobufDecodeError || err instanceof DecodeError) throw badRequest(err.message);
      throw err;
    }
    if (validation === 'Ignore') duplicates = undefined;
  } else {
    const text = raw.toString('utf8');
    // A large YAML body takes seconds to parse: it is parsed on a worker thread, with the same
    // outcome, while the event loop serves others (codec/yaml-offload.ts). JSON parses fast in place.
    const offThread = serializer === YAML_SERIALIZER && raw.length >= BREATHE_FROM_BYTES;
    try {
      // Ignore needs no account of repeated keys, so it skips the scan.
      if (validation === 'Ignore') {
        value = offThread ? await decodeYamlOffThread(text) : serializer.decode(text);
      } else {
        ({ value, duplicates } = offThread
          ? await decodeYamlCheckedOffThread(text)
          : serializer.decodeChecked(text));
      }
    } catch (err) {
      if (err instanceof DecodeError) throw unrecognized(`couldn't get version/kind; ${err.message}`);
      throw err;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw unrecognized(`couldn't get version/kind; json parse error: expected an object`);
  }
  const obj = value as ApiObject;
  const expectedGv = groupVersionOf(r);
  // A body may name the group by its upstream alias or by the profile's name (DESIGN.md, Naming).
  if (
    obj.apiVersion !== undefined &&
    obj.apiVersion !== '' &&
    !(typeof obj.apiVersion === 'string' && sameApiVersion(env.profile, obj.apiVersion, expectedGv))
  ) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expectedGv})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== r.kind) {
    throw badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${r.kind})`,
    );
  }
  obj.apiVersion = expectedGv;
  obj.kind = r.kind;
  // `managedFields: []` asks to clear them; decoding would drop the empty list, so it is kept as
  // the one empty entry upstream treats the same way.
  const meta = obj.metadata as { managedFields?: unknown } | undefined;
  if (Array.isArray(meta?.managedFields) && meta.managedFields.length === 0) meta.managedFields = [{}];
  await breathe(raw.length);
  const { unknownFields, typeErrors } = schema.normalize(obj);
  if (typeErrors.length > 0) {
    throw badRequest(
      `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${typeErrors[0]}`,
    );
  }
  if (duplicates !== undefined && (unknownFields.length > 0 || hasDuplicates(duplicates))) {
    const found = strictFindings(duplicates, unknownFields);
    if (validation === 'Strict') {
      throw badRequest(
        `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: strict decoding error: ${found.errors.join(', ')}`,
      );
    }
    // Only what the response can carry is kept: upstream bounds Warning headers (warnings.ts).
    addWarnings(ctx.warnings, found.warnings);
  }
  await breathe(raw.length);
  auditRequestObject(ctx, obj);
  return obj;
}
