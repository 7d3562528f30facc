// API groups: one folder per group with its kinds' schemas, strategies and table columns, and the
// list of built-in kinds the server serves. Imports machinery/, naming/, schema/, codec/ and registry/.

import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { appsKinds } from './apps/index.ts';
import { authenticationKinds, type TokenReviewer } from './authentication/index.ts';
import { authorizationKinds, type ReviewAuthorizer, type ReviewRuleResolver } from './authorization/index.ts';
import { leaseKind } from './coordination/lease.ts';
import { coreKinds } from './core/index.ts';
import { eventsEventKind } from './events/index.ts';
import { rbacKinds } from './rbac/index.ts';

/** What kinds that answer rather than store need from the server, handed over once it has them. */
export interface BuiltinDeps {
  /** The server's token authenticators, for TokenReview. */
  tokenReviewer?: () => TokenReviewer | undefined;
  /** The server's authorizer chain, for the access reviews. */
  authorizer?: () => ReviewAuthorizer | undefined;
  /** What the chain can list of a user's rules, for SelfSubjectRulesReview. */
  ruleResolver?: () => ReviewRuleResolver | undefined;
}

/** Every built-in kind, Namespace first (the server bootstraps namespaces before anything else). */
export function builtinKinds(profile: NamingProfile, deps: BuiltinDeps = {}): KindDefinition[] {
  return [
    ...coreKinds(profile),
    leaseKind(profile),
    ...appsKinds,
    ...authenticationKinds(profile, deps.tokenReviewer),
    ...authorizationKinds(profile, { authorizer: deps.authorizer, ruleResolver: deps.ruleResolver }),
    ...rbacKinds(profile),
    eventsEventKind(profile),
  ];
}
