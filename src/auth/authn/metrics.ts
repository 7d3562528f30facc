// What the authentication metrics need from authentication itself: upstream's result labels and
// its folding of user names into a small label set (a handful of well-known identities by name,
// email-like names as one value, everything else as `other`). The request filter defines and
// records the metrics (src/server/filters/authentication.ts), in the registry the chain carries.

import { componentName, type NamingProfile, namingProfile } from '../../naming/profile.ts';

/** Upstream's result label: `error` when an authenticator failed on a credential, `failure` when none applied. */
export type AuthenticationResult = 'success' | 'failure' | 'error';

/**
 * Upstream's compressUsername: its well-known names kept (the system namespace under the
 * profile's name), `email_id` for anything with an `@`, `other` for the rest.
 */
export function usernameFolder(profile: NamingProfile = namingProfile('spec')): (username: string) => string {
  const known = new Set([
    'admin',
    'client',
    'kube_proxy',
    'kubelet',
    `system:serviceaccount:${componentName(profile, 'system')}:default`,
  ]);
  return (username) => {
    if (known.has(username)) return username;
    if (username.includes('@')) return 'email_id';
    return 'other';
  };
}
