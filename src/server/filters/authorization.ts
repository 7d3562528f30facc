// May they: the authorizer chain gets the full attribute set of the request; anything but an
// allow is a 403 naming what was denied, or a 500 when an authorizer could not decide (a webhook
// down), as upstream answers: the decision is looked at before the error.

import { selectorAttributes } from '../../auth/authz/selectors.ts';
import type { Authorizer } from '../../auth/authz/types.ts';
import { forbiddenByAuthorization, internalError } from '../../machinery/status.ts';
import type { Filter } from '../context.ts';

export function authorization(authorizer: Authorizer): Filter {
  return async (ctx, next) => {
    const info = ctx.info;
    const user = ctx.user ?? { username: '', groups: [] };
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
    if (verdict.decision !== 'allow') {
      if (verdict.error !== undefined) throw internalError(verdict.error);
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
    await next();
  };
}
