// Upstream group names as aliases. Stock clients hard-code upstream group names in commands and
// typed clients (`kubectl auth whoami` posts to authentication.<upstream domain>, client-go's leader
// election reads coordination.<upstream domain> Leases), so a profile that renames groups also
// answers under the upstream name (DESIGN.md, Naming). The mapping is the domain swap alone: every
// renamed group is `<base>.<groupDomain>`, and upstream names the same group `<base>.<its domain>`.

import { type NamingProfile, namingProfile } from './profile.ts';

const UPSTREAM_GROUP_DOMAIN = namingProfile('upstream').groupDomain;

/**
 * The upstream name of one of the profile's groups, when the profile renames it; undefined for
 * the core group, groups without a domain (`apps`) and every group under the upstream profile.
 */
export function upstreamGroupAlias(profile: NamingProfile, group: string): string | undefined {
  if (profile.groupDomain === UPSTREAM_GROUP_DOMAIN) return undefined;
  const suffix = `.${profile.groupDomain}`;
  if (!group.endsWith(suffix) || group.length === suffix.length) return undefined;
  return `${group.slice(0, -suffix.length)}.${UPSTREAM_GROUP_DOMAIN}`;
}

/** Whether two group names are one group under the profile: equal, or one the other's alias. */
export function sameGroup(profile: NamingProfile, a: string, b: string): boolean {
  return a === b || upstreamGroupAlias(profile, a) === b || upstreamGroupAlias(profile, b) === a;
}

/** Whether two apiVersions (`<group>/<version>`, or a bare version for the core group) name one type. */
export function sameApiVersion(profile: NamingProfile, a: string, b: string): boolean {
  if (a === b) return true;
  const i = a.lastIndexOf('/');
  const j = b.lastIndexOf('/');
  if (i < 0 || j < 0 || a.slice(i) !== b.slice(j)) return false;
  return sameGroup(profile, a.slice(0, i), b.slice(0, j));
}
