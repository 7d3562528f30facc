// The Swagger 2.0 document (/openapi/v2) and the OpenAPI 3.0 documents, one per group-version
// (/openapi/v3/<api/v1|apis/g/v>), with the index that names each by a content hash.
//
// What stock kubectl (1.32, 1.35) reads, from the client sources and checked against both binaries:
// - The index (client-go openapi/client.go): `{paths: {"api/v1": {serverRelativeURL}}}`; a URL under
//   /openapi/v3 is fetched with its `hash` query and `Accept: application/json`
//   (openapi/groupversion.go, openapi3/root.go).
// - The field validation probe (cli-runtime resource/query_param_verifier_v3.go, wired in kubectl's
//   cmd/util/factory_client_access.go): in the group-version document, the first PATCH operation
//   whose group-version-kind extension (one object on operations, a list on schemas) names the kind
//   must list `fieldValidation` among the operation's own parameters; path-level ones are not read.
//   Then create/apply/replace send fieldValidation=Strict and leave the checks to the server.
// - explain (kubectl explain/v2/templates/plaintext.tmpl): the kind comes from a get/post/put/patch/
//   delete operation of the collection or item path, the schema is the components.schemas entry whose
//   extension list contains exactly that object; a $ref field's description sits beside an allOf.
// - apply (kubectl cmd/apply/patcher.go): when the kind's PATCH lists
//   application/strategic-merge-patch+json, the patch is computed from these v3 schemas.
// - /openapi/v2 (client-go discovery/discovery_client.go OpenAPISchema) is asked for only as
//   application/com.github.proto-openapi.spec.v2@v1.0+protobuf and parsed as protobuf with no JSON
//   fallback, then by kube-openapi's util/proto (every $ref must resolve, an array has one items
//   schema, a primitive type is string/number/integer/boolean). kubectl reads v2 only as a fallback:
//   apply when v3 has no answer, `explain --output plaintext-openapiv2`, and client-side validation
//   when the v3 probe finds no fieldValidation (an unknown kind, a v1 List), where a failed download
//   fails the command before the `no matches for kind` it would otherwise report. This JSON document
//   is encoded to that protobuf by openapi-v2-protobuf.ts.

import { createHash } from 'node:crypto';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { groupVersionOf } from '../../registry/resource.ts';
import {
  ACTION_KEY,
  gvkExtension,
  type Operation,
  type PathItem,
  pathItems,
  QUERY_PARAMS,
  viewKinds,
} from './paths.ts';
import { DefinitionNames, type DescribedKind, definitionsFor, type JsonObject } from './schema-objects.ts';

export interface DocumentInfo {
  title: string;
  version: string;
}

function statusDefinition(): JsonObject {
  return {
    description: 'Status is a return value for calls that do not return other objects.',
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      code: { type: 'integer', format: 'int32' },
      message: { type: 'string' },
      reason: { type: 'string' },
      status: { type: 'string' },
      details: { type: 'object' },
    },
  };
}

function responseRef(names: DefinitionNames, k: DescribedKind, responseKind: string, prefix: string): string {
  if (responseKind === 'Status') return `${prefix}${names.meta('Status')}`;
  return `${prefix}${names.kind(k.resource.group, k.resource.version, responseKind)}`;
}

function v2Operation(item: PathItem, op: Operation, names: DefinitionNames): JsonObject {
  const ref = responseRef(names, item.kind, op.responseKind, '#/definitions/');
  const parameters: JsonObject[] = op.query.map((q) => ({
    name: q,
    in: 'query',
    type: QUERY_PARAMS[q]?.type ?? 'string',
    description: QUERY_PARAMS[q]?.description ?? '',
    uniqueItems: true,
  }));
  if (op.hasBody) {
    const body =
      op.method === 'patch'
        ? { type: 'object' }
        : { $ref: responseRef(names, item.kind, item.kind.resource.kind, '#/definitions/') };
    parameters.unshift({ name: 'body', in: 'body', required: true, schema: body });
  }
  return {
    description: op.description,
    consumes:
      op.method === 'patch'
        ? [
            'application/json-patch+json',
            'application/merge-patch+json',
            'application/strategic-merge-patch+json',
            'application/apply-patch+yaml',
          ]
        : ['*/*'],
    produces: ['application/json', 'application/yaml'],
    schemes: ['https'],
    operationId: op.operationId,
    parameters,
    responses: {
      '200': { description: 'OK', schema: { $ref: ref } },
      ...(op.method === 'post' ? { '201': { description: 'Created', schema: { $ref: ref } } } : {}),
      '401': { description: 'Unauthorized' },
    },
    [ACTION_KEY]: op.action,
    ...gvkExtension(item.kind),
  };
}

function pathParameters(item: PathItem, v3: boolean): JsonObject[] {
  const params: JsonObject[] = item.pathParams.map(
    (p): JsonObject =>
      v3
        ? {
            name: p,
            in: 'path',
            required: true,
            description: `${p} of the resource`,
            schema: { type: 'string', uniqueItems: true },
          }
        : {
            name: p,
            in: 'path',
            required: true,
            type: 'string',
            description: `${p} of the resource`,
            uniqueItems: true,
          },
  );
  const pretty = QUERY_PARAMS.pretty;
  params.push(
    v3
      ? {
          name: 'pretty',
          in: 'query',
          description: pretty.description,
          schema: { type: 'string', uniqueItems: true },
        }
      : { name: 'pretty', in: 'query', type: 'string', description: pretty.description, uniqueItems: true },
  );
  return params;
}

/** Every path of the kinds with its operations, rendered by `render` for one OpenAPI version. */
function pathsObject(
  kinds: readonly KindDefinition[],
  v3: boolean,
  render: (item: PathItem, op: Operation) => JsonObject,
): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const k of kinds) {
    for (const item of pathItems(k)) {
      if (item.operations.length === 0) continue;
      const entry: JsonObject = { parameters: pathParameters(item, v3) };
      for (const op of item.operations) entry[op.method] = render(item, op);
      paths[item.path] = entry;
    }
  }
  return paths;
}

export function openApiV2Document(
  kinds: readonly KindDefinition[],
  profile: NamingProfile,
  info: DocumentInfo,
): JsonObject {
  const names = new DefinitionNames(profile);
  const definitions = definitionsFor([...kinds, ...viewKinds(kinds)], names, '#/definitions/', false);
  definitions[names.meta('Status')] = statusDefinition();
  const paths = pathsObject(kinds, false, (item, op) => v2Operation(item, op, names));
  return {
    swagger: '2.0',
    info,
    paths,
    definitions,
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

function v3Operation(item: PathItem, op: Operation, names: DefinitionNames): JsonObject {
  const ref = responseRef(names, item.kind, op.responseKind, '#/components/schemas/');
  const content = (schema: JsonObject) => ({
    'application/json': { schema },
    'application/yaml': { schema },
  });
  const out: JsonObject = {
    description: op.description,
    operationId: op.operationId,
    parameters: op.query.map((q) => ({
      name: q,
      in: 'query',
      description: QUERY_PARAMS[q]?.description ?? '',
      schema: { type: QUERY_PARAMS[q]?.type ?? 'string', uniqueItems: true },
    })),
    responses: {
      '200': { description: 'OK', content: content({ $ref: ref }) },
      ...(op.method === 'post' ? { '201': { description: 'Created', content: content({ $ref: ref }) } } : {}),
      '401': { description: 'Unauthorized' },
    },
    [ACTION_KEY]: op.action,
    ...gvkExtension(item.kind),
  };
  if (op.hasBody) {
    const schema =
      op.method === 'patch'
        ? { type: 'object' }
        : { $ref: responseRef(names, item.kind, item.kind.resource.kind, '#/components/schemas/') };
    out.requestBody =
      op.method === 'patch'
        ? {
            content: {
              'application/json-patch+json': { schema },
              'application/merge-patch+json': { schema },
              'application/strategic-merge-patch+json': { schema },
              'application/apply-patch+yaml': { schema },
            },
            required: true,
          }
        : { content: { '*/*': { schema } }, required: true };
  }
  return out;
}

/** The path segment a group-version document is served under: `api/v1`, `apis/<group>/<version>`. */
export function groupVersionPath(k: KindDefinition): string {
  return k.resource.group === ''
    ? `api/${k.resource.version}`
    : `apis/${k.resource.group}/${k.resource.version}`;
}

export function openApiV3Document(
  kinds: readonly KindDefinition[],
  profile: NamingProfile,
  gvPath: string,
): JsonObject | undefined {
  const selected = kinds.filter((k) => groupVersionPath(k) === gvPath);
  if (selected.length === 0) return undefined;
  const names = new DefinitionNames(profile);
  const schemas = definitionsFor([...selected, ...viewKinds(selected)], names, '#/components/schemas/', true);
  schemas[names.meta('Status')] = statusDefinition();
  const paths = pathsObject(selected, true, (item, op) => v3Operation(item, op, names));
  return {
    openapi: '3.0.0',
    info: { title: groupVersionOf(selected[0].resource), version: selected[0].resource.version },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
  };
}

/** The index: each group-version's document URL carries a hash of its content, as upstream's do. */
export function openApiV3Index(kinds: readonly KindDefinition[], profile: NamingProfile): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const gv of new Set(kinds.map(groupVersionPath))) {
    const doc = openApiV3Document(kinds, profile, gv);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
    paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
  }
  return { paths };
}
