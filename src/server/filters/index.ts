// The request filter chain, first to last, declared as one ordered array (DESIGN.md "Request
// path"). Request info is parsed before the chain runs (it is in the context from the start);
// audit, impersonation and the in-flight limit slot in here when they arrive.

import type { AuthnChain } from '../../auth/authn/union.ts';
import type { Authorizer } from '../../auth/authz/types.ts';
import type { Filter } from '../context.ts';
import { authentication } from './authentication.ts';
import { authorization } from './authorization.ts';
import { recovery } from './recovery.ts';
import { requestTimeout } from './timeout.ts';

export interface ChainDeps {
  authn: AuthnChain;
  authz: Authorizer;
  requestTimeoutMs: number;
}

export function buildFilterChain(deps: ChainDeps): Filter[] {
  return [
    recovery,
    requestTimeout(deps.requestTimeoutMs),
    authentication(deps.authn),
    authorization(deps.authz),
  ];
}
