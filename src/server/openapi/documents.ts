// The Swagger 2.0 document (/openapi/v2) and the OpenAPI 3.0 documents, one per group-version
// (/openapi/v3/<api/v1|apis/g/v>), with the index that names each by a content hash.
//
// What stock kubectl reads (1.32 and 1.35): `create`/`apply` ask /openapi/v3 for the group-version
// document and look for a POST whose group-version-kind extension names the kind and whose
// parameters include `fieldValidation`; finding it, they leave field validation to the server.
// `explain` finds the schema in components.schemas by the same extension and prints descriptions.

import { createHash } from 'node:crypto';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { groupVersionOf } from '../../registry/resource.ts';
import { ACTION_KEY, gvkExtension, type Operation, type PathItem, pathItems, QUERY_PARAMS } from './paths.ts';
import { DefinitionNames, definitionsFor, type JsonObject } from './schema-objects.ts';

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

function responseRef(
  names: DefinitionNames,
  k: KindDefinition,
  responseKind: string,
  prefix: string,
): string {
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
  const definitions = definitionsFor(kinds, names, '#/definitions/', false);
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
  const schemas = definitionsFor(selected, names, '#/components/schemas/', true);
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
