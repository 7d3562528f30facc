// Every renamed group served a second time under its upstream name (DESIGN.md, Naming), as one
// mechanism for all groups: an alias kind is the canonical kind with the group swapped in its
// resource names and schema, served by a store over the canonical kind's keys. Objects are the same
// objects; whatever the store answers (objects, lists, watch events, errors) carries the group of
// the path that was asked. Aliases are advertised in discovery and OpenAPI after the canonical
// groups: clients that map kinds through discovery (kubectl apply of an upstream-named manifest,
// controller-runtime's REST mapper) need them there, and a bare resource name still resolves to
// the canonical group, listed first. Authorization and admission see the canonical group, so one
// role and one webhook rule govern both paths.

import { upstreamGroupAlias } from '../naming/group-aliases.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import type { KindSchema } from '../schema/types.ts';
import type { RequestInfo } from './request-info.ts';

/** A schema that answers to another group: everything else (validation, pruning, documents) is shared. */
function schemaInGroup(schema: KindSchema, group: string): KindSchema {
  return Object.create(schema, {
    group: { value: group, enumerable: true },
  }) as KindSchema;
}

/** The kind as its upstream-named alias serves it, or undefined when the profile keeps its group. */
export function aliasKind(profile: NamingProfile, kind: KindDefinition): KindDefinition | undefined {
  const group = upstreamGroupAlias(profile, kind.resource.group);
  if (group === undefined) return undefined;
  return {
    ...kind,
    resource: { ...kind.resource, group },
    schema: schemaInGroup(kind.schema, group),
  };
}

/**
 * The request as authorization and admission see it: a path under an alias names the canonical
 * group, and `pathGroup` keeps the alias so routing answers in it.
 */
export function resolveGroupAlias(info: RequestInfo, aliases: ReadonlyMap<string, string>): RequestInfo {
  if (!info.isResourceRequest || info.apiGroup === '') return info;
  const canonical = aliases.get(info.apiGroup);
  if (canonical === undefined) return info;
  return { ...info, apiGroup: canonical, pathGroup: info.apiGroup };
}
