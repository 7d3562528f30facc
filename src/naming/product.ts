// The product's display word: what `--version` prints before the version (`<Product> v1.35.0`).
// Under the upstream profile it is upstream's own program name.

import type { NamingProfile } from './profile.ts';

export function productName(profile: NamingProfile): string {
  return profile.name === 'upstream' ? 'Kubernetes' : 'Platform';
}
