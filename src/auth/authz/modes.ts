// --authorization-mode: the names the flag accepts (upstream's choices, in its order). The chain
// they build is config.ts's; buildAuthorizer is its short form for the modes that need no files.

import { buildAuthorization } from './config.ts';
import type { AuthzChain } from './union.ts';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

export function isAuthorizationMode(s: string): s is AuthorizationMode {
  return (AUTHORIZATION_MODES as readonly string[]).includes(s);
}

/**
 * The chain for the modes given; none given (the default) lets authenticated users do anything
 * and anonymous ones read only health, version, discovery and OpenAPI.
 */
export function buildAuthorizer(modes: readonly AuthorizationMode[] | undefined): AuthzChain {
  return buildAuthorization({ modes }).authorizer;
}
