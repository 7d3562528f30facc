// Health and version endpoints are readable by anyone, authenticated or not: load balancers and
// probes carry no credentials. Upstream grants the same through its public-info-viewer role.

import type { Authorizer } from './types.ts';

const PUBLIC_PATHS = ['/healthz', '/livez', '/readyz', '/version'];

function isPublic(path: string): boolean {
  return PUBLIC_PATHS.some((p) => path === p || path === `${p}/` || path.startsWith(`${p}/`));
}

export const publicInfo: Authorizer = {
  authorize: (a) =>
    !a.isResourceRequest && a.verb === 'get' && isPublic(a.path)
      ? { decision: 'allow', reason: '' }
      : { decision: 'noOpinion', reason: '' },
};
