// Discovery and OpenAPI documents are readable by anyone until RBAC brings its default policy:
// stock clients fetch them before anything else, and they describe the API, not its data.
// Upstream grants the same paths through its system:discovery role.

import type { Authorizer } from './types.ts';

/** Exact paths, and prefixes whose every sub-path is covered (upstream's `/apis/*` form). */
const EXACT = ['/api', '/apis', '/openapi/v2', '/openapi/v3'];
const UNDER = ['/api/', '/apis/', '/openapi/'];

function isDiscovery(path: string): boolean {
  return EXACT.includes(path) || UNDER.some((p) => path.startsWith(p));
}

export const discoveryInfo: Authorizer = {
  authorize: (a) =>
    !a.isResourceRequest && a.verb === 'get' && isDiscovery(a.path)
      ? { decision: 'allow', reason: '' }
      : { decision: 'noOpinion', reason: '' },
};
