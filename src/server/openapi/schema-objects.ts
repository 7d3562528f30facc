// Kind schemas as OpenAPI schema objects: neutral markers become the extension keys clients read,
// refs point at definition names derived from the naming profile.

import { definitionDomain, OPENAPI_EXTENSIONS as X } from '../../naming/openapi-extensions.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';

/** What describing a kind needs: its names and its schema (sub-resource views have no more). */
export type DescribedKind = Pick<KindDefinition, 'resource' | 'schema'>;

import { META_DEFINITIONS } from '../../schema/meta.ts';
import type { SchemaNode } from '../../schema/types.ts';

export type JsonObject = Record<string, unknown>;

/** Names of definitions: `io.svc.api.core.v1.ConfigMap`, `io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
export class DefinitionNames {
  private readonly domain: string;
  constructor(profile: NamingProfile) {
    this.domain = definitionDomain(profile.groupDomain);
  }

  meta(name: string): string {
    return `${this.domain}.apimachinery.pkg.apis.meta.v1.${name}`;
  }

  kind(group: string, version: string, name: string): string {
    const g = group === '' ? 'core' : group.split('.')[0];
    return `${this.domain}.api.${g}.${version}.${name}`;
  }
}

/** Converts one node; `refOf` turns a definition name into a `$ref` target. */
export function toOpenApi(node: SchemaNode, refOf: (name: string) => string, v3: boolean): JsonObject {
  if (node.ref !== undefined) {
    const ref = { $ref: refOf(node.ref) };
    if (node.description === undefined) return ref;
    // A sibling of $ref is ignored by OpenAPI readers, so the description goes beside an allOf.
    return v3 ? { description: node.description, allOf: [ref] } : { ...ref, description: node.description };
  }
  const out: JsonObject = {};
  if (node.description !== undefined) out.description = node.description;
  if (node.type !== undefined) out.type = node.type;
  if (node.format !== undefined) out.format = node.format;
  if (node.enum !== undefined) out.enum = [...node.enum];
  if (node.default !== undefined) out.default = node.default;
  if (node.required !== undefined && node.required.length > 0) out.required = [...node.required];
  if (node.properties !== undefined) {
    const props: JsonObject = {};
    for (const [k, v] of Object.entries(node.properties)) props[k] = toOpenApi(v, refOf, v3);
    out.properties = props;
  }
  if (node.additionalProperties !== undefined)
    out.additionalProperties = toOpenApi(node.additionalProperties, refOf, v3);
  if (node.items !== undefined) out.items = toOpenApi(node.items, refOf, v3);
  if (node.intOrString) out[X.intOrString] = true;
  if (node.preserveUnknownFields) out[X.preserveUnknownFields] = true;
  if (node.embeddedResource) out[X.embeddedResource] = true;
  if (node.listType !== undefined) out[X.listType] = node.listType;
  if (node.listMapKeys !== undefined) out[X.listMapKeys] = [...node.listMapKeys];
  if (node.mapType !== undefined) out[X.mapType] = node.mapType;
  if (node.structType !== undefined) out[X.structType] = node.structType;
  if (node.patchStrategy !== undefined) out[X.patchStrategy] = node.patchStrategy;
  if (node.patchMergeKey !== undefined) out[X.patchMergeKey] = node.patchMergeKey;
  return out;
}

function gvkOf(k: DescribedKind, kind = k.resource.kind) {
  return { group: k.resource.group, kind, version: k.resource.version };
}

/** Every definition the kinds need (kinds, their lists, shared metadata), by definition name. */
export function definitionsFor(
  kinds: readonly DescribedKind[],
  names: DefinitionNames,
  refPrefix: string,
  v3: boolean,
): Record<string, JsonObject> {
  const defs: Record<string, JsonObject> = {};
  const kindLocal = new Map<string, string>();
  const refOfIn = (k: DescribedKind) => (name: string) => {
    if (META_DEFINITIONS[name] !== undefined) return `${refPrefix}${names.meta(name)}`;
    return `${refPrefix}${kindLocal.get(`${k.resource.group}/${k.resource.version}/${name}`) ?? names.kind(k.resource.group, k.resource.version, name)}`;
  };
  for (const [name, node] of Object.entries(META_DEFINITIONS)) {
    defs[names.meta(name)] = toOpenApi(node, (n) => `${refPrefix}${names.meta(n)}`, v3);
  }
  for (const k of kinds) {
    const { group, version, kind, listKind } = k.resource;
    const refOf = refOfIn(k);
    for (const [name, node] of Object.entries(k.schema.definitions)) {
      if (META_DEFINITIONS[name] !== undefined) continue;
      defs[names.kind(group, version, name)] = toOpenApi(node, refOf, v3);
    }
    const kindName = names.kind(group, version, kind);
    defs[kindName] = { ...toOpenApi(k.schema.root, refOf, v3), [X.groupVersionKind]: [gvkOf(k)] };
    // Sub-resource views (Scale) have no list of their own.
    if (listKind === '') continue;
    defs[names.kind(group, version, listKind)] = {
      description: `${listKind} is a list of ${kind} objects.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: {
          type: 'string',
          description: 'APIVersion defines the versioned schema of this representation of an object.',
        },
        kind: {
          type: 'string',
          description: 'Kind is a string value representing the REST resource this object represents.',
        },
        items: {
          type: 'array',
          description: `Items is the list of ${kind} objects.`,
          items: { $ref: `${refPrefix}${kindName}` },
        },
        metadata: v3
          ? {
              description: 'Standard list metadata.',
              allOf: [{ $ref: `${refPrefix}${names.meta('ListMeta')}` }],
            }
          : { $ref: `${refPrefix}${names.meta('ListMeta')}`, description: 'Standard list metadata.' },
      },
      [X.groupVersionKind]: [gvkOf(k, listKind)],
    };
  }
  return defs;
}
