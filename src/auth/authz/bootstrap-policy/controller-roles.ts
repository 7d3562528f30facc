// The `system:controller:<name>` ClusterRoles and their bindings to the `<name>` service account in
// the system namespace (upstream's controller policy), used when the controller manager runs each
// controller under its own credentials. Controllers behind a feature gate are here when 1.35 turns
// the gate on by default (DynamicResourceAllocation, MultiCIDRServiceAllocator,
// VolumeAttributesClass, SELinuxChangePolicy) and absent when it does not (DRADeviceTaints,
// PodCertificateRequest, ClusterTrustBundle, StorageVersionAPI, StorageVersionMigrator).

import { eventsRule, type PolicyNames, type PolicyRule, READ, rule, serviceAccount } from './names.ts';
import { type BindingObject, clusterRole, clusterRoleBinding, type RoleObject } from './objects.ts';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** Each controller's name (as the controller manager knows it) and rules. */
function controllerRules(n: PolicyNames): [string, PolicyRule[]][] {
  const g = n.group;
  const ev = eventsRule(n);
  const storage = g('storage');
  const resource = g('resource');
  const certs = g('certificates');
  const networking = g('networking');
  const discovery = g('discovery');
  const apiserverClient = `${n.component('apiserver')}-client`;
  return [
    [
      'attachdetach-controller',
      [
        rule(['list', 'watch'], [''], ['persistentvolumes', 'persistentvolumeclaims']),
        rule(READ, [''], ['nodes']),
        rule(['patch', 'update'], [''], ['nodes/status']),
        rule(['list', 'watch'], [''], ['pods']),
        ev,
        rule(['get', 'create', 'delete', 'list', 'watch'], [storage], ['volumeattachments']),
        rule(READ, [storage], ['csidrivers']),
        rule(READ, [storage], ['csinodes']),
      ],
    ],
    [
      'clusterrole-aggregation-controller',
      // Full power over ClusterRoles, so that it may write any union of rules into them.
      [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [n.rbacGroup], ['clusterroles'])],
    ],
    [
      'cronjob-controller',
      [
        rule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
        rule(['update'], ['batch'], ['cronjobs/status']),
        rule(['update'], ['batch'], ['cronjobs/finalizers']),
        rule(['list', 'watch', 'delete'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'daemon-set-controller',
      [
        rule(READ, ['extensions', 'apps'], ['daemonsets']),
        rule(['update'], ['extensions', 'apps'], ['daemonsets/status']),
        rule(['update'], ['extensions', 'apps'], ['daemonsets/finalizers']),
        rule(['list', 'watch'], [''], ['nodes']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
        rule(['create'], [''], ['pods/binding']),
        rule(
          ['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'],
          ['apps'],
          ['controllerrevisions'],
        ),
        ev,
      ],
    ],
    [
      'deployment-controller',
      [
        rule(['get', 'list', 'watch', 'update'], ['extensions', 'apps'], ['deployments']),
        rule(['update'], ['extensions', 'apps'], ['deployments/status']),
        rule(['update'], ['extensions', 'apps'], ['deployments/finalizers']),
        rule(
          ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
          ['apps', 'extensions'],
          ['replicasets'],
        ),
        rule(['get', 'list', 'watch', 'update'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'disruption-controller',
      [
        rule(READ, ['extensions', 'apps'], ['deployments']),
        rule(READ, ['apps', 'extensions'], ['replicasets']),
        rule(READ, [''], ['replicationcontrollers']),
        rule(READ, ['policy'], ['poddisruptionbudgets']),
        rule(READ, ['apps'], ['statefulsets']),
        rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
        rule(['patch', 'update'], [''], ['pods/status']),
        rule(['get'], ['*'], ['*/scale']),
        ev,
      ],
    ],
    [
      'endpoint-controller',
      [
        rule(READ, [''], ['services', 'pods']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [''], ['endpoints']),
        rule(['create'], [''], ['endpoints/restricted']),
        ev,
      ],
    ],
    [
      'endpointslice-controller',
      [
        rule(READ, [''], ['services', 'pods', 'nodes']),
        // Owner references with blockOwnerDeletion on the Service need its finalizers.
        rule(['update'], [''], ['services/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
        ev,
      ],
    ],
    [
      'endpointslicemirroring-controller',
      [
        rule(READ, [''], ['services', 'endpoints']),
        rule(['update'], [''], ['services/finalizers']),
        rule(['update'], [''], ['endpoints/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
        ev,
      ],
    ],
    [
      'expand-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], [''], ['persistentvolumes']),
        rule(['update', 'patch'], [''], ['persistentvolumeclaims/status']),
        rule(READ, [''], ['persistentvolumeclaims']),
        ev,
        rule(['get'], [''], ['services']),
      ],
    ],
    [
      'ephemeral-volume-controller',
      [
        rule(READ, [''], ['pods']),
        rule(['update'], [''], ['pods/finalizers']),
        rule(['get', 'list', 'watch', 'create'], [''], ['persistentvolumeclaims']),
        ev,
      ],
    ],
    [
      'resource-claim-controller',
      [
        rule(READ, [''], ['pods']),
        rule(['update'], [''], ['pods/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'delete'], [resource], ['resourceclaims']),
        rule(['update', 'patch'], [resource], ['resourceclaims', 'resourceclaims/status']),
        rule(['update', 'patch'], [''], ['pods/status']),
        ev,
      ],
    ],
    [
      'generic-garbage-collector',
      [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), ev],
    ],
    [
      'horizontal-pod-autoscaler',
      [
        rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
        rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
        rule(['get', 'update'], ['*'], ['*/scale']),
        rule(['list', 'watch'], [''], ['pods']),
        rule(['list', 'watch'], [g('metrics')], ['pods']),
        rule(READ, [g('custom.metrics')], ['*']),
        rule(READ, [g('external.metrics')], ['*']),
        ev,
      ],
    ],
    [
      'job-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
        rule(['update'], ['batch'], ['jobs/status']),
        rule(['update'], ['batch'], ['jobs/finalizers']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'namespace-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [''], ['namespaces']),
        rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
        rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
      ],
    ],
    [
      'node-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'delete', 'patch'], [''], ['nodes']),
        rule(['patch', 'update'], [''], ['nodes/status']),
        rule(['patch', 'update'], [''], ['pods/status']),
        rule(['list', 'watch', 'get', 'delete'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'persistent-volume-binder',
      [
        rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [''], ['persistentvolumes']),
        rule(['update'], [''], ['persistentvolumes/status']),
        rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
        rule(['update'], [''], ['persistentvolumeclaims/status']),
        rule(['list', 'watch', 'get', 'create', 'delete'], [''], ['pods']),
        rule(READ, [storage], ['storageclasses']),
        rule(['list', 'watch'], [''], ['nodes']),
        ev,
        rule(['watch'], [''], ['events']),
        rule(['get'], [''], ['services']),
      ],
    ],
    [
      'pod-garbage-collector',
      [
        rule(['list', 'watch', 'delete'], [''], ['pods']),
        rule(READ, [''], ['nodes']),
        rule(['patch'], [''], ['pods/status']),
      ],
    ],
    [
      'replicaset-controller',
      [
        rule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['replicasets']),
        rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
        rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'replication-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
        rule(['update'], [''], ['replicationcontrollers/status']),
        rule(['update'], [''], ['replicationcontrollers/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
        ev,
      ],
    ],
    [
      'resourcequota-controller',
      // Quota counts anything, so it reads everything.
      [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), ev],
    ],
    [
      'route-controller',
      [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), ev],
    ],
    ['service-account-controller', [rule(['create'], [''], ['serviceaccounts']), ev]],
    [
      'service-controller',
      [
        rule(READ, [''], ['services']),
        rule(['patch', 'update'], [''], ['services/status']),
        rule(['list', 'watch'], [''], ['nodes']),
        ev,
      ],
    ],
    [
      'service-cidrs-controller',
      [
        rule(['get', 'list', 'watch', 'patch', 'update'], [networking], ['servicecidrs']),
        rule(['patch', 'update'], [networking], ['servicecidrs/finalizers']),
        rule(['patch', 'update'], [networking], ['servicecidrs/status']),
        rule(READ, [networking], ['ipaddresses']),
        ev,
      ],
    ],
    [
      'statefulset-controller',
      [
        rule(['list', 'watch'], [''], ['pods']),
        rule(READ, ['apps'], ['statefulsets']),
        rule(['update'], ['apps'], ['statefulsets/status']),
        rule(['update'], ['apps'], ['statefulsets/finalizers']),
        rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
        rule(
          ['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'],
          ['apps'],
          ['controllerrevisions'],
        ),
        rule(['get', 'create', 'list', 'watch'], [''], ['persistentvolumeclaims']),
        rule(['update', 'delete'], [''], ['persistentvolumeclaims']),
        rule(['update'], [''], ['pods/finalizers']),
        ev,
      ],
    ],
    ['ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [''], ['nodes']), ev]],
    [
      'certificate-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [certs], ['certificatesigningrequests']),
        rule(
          ['update'],
          [certs],
          ['certificatesigningrequests/status', 'certificatesigningrequests/approval'],
        ),
        rule(['approve'], [certs], ['signers'], [n.signer(`${apiserverClient}-${n.nodeAgent}`)]),
        rule(
          ['sign'],
          [certs],
          ['signers'],
          [
            n.signer('legacy-unknown'),
            n.signer(apiserverClient),
            n.signer(`${apiserverClient}-${n.nodeAgent}`),
            n.signer(`${n.nodeAgent}-serving`),
          ],
        ),
        rule(['create'], [g('authorization')], ['subjectaccessreviews']),
        ev,
      ],
    ],
    [
      'pvc-protection-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
        rule(READ, [''], ['pods']),
        ev,
      ],
    ],
    ['pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumes']), ev]],
    [
      'volumeattributesclass-protection-controller',
      [
        rule(READ, [''], ['persistentvolumeclaims']),
        rule(READ, [''], ['persistentvolumes']),
        rule(['get', 'list', 'watch', 'update'], [storage], ['volumeattributesclasses']),
        ev,
      ],
    ],
    ['ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], ['batch'], ['jobs']), ev]],
    ['root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), ev]],
    [
      'validatingadmissionpolicy-status-controller',
      [
        rule(READ, [g('admissionregistration')], ['validatingadmissionpolicies']),
        rule(
          ['get', 'patch', 'update'],
          [g('admissionregistration')],
          ['validatingadmissionpolicies/status'],
        ),
        ev,
      ],
    ],
    [
      'legacy-service-account-token-cleaner',
      [
        rule(
          ['get'],
          [''],
          ['configmaps'],
          [`${n.component('apiserver')}-legacy-service-account-token-tracking`],
        ),
        rule(['patch', 'delete'], [''], ['secrets']),
      ],
    ],
    [
      'selinux-warning-controller',
      [
        ev,
        rule(READ, [''], ['persistentvolumes']),
        rule(READ, [''], ['persistentvolumeclaims']),
        rule(READ, [''], ['pods']),
        rule(READ, [storage], ['csidrivers']),
      ],
    ],
  ];
}

export function defaultControllerRoles(n: PolicyNames): RoleObject[] {
  return controllerRules(n).map(([name, rules]) =>
    clusterRole(n, { name: CONTROLLER_ROLE_PREFIX + name, rules }),
  );
}

export function defaultControllerRoleBindings(n: PolicyNames): BindingObject[] {
  return controllerRules(n).map(([name]) =>
    clusterRoleBinding(n, CONTROLLER_ROLE_PREFIX + name, [serviceAccount(n.systemNamespace, name)]),
  );
}
