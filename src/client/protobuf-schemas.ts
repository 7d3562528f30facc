// The schemas protobuf bodies need on the client side: every built-in kind (and its sub-resources'
// kinds), under the profile's group names and, for renamed groups, under upstream's too, since a
// protobuf body names the group of the path it was sent to. Loaded only when a client asks for
// protobuf, so JSON-only clients never load the API definitions.

import type { SchemaLookup } from '../codec/protobuf/index.ts';
import { upstreamGroupAlias } from '../naming/index.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { KindSchema } from '../schema/types.ts';

const cache = new Map<string, Promise<SchemaLookup>>();

/** The lookup for the built-in kinds under `profile` (built once per profile per process). */
export function builtinSchemaLookup(profile: NamingProfile): Promise<SchemaLookup> {
  let lookup = cache.get(profile.name);
  if (lookup === undefined) {
    lookup = build(profile);
    cache.set(profile.name, lookup);
  }
  return lookup;
}

async function build(profile: NamingProfile): Promise<SchemaLookup> {
  const { builtinKinds } = await import('../apis/index.ts');
  const { tokenRequestSchema } = await import('../apis/authentication/token-request.ts');
  const { groupName } = await import('../naming/profile.ts');
  const byType = new Map<string, KindSchema>();
  const key = (group: string, schema: KindSchema) =>
    `${group === '' ? schema.version : `${group}/${schema.version}`} ${schema.kind}`;
  const add = (schema: KindSchema) => {
    byType.set(key(schema.group, schema), schema);
    const alias = upstreamGroupAlias(profile, schema.group);
    // The same schema under the alias group (its accessors kept: schemas are class instances).
    if (alias !== undefined)
      byType.set(key(alias, schema), Object.create(schema, { group: { value: alias, enumerable: true } }));
  };
  for (const kind of builtinKinds(profile)) {
    add(kind.schema);
    for (const view of Object.values(kind.views ?? {})) add(view.schema);
    for (const action of Object.values(kind.actions ?? {}))
      for (const s of [action.schema, ...(action.aliases ?? [])]) add(s);
  }
  // The server adds ServiceAccount's `token` sub-resource when it wires its issuer, so the kind
  // list above lacks TokenRequest: controllers under --use-service-account-credentials ask for it.
  add(tokenRequestSchema(groupName(profile, 'authentication')));
  return (apiVersion, kind) => byType.get(`${apiVersion} ${kind}`);
}
