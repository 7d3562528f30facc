// From an ownerReference's apiVersion and kind to the resource to call, as client-go's REST mapper
// built from discovery: every served version counts (an owner may be named in a version that is
// not the preferred one), and under a profile that renames groups the upstream name of a group
// maps as its canonical name does, since the server serves both. Which resources the collector
// watches is also decided here: preferred versions that can be listed, watched and deleted, less
// the ignored ones (GCIgnoredResources).

import type { GroupVersionResource } from '../../client/api.ts';
import type { DiscoveredResource, DiscoveryResult } from '../../client/discovery.ts';
import { type NamingProfile, sameGroup, upstreamGroupAlias } from '../../naming/index.ts';
import { groupOf } from './graph.ts';

export interface ResourceMapping {
  gvr: GroupVersionResource;
  kind: string;
  namespaced: boolean;
}

/** upstream's restMappingError: a reference to a type the server does not serve (yet). */
export class RestMappingError extends Error {
  constructor(apiVersion: string, kind: string) {
    const vk = `${apiVersion}/${kind}`;
    super(
      `unable to get REST mapping for ${vk}.  If ${vk} is an invalid resource, then you should manually remove ownerReferences that refer ${vk} objects.`,
    );
    this.name = 'RestMappingError';
  }
}

export interface IgnoredResource {
  Group: string;
  Resource: string;
}

export class RestMapper {
  private readonly byKind = new Map<string, ResourceMapping>();

  constructor(
    discovered: readonly DiscoveredResource[],
    private readonly profile: NamingProfile,
  ) {
    for (const r of discovered) {
      const mapping: ResourceMapping = {
        gvr: { group: r.group, version: r.version, resource: r.resource },
        kind: r.kind,
        namespaced: r.namespaced,
      };
      this.byKind.set(key(r.group, r.version, r.kind), mapping);
      const alias = upstreamGroupAlias(profile, r.group);
      if (alias !== undefined) this.byKind.set(key(alias, r.version, r.kind), mapping);
    }
  }

  static fromDiscovery(result: DiscoveryResult, profile: NamingProfile): RestMapper {
    return new RestMapper(result.resources, profile);
  }

  /** The resource of `kind` in `apiVersion`; throws RestMappingError when it is not served. */
  mapping(apiVersion: string, kind: string): ResourceMapping {
    const i = apiVersion.lastIndexOf('/');
    const version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
    const m = this.byKind.get(key(groupOf(apiVersion), version, kind));
    if (m === undefined) throw new RestMappingError(apiVersion, kind);
    return m;
  }

  /** Whether `group` names `other` under this profile (equal, or the upstream alias). */
  sameGroup(group: string, other: string): boolean {
    return sameGroup(this.profile, group, other);
  }
}

function key(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

/**
 * The resources the collector follows: the preferred version of each, when it supports list,
 * watch and delete, and is not ignored (an ignored group may be named by its upstream alias).
 */
export function deletableResources(
  result: DiscoveryResult,
  ignored: readonly IgnoredResource[],
  profile: NamingProfile,
): DiscoveredResource[] {
  return result.resources.filter(
    (r) =>
      r.preferred &&
      ['list', 'watch', 'delete'].every((v) => r.verbs.includes(v)) &&
      !ignored.some((i) => i.Resource === r.resource && sameGroup(profile, i.Group, r.group)),
  );
}
