// The product's display word: what `--version` prints before the version (`<Product> v1.35.0`).
// Under the upstream profile it is upstream's own program name.

import type { NamingProfile } from './profile.ts';

export function productName(profile: NamingProfile): string {
  return profile.name === 'upstream' ? 'Kubernetes' : 'Platform';
}

/**
 * The build-metadata word in /version's gitVersion (`v1.35.0+platform.0.1.0`), the way
 * distributions of the API mark their own release on upstream's (k3s's `+k3s1`).
 */
export const VERSION_BUILD_TAG = 'platform';
