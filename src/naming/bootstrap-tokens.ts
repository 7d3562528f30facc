// The Secret type of bootstrap tokens: `bootstrap.<label domain>/token` (upstream
// `bootstrap.kubernetes.io/token`), read by the authenticator and checked on write.

import type { NamingProfile } from './profile.ts';

export function bootstrapTokenSecretType(profile: NamingProfile): string {
  return `bootstrap.${profile.labelDomain}/token`;
}
