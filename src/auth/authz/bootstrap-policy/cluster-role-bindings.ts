// The default ClusterRoleBindings (upstream's ClusterRoleBindings()): each binds the ClusterRole of
// its name. Users, groups and service accounts that name a component go through the profile.

import { group, type PolicyNames, serviceAccount, user } from './names.ts';
import { type BindingObject, clusterRoleBinding } from './objects.ts';

export function defaultClusterRoleBindings(n: PolicyNames): BindingObject[] {
  const rg = n.rbacGroup;
  const c = n.component;
  return [
    clusterRoleBinding(n, 'cluster-admin', [group('system:masters', rg)]),
    clusterRoleBinding(n, 'system:monitoring', [group('system:monitoring', rg)]),
    clusterRoleBinding(n, 'system:discovery', [group('system:authenticated', rg)]),
    clusterRoleBinding(n, 'system:basic-user', [group('system:authenticated', rg)]),
    clusterRoleBinding(n, 'system:public-info-viewer', [
      group('system:authenticated', rg),
      group('system:unauthenticated', rg),
    ]),
    clusterRoleBinding(n, 'system:node-proxier', [user(`system:${c('proxy')}`, rg)]),
    clusterRoleBinding(n, `system:${c('controller-manager')}`, [
      user(`system:${c('controller-manager')}`, rg),
    ]),
    clusterRoleBinding(n, `system:${c('dns')}`, [serviceAccount(n.systemNamespace, c('dns'))]),
    clusterRoleBinding(n, `system:${c('scheduler')}`, [user(`system:${c('scheduler')}`, rg)]),
    clusterRoleBinding(n, 'system:volume-scheduler', [user(`system:${c('scheduler')}`, rg)]),
    // Bound to no one: the Node authorizer grants nodes their access.
    clusterRoleBinding(n, 'system:node', []),
    clusterRoleBinding(n, 'system:service-account-issuer-discovery', [group('system:serviceaccounts', rg)]),
  ];
}
