// When RBAC decides, the server is ready only once its index holds the policy the start just
// reconciled: otherwise a client that waited for readiness (a test, a controller) could be denied
// by an index still catching up with the default roles. The index is caught up when it holds as
// many objects of each kind as the store had after the reconcile; a bound keeps a start whose
// objects vanish meanwhile from waiting for ever.

import type { RbacAuthorizerHandle } from '../auth/authz/rbac/create.ts';
import type { RbacKind } from '../auth/authz/rbac/types.ts';
import { groupName, type NamingProfile } from '../naming/profile.ts';
import type { ServedResources } from './served-resources.ts';

const RESOURCES: readonly [RbacKind, string][] = [
  ['Role', 'roles'],
  ['ClusterRole', 'clusterroles'],
  ['RoleBinding', 'rolebindings'],
  ['ClusterRoleBinding', 'clusterrolebindings'],
];

const BOUND_MS = 30_000;

export async function rbacCaughtUp(
  handle: RbacAuthorizerHandle,
  served: ServedResources,
  profile: NamingProfile,
): Promise<void> {
  await handle.synced;
  const group = groupName(profile, 'rbac.authorization');
  const want: Partial<Record<RbacKind, number>> = {};
  for (const [kind, resource] of RESOURCES) {
    const r = served.lookup(group, 'v1', resource);
    want[kind] = r === undefined ? 0 : (await r.store.list('')).items.length;
  }
  await new Promise<void>((resolve) => {
    const done = () => {
      off();
      clearTimeout(timer);
      resolve();
    };
    const check = () => {
      const size = handle.index.size();
      if (RESOURCES.every(([kind]) => size[kind] >= (want[kind] ?? 0))) done();
    };
    const timer = setTimeout(done, BOUND_MS);
    timer.unref();
    const off = handle.index.onChange(check);
    check();
  });
}
