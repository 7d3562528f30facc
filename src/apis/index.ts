// API groups: one folder per group with its kinds' schemas, strategies and table columns, and the
// list of built-in kinds the server serves. Imports machinery/, naming/, schema/, codec/ and registry/.

import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { appsKinds } from './apps/index.ts';
import { authenticationKinds, type TokenReviewer } from './authentication/index.ts';
import { leaseKind } from './coordination/lease.ts';
import { coreKinds } from './core/index.ts';
import { rbacKinds } from './rbac/index.ts';

/** What kinds that answer rather than store need from the server, handed over once it has them. */
export interface BuiltinDeps {
  /** The server's token authenticators, for TokenReview. */
  tokenReviewer?: () => TokenReviewer | undefined;
}

/** Every built-in kind, Namespace first (the server bootstraps namespaces before anything else). */
export function builtinKinds(profile: NamingProfile, deps: BuiltinDeps = {}): KindDefinition[] {
  return [
    ...coreKinds(profile),
    leaseKind(profile),
    ...appsKinds,
    ...authenticationKinds(profile, deps.tokenReviewer),
    ...rbacKinds(profile),
  ];
}
