// May they: the authorizer chain gets the full attribute set of the request; anything but an
// allow is a 403 naming what was denied, or a 500 when an authorizer could not decide (a webhook
// down), as upstream answers: the decision is looked at before the error. With audit on, the
// decision and the authorizer's reason are recorded as audit annotations under upstream's keys
// (`authorization.<group domain>/decision` and `/reason`); an authorizer error records the reason
// `internal error` alone, as upstream does.

import type { AuthorizationAttemptMetrics } from '../../auth/authz/metrics.ts';
import { selectorAttributes } from '../../auth/authz/selectors.ts';
import type { Authorizer } from '../../auth/authz/types.ts';
import { forbiddenByAuthorization, internalError } from '../../machinery/status.ts';
import { addAuditAnnotation, type Filter } from '../context.ts';

/** The audit annotation keys of the decision and its reason. */
export interface DecisionAnnotationKeys {
  decision: string;
  reason: string;
}

/** `authorization.<group domain>/decision` and `/reason` under the profile. */
export function decisionAnnotationKeys(authorizationGroup: string): DecisionAnnotationKeys {
  return { decision: `${authorizationGroup}/decision`, reason: `${authorizationGroup}/reason` };
}

/**
 * `annotate`: the keys when audit is on; without them nothing is recorded (no cost when off).
 * `attempts`: where each authorization's result and latency are counted.
 */
export function authorization(
  authorizer: Authorizer,
  annotate?: DecisionAnnotationKeys,
  attempts?: AuthorizationAttemptMetrics,
): Filter {
  return async (ctx, next) => {
    const info = ctx.info;
    const user = ctx.user ?? { username: '', groups: [] };
    const started = attempts === undefined ? 0 : performance.now();
    const verdict = await authorizer.authorize({
      user,
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      name: info.name,
      ...selectorAttributes(info.verb, ctx.query),
    });
    attempts?.record(verdict, (performance.now() - started) / 1000);
    if (verdict.decision !== 'allow') {
      if (verdict.error !== undefined) {
        if (annotate !== undefined) addAuditAnnotation(ctx, annotate.reason, 'internal error');
        throw internalError(verdict.error);
      }
      if (annotate !== undefined) {
        addAuditAnnotation(ctx, annotate.decision, 'forbid');
        addAuditAnnotation(ctx, annotate.reason, verdict.reason);
      }
      throw forbiddenByAuthorization(
        {
          user: user.username,
          verb: info.verb,
          resourceRequest: info.isResourceRequest,
          path: info.path,
          apiGroup: info.apiGroup,
          resource: info.resource,
          subresource: info.subresource,
          namespace: info.namespace,
          name: info.name,
        },
        verdict.reason,
      );
    }
    if (annotate !== undefined) {
      addAuditAnnotation(ctx, annotate.decision, 'allow');
      addAuditAnnotation(ctx, annotate.reason, verdict.reason);
    }
    await next();
  };
}
