// The request filter chain, first to last, declared as one ordered array (DESIGN.md "Request
// path"). Request info is parsed before the chain runs (it is in the context from the start);
// audit and the in-flight limit slot in here when they arrive.

import type { AuthnChain } from '../../auth/authn/union.ts';
import type { Authorizer } from '../../auth/authz/types.ts';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import type { Filter } from '../context.ts';
import { authentication } from './authentication.ts';
import { authorization } from './authorization.ts';
import { impersonation } from './impersonation.ts';
import { recovery } from './recovery.ts';
import { requestTimeout } from './timeout.ts';

export interface ChainDeps {
  authn: AuthnChain;
  authz: Authorizer;
  requestTimeoutMs: number;
  /** The authentication group's name under the naming profile: uids and userextras are its resources. */
  authenticationGroup: string;
  /** The server's metrics registry (authentication attempts and latency are recorded there). */
  metrics?: MetricsRegistry;
}

export function buildFilterChain(deps: ChainDeps): Filter[] {
  return [
    recovery,
    requestTimeout(deps.requestTimeoutMs),
    authentication(deps.authn),
    impersonation(deps.authz, deps.authenticationGroup),
    authorization(deps.authz),
  ];
}
