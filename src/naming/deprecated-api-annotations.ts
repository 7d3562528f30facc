// The audit annotations a call to a deprecated API version carries. Upstream writes them under its
// own short domain (`k8s.io/deprecated`, `k8s.io/removed-release`); the spec renames that domain to
// the profile's label domain (`platform.io/deprecated`).

import type { NamingProfile } from './profile.ts';

/** Upstream's domain of the API server's audit annotations about deprecated APIs. */
const UPSTREAM_DOMAIN = 'k8s.io';

function domainOf(profile: NamingProfile): string {
  return profile.name === 'upstream' ? UPSTREAM_DOMAIN : profile.labelDomain;
}

/** The annotation set to "true" on calls to a deprecated version: `platform.io/deprecated`. */
export function deprecatedApiAnnotationKey(profile: NamingProfile): string {
  return `${domainOf(profile)}/deprecated`;
}

/** The annotation naming the release that removes the version (`1.25`): `platform.io/removed-release`. */
export function removedReleaseAnnotationKey(profile: NamingProfile): string {
  return `${domainOf(profile)}/removed-release`;
}
