// --authorization-mode: the names the flag accepts and the chain they build.

import { alwaysAllow, alwaysDeny } from './always.ts';
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

export function buildAuthorizer(modes: readonly AuthorizationMode[]): AuthzChain {
  return new AuthzChain([privilegedGroups(), publicInfo, ...modes.map((m) => BY_MODE[m])]);
}
