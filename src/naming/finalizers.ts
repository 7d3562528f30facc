// Finalizer names the system itself puts on objects.

import type { NamingProfile } from './profile.ts';

/** The finalizer in a namespace's spec.finalizers that the namespace controller removes. */
export function namespaceFinalizer(profile: NamingProfile): string {
  return profile.name === 'upstream' ? 'kubernetes' : 'platform';
}
