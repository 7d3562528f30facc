// The request filter chain, first to last, declared as one ordered array (DESIGN.md "Request
// path"). Request info is parsed before the chain runs (it is in the context from the start);
// the in-flight limit slots in here when it arrives. Audit's Audit-ID comes first of all, as
// upstream's WithAuditInit is outermost; its failed-authentication audit wraps authentication.

import type { AuthnChain } from '../../auth/authn/union.ts';
import type { AuthorizationAttemptMetrics } from '../../auth/authz/metrics.ts';
import type { Authorizer } from '../../auth/authz/types.ts';
import type { AuditPipeline } from '../audit/pipeline.ts';
import type { Filter } from '../context.ts';
import { audit, auditInit, failedAuthenticationAudit } from './audit.ts';
import { authentication } from './authentication.ts';
import { authorization, decisionAnnotationKeys } from './authorization.ts';
import { impersonation } from './impersonation.ts';
import { recovery } from './recovery.ts';
import { requestTimeout } from './timeout.ts';

export interface ChainDeps {
  authn: AuthnChain;
  authz: Authorizer;
  requestTimeoutMs: number;
  /** The authentication group's name under the naming profile: uids and userextras are its resources. */
  authenticationGroup: string;
  /** The authorization filter's attempts and latency (authorization_attempts_total, ...). */
  authorizationAttempts?: AuthorizationAttemptMetrics;
  /** The server's audit, when on. */
  audit?: AuditPipeline;
  /** The authorization group's name under the naming profile: the decision annotations' domain. */
  authorizationGroup?: string;
}

export function buildFilterChain(deps: ChainDeps): Filter[] {
  const audited = deps.audit !== undefined && deps.authorizationGroup !== undefined;
  const chain: (Filter | undefined)[] = [
    auditInit(deps.audit),
    recovery,
    requestTimeout(deps.requestTimeoutMs),
    failedAuthenticationAudit(authentication(deps.authn), deps.audit),
    audit(deps.audit),
    impersonation(deps.authz, deps.authenticationGroup),
    authorization(
      deps.authz,
      audited ? decisionAnnotationKeys(deps.authorizationGroup as string) : undefined,
      deps.authorizationAttempts,
    ),
  ];
  return chain.filter((f): f is Filter => f !== undefined);
}
