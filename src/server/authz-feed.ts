// The RBAC index's feed inside the server: the four RBAC resources, followed by list and watch
// from the watch cache (served-feed.ts). A resource the server does not serve is simply empty.

import type { RbacKind, RbacObjectSource } from '../auth/authz/rbac/types.ts';
import { groupName, type NamingProfile } from '../naming/profile.ts';
import { followKinds } from './served-feed.ts';
import type { ServedResources } from './served-resources.ts';

const RESOURCES: readonly [RbacKind, string][] = [
  ['Role', 'roles'],
  ['ClusterRole', 'clusterroles'],
  ['RoleBinding', 'rolebindings'],
  ['ClusterRoleBinding', 'clusterrolebindings'],
];

export function servedRbacSource(
  served: ServedResources,
  profile: NamingProfile,
  log: (message: string) => void = () => {},
): RbacObjectSource {
  const group = groupName(profile, 'rbac.authorization');
  return {
    start(handlers) {
      const resources = RESOURCES.map(
        ([kind, resource]) => [kind, resource, served.lookup(group, 'v1', resource)] as const,
      );
      return followKinds('rbac feed', log, resources, handlers);
    },
  };
}
