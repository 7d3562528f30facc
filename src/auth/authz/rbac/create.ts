// createRbacAuthorizer: the one call the authorization modes make to get RBAC. It builds the
// index, starts the feed of the four kinds into it and hands back the authorizer, the rule
// resolver (SelfSubjectRulesReview, escalation checks) and the feed's lifecycle.

import { groupName, type NamingProfile, namingProfile } from '../../../naming/profile.ts';
import type { Authorizer } from '../types.ts';
import { RbacAuthorizer } from './authorizer.ts';
import { RbacIndex } from './policy-index.ts';
import type { RbacObjectSource, RuleResolver } from './types.ts';

export interface RbacAuthorizerHandle {
  authorizer: Authorizer;
  rules: RuleResolver;
  index: RbacIndex;
  /** Resolves once every kind was listed into the index (readiness waits on it). */
  synced: Promise<void>;
  stop(): void;
}

export interface RbacOptions {
  /** Names the RBAC group in NotFound messages; the spec profile by default. */
  profile?: NamingProfile;
  /** Upstream group names served as aliases, to the profile's names (ServedResources.groupAliases). */
  groupAliases?: ReadonlyMap<string, string>;
}

export function rbacGroup(profile: NamingProfile = namingProfile('spec')): string {
  return groupName(profile, 'rbac.authorization');
}

export function createRbacAuthorizer(
  source: RbacObjectSource,
  options: RbacOptions = {},
): RbacAuthorizerHandle {
  const group = rbacGroup(options.profile);
  const index = new RbacIndex(group, options.groupAliases);
  const rbac = new RbacAuthorizer(index, group);
  const feed = source.start(index);
  return { authorizer: rbac, rules: rbac, index, synced: feed.synced, stop: () => feed.stop() };
}
