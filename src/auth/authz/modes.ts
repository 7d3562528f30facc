// --authorization-mode: the names the flag accepts and the chain they build.

import { alwaysAllow, alwaysDeny } from './always.ts';
import { authenticatedUsers } from './authenticated-users.ts';
import { discoveryInfo } from './discovery-info.ts';
import { privilegedGroups } from './privileged-groups.ts';
import { publicInfo } from './public-info.ts';
import type { Authorizer } from './types.ts';
import { AuthzChain } from './union.ts';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

export function isAuthorizationMode(s: string): s is AuthorizationMode {
  return (AUTHORIZATION_MODES as readonly string[]).includes(s);
}

const BY_MODE: Record<AuthorizationMode, Authorizer> = {
  AlwaysAllow: alwaysAllow,
  AlwaysDeny: alwaysDeny,
};

/**
 * The chain for the modes given; none given (the default) lets authenticated users do anything
 * and anonymous ones read only health, version, discovery and OpenAPI.
 */
export function buildAuthorizer(modes: readonly AuthorizationMode[] | undefined): AuthzChain {
  if (modes === undefined) {
    return new AuthzChain([privilegedGroups(), publicInfo, discoveryInfo, authenticatedUsers]);
  }
  return new AuthzChain([privilegedGroups(), publicInfo, ...modes.map((m) => BY_MODE[m])]);
}
