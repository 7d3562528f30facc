// Well-known Node taint keys under the profile's label domain (upstream's `node.kubernetes.io/...`).

import type { NamingProfile } from './profile.ts';

/** Set by an administrator on a node that is shut down: its Pods may be removed without waiting. */
export function outOfServiceTaintKey(profile: NamingProfile): string {
  return `node.${profile.labelDomain}/out-of-service`;
}
