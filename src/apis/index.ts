// API groups: one folder per group with its kinds' schemas, strategies and table columns, and the
// list of built-in kinds the server serves. Imports machinery/, naming/, schema/, codec/ and registry/.

import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { appsKinds } from './apps/index.ts';
import { leaseKind } from './coordination/lease.ts';
import { coreKinds } from './core/index.ts';

/** Every built-in kind, Namespace first (the server bootstraps namespaces before anything else). */
export function builtinKinds(profile: NamingProfile): KindDefinition[] {
  return [...coreKinds(profile), leaseKind(profile), ...appsKinds];
}
