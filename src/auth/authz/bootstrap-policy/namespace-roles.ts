// The Roles and RoleBindings upstream bootstraps in the system and public namespaces (namespace
// policy): reading the authentication ConfigMap, the bootstrap signer and token cleaner, and the
// leader election locks of the controller manager and the scheduler.

import { eventsRule, type PolicyNames, READ, rule, serviceAccount, user } from './names.ts';
import { type BindingObject, type RoleObject, role, roleBinding } from './objects.ts';

const CONTROLLER = 'system:controller:';

export function defaultNamespaceRoles(n: PolicyNames): RoleObject[] {
  const sys = n.systemNamespace;
  const c = n.component;
  return [
    role(n, sys, 'extension-apiserver-authentication-reader', [
      rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication']),
    ]),
    role(n, sys, `${CONTROLLER}bootstrap-signer`, [rule(READ, [''], ['secrets'])]),
    role(n, sys, `${CONTROLLER}cloud-provider`, [
      rule(['create', 'get', 'list', 'watch'], [''], ['configmaps']),
    ]),
    role(n, sys, `${CONTROLLER}token-cleaner`, [rule([...READ, 'delete'], [''], ['secrets']), eventsRule(n)]),
    role(n, sys, `system::leader-locking-${c('controller-manager')}`, [
      rule(['watch'], [''], ['configmaps']),
      rule(['get', 'update'], [''], ['configmaps'], [c('controller-manager')]),
      rule(['get', 'watch', 'list', 'create', 'update'], [n.group('coordination')], ['leases']),
    ]),
    role(n, sys, `system::leader-locking-${c('scheduler')}`, [
      rule(['watch'], [''], ['configmaps']),
      rule(['get', 'update'], [''], ['configmaps'], [c('scheduler')]),
    ]),
    role(n, n.publicNamespace, `${CONTROLLER}bootstrap-signer`, [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      eventsRule(n),
    ]),
  ];
}

export function defaultNamespaceRoleBindings(n: PolicyNames): BindingObject[] {
  const sys = n.systemNamespace;
  const rg = n.rbacGroup;
  const c = n.component;
  const cm = c('controller-manager');
  const sched = c('scheduler');
  return [
    roleBinding(
      n,
      sys,
      'system::extension-apiserver-authentication-reader',
      'extension-apiserver-authentication-reader',
      [user(`system:${cm}`, rg), user(`system:${sched}`, rg)],
    ),
    roleBinding(n, sys, `system::leader-locking-${cm}`, `system::leader-locking-${cm}`, [
      user(`system:${cm}`, rg),
      serviceAccount(sys, cm),
      serviceAccount(sys, 'leader-election-controller'),
    ]),
    roleBinding(n, sys, `system::leader-locking-${sched}`, `system::leader-locking-${sched}`, [
      user(`system:${sched}`, rg),
      serviceAccount(sys, sched),
    ]),
    roleBinding(n, sys, `${CONTROLLER}bootstrap-signer`, `${CONTROLLER}bootstrap-signer`, [
      serviceAccount(sys, 'bootstrap-signer'),
    ]),
    roleBinding(n, sys, `${CONTROLLER}cloud-provider`, `${CONTROLLER}cloud-provider`, [
      serviceAccount(sys, 'cloud-provider'),
    ]),
    roleBinding(n, sys, `${CONTROLLER}token-cleaner`, `${CONTROLLER}token-cleaner`, [
      serviceAccount(sys, 'token-cleaner'),
    ]),
    roleBinding(n, n.publicNamespace, `${CONTROLLER}bootstrap-signer`, `${CONTROLLER}bootstrap-signer`, [
      serviceAccount(sys, 'bootstrap-signer'),
    ]),
  ];
}
