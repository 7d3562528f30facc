// The default ClusterRoles (upstream's bootstrappolicy ClusterRoles() with kube-apiserver 1.35's
// default feature gates), each rule as upstream states it, names and groups through the naming
// profile (names.ts). Roles naming resources this server does not serve yet keep them: they are
// upstream's facts, and a resource added later is covered from its first day. Gated rules follow
// 1.35's defaults: KubeletFineGrainedAuthz and the service account token for credential providers
// on; ComponentStatusz (/statusz for system:monitoring) and DRAExtendedResource (the scheduler
// creating ResourceClaims) off.

import { eventsRule, type PolicyNames, READ, READ_WRITE, rule, urls, WRITE } from './names.ts';
import { clusterRole, type RoleObject } from './objects.ts';

export function defaultClusterRoles(n: PolicyNames): RoleObject[] {
  const g = n.group;
  const c = n.component;
  const agg = (name: 'admin' | 'edit' | 'view') => ({ [n.aggregateLabel(name)]: 'true' });
  const authn = g('authentication');
  const authz = g('authorization');
  const certs = g('certificates');
  const coord = g('coordination');
  const storage = g('storage');
  const resource = g('resource');
  const networking = g('networking');
  const events = g('events');
  const leaderElection = (component: string) => [
    rule(['create'], [coord], ['leases']),
    rule(['get', 'update'], [coord], ['leases'], [component]),
  ];
  const approver = (signer: string) => rule(['approve'], [certs], ['signers'], [n.signer(signer)]);
  const apiserverClient = `${c('apiserver')}-client`;

  return [
    clusterRole(n, { name: 'admin', aggregates: [agg('admin')] }),
    clusterRole(n, {
      name: 'cluster-admin',
      rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])],
    }),
    clusterRole(n, { name: 'edit', labels: agg('admin'), aggregates: [agg('edit')] }),
    clusterRole(n, {
      name: 'system:aggregate-to-admin',
      labels: agg('admin'),
      rules: [
        rule(['create'], [authz], ['localsubjectaccessreviews']),
        rule(READ_WRITE, [n.rbacGroup], ['roles', 'rolebindings']),
      ],
    }),
    clusterRole(n, {
      name: 'system:aggregate-to-edit',
      labels: agg('edit'),
      rules: [
        rule(
          READ,
          [''],
          ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'],
        ),
        rule(['impersonate'], [''], ['serviceaccounts']),
        rule(WRITE, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [''], ['pods/eviction']),
        rule(
          WRITE,
          [''],
          [
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/proxy',
            'persistentvolumeclaims',
            'configmaps',
            'secrets',
          ],
        ),
        rule(['create'], [''], ['serviceaccounts/token']),
        rule(WRITE, ['', events], ['events']),
        rule(
          WRITE,
          ['apps'],
          [
            'statefulsets',
            'statefulsets/scale',
            'daemonsets',
            'deployments',
            'deployments/scale',
            'deployments/rollback',
            'replicasets',
            'replicasets/scale',
          ],
        ),
        rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
        rule(WRITE, ['batch'], ['jobs', 'cronjobs']),
        rule(
          WRITE,
          ['extensions'],
          [
            'daemonsets',
            'deployments',
            'deployments/scale',
            'deployments/rollback',
            'ingresses',
            'replicasets',
            'replicasets/scale',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(WRITE, ['policy'], ['poddisruptionbudgets']),
        rule(WRITE, [networking], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, [coord], ['leases']),
        rule(WRITE, [resource], ['resourceclaims', 'resourceclaimtemplates']),
      ],
    }),
    clusterRole(n, {
      name: 'system:aggregate-to-view',
      labels: agg('view'),
      rules: [
        rule(
          READ,
          [''],
          [
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'configmaps',
          ],
        ),
        rule(
          READ,
          [''],
          [
            'limitranges',
            'resourcequotas',
            'bindings',
            'pods/status',
            'resourcequotas/status',
            'namespaces/status',
            'replicationcontrollers/status',
            'pods/log',
          ],
        ),
        // Reading namespaces at namespace scope means reading the namespace itself.
        rule(READ, [''], ['namespaces']),
        rule(READ, ['', events], ['events']),
        rule(READ, [g('discovery')], ['endpointslices']),
        rule(
          READ,
          ['apps'],
          [
            'controllerrevisions',
            'statefulsets',
            'statefulsets/status',
            'statefulsets/scale',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/status',
            'deployments/scale',
            'replicasets',
            'replicasets/status',
            'replicasets/scale',
          ],
        ),
        rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(
          READ,
          ['extensions'],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, [networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
        rule(READ, [resource], ['resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates']),
      ],
    }),
    clusterRole(n, {
      name: 'system:auth-delegator',
      rules: [
        rule(['create'], [authn], ['tokenreviews']),
        rule(['create'], [authz], ['subjectaccessreviews']),
      ],
    }),
    clusterRole(n, {
      name: 'system:basic-user',
      rules: [
        rule(['create'], [authz], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
        rule(['create'], [authn], ['selfsubjectreviews']),
      ],
    }),
    clusterRole(n, {
      name: `system:${certs}:certificatesigningrequests:nodeclient`,
      rules: [rule(['create'], [certs], ['certificatesigningrequests/nodeclient'])],
    }),
    clusterRole(n, {
      name: `system:${certs}:certificatesigningrequests:selfnodeclient`,
      rules: [rule(['create'], [certs], ['certificatesigningrequests/selfnodeclient'])],
    }),
    clusterRole(n, {
      name: `system:${certs}:${apiserverClient}-approver`,
      rules: [approver(apiserverClient)],
    }),
    clusterRole(n, {
      name: `system:${certs}:${apiserverClient}-${n.nodeAgent}-approver`,
      rules: [approver(`${apiserverClient}-${n.nodeAgent}`)],
    }),
    clusterRole(n, {
      name: `system:${certs}:${n.nodeAgent}-serving-approver`,
      rules: [approver(`${n.nodeAgent}-serving`)],
    }),
    clusterRole(n, { name: `system:${certs}:legacy-unknown-approver`, rules: [approver('legacy-unknown')] }),
    clusterRole(n, {
      name: 'system:discovery',
      rules: [
        urls(
          ['get'],
          [
            '/livez',
            '/readyz',
            '/healthz',
            '/version',
            '/version/',
            '/openapi',
            '/openapi/*',
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
          ],
        ),
      ],
    }),
    clusterRole(n, {
      name: 'system:heapster',
      rules: [
        rule(READ, [''], ['events', 'pods', 'nodes', 'namespaces']),
        rule(READ, ['extensions'], ['deployments']),
      ],
    }),
    clusterRole(n, {
      name: `system:${c('aggregator')}`,
      rules: [rule(READ, [''], ['endpoints', 'services'])],
    }),
    clusterRole(n, {
      name: `system:${c('controller-manager')}`,
      rules: [
        eventsRule(n),
        ...leaderElection(c('controller-manager')),
        rule(['create'], [''], ['secrets', 'serviceaccounts']),
        rule(['delete'], [''], ['secrets']),
        rule(['get'], [''], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
        rule(['update'], [''], ['secrets', 'serviceaccounts']),
        rule(['create'], [authn], ['tokenreviews']),
        rule(['create'], [authz], ['subjectaccessreviews']),
        // Its shared informers list and watch everything.
        rule(['list', 'watch'], ['*'], ['*']),
        rule(['create'], [''], ['serviceaccounts/token']),
      ],
    }),
    clusterRole(n, {
      name: `system:${c('dns')}`,
      rules: [rule(['list', 'watch'], [''], ['endpoints', 'services'])],
    }),
    clusterRole(n, { name: `system:${c('scheduler')}`, rules: schedulerRules(n) }),
    clusterRole(n, {
      name: `system:${n.nodeAgent}-api-admin`,
      rules: [
        rule(READ, [''], ['nodes']),
        rule(['proxy'], [''], ['nodes']),
        rule(['*'], [''], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
        rule(['*'], [''], ['nodes/pods', 'nodes/healthz', 'nodes/configz']),
      ],
    }),
    clusterRole(n, {
      name: 'system:monitoring',
      rules: [
        urls(
          ['get'],
          [
            '/metrics',
            '/metrics/slis',
            '/livez',
            '/readyz',
            '/healthz',
            '/livez/*',
            '/readyz/*',
            '/healthz/*',
          ],
        ),
        rule(['get'], [''], ['nodes/metrics']),
      ],
    }),
    clusterRole(n, { name: 'system:node', rules: nodeRules(n) }),
    clusterRole(n, {
      name: 'system:node-bootstrapper',
      rules: [rule(['create', 'get', 'list', 'watch'], [certs], ['certificatesigningrequests'])],
    }),
    clusterRole(n, {
      name: 'system:node-problem-detector',
      rules: [rule(['get'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), eventsRule(n)],
    }),
    clusterRole(n, {
      name: 'system:node-proxier',
      rules: [
        rule(['list', 'watch'], [''], ['services', 'endpoints']),
        rule(READ, [''], ['nodes']),
        eventsRule(n),
        rule(['list', 'watch'], [networking], ['servicecidrs']),
        rule(['list', 'watch'], [g('discovery')], ['endpointslices']),
      ],
    }),
    clusterRole(n, {
      name: 'system:persistent-volume-provisioner',
      rules: [
        rule(['get', 'list', 'watch', 'create', 'delete'], [''], ['persistentvolumes']),
        // update for binding, the rest to find claims to provision for.
        rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
        rule(READ, [storage], ['storageclasses']),
        rule(['watch'], [''], ['events']),
        eventsRule(n),
      ],
    }),
    clusterRole(n, {
      name: 'system:public-info-viewer',
      rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])],
    }),
    clusterRole(n, {
      name: 'system:service-account-issuer-discovery',
      rules: [
        urls(
          ['get'],
          [
            '/.well-known/openid-configuration',
            '/.well-known/openid-configuration/',
            '/openid/v1/jwks',
            '/openid/v1/jwks/',
          ],
        ),
      ],
    }),
    clusterRole(n, {
      name: 'system:volume-scheduler',
      rules: [
        rule(['get', 'list', 'watch', 'update', 'patch'], [''], ['persistentvolumes']),
        rule(READ, [storage], ['storageclasses']),
        rule(['get', 'list', 'watch', 'update', 'patch'], [''], ['persistentvolumeclaims']),
      ],
    }),
    clusterRole(n, { name: 'view', labels: agg('edit'), aggregates: [agg('view')] }),
  ];
}

function schedulerRules(n: PolicyNames) {
  const g = n.group;
  const coord = g('coordination');
  const storage = g('storage');
  const resource = g('resource');
  const scheduler = n.component('scheduler');
  return [
    eventsRule(n),
    rule(['create'], [coord], ['leases']),
    rule(['get', 'list', 'update', 'watch'], [coord], ['leases'], [scheduler]),
    rule(READ_WRITE, [coord], ['leasecandidates']),
    rule(READ, [''], ['nodes']),
    rule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
    rule(['create'], [''], ['pods/binding', 'bindings']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(READ, [''], ['replicationcontrollers', 'services']),
    rule(READ, ['apps', 'extensions'], ['replicasets']),
    rule(READ, ['apps'], ['statefulsets']),
    rule(READ, ['policy'], ['poddisruptionbudgets']),
    rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
    // Delegated authentication and authorization of its own endpoints.
    rule(['create'], [g('authentication')], ['tokenreviews']),
    rule(['create'], [g('authorization')], ['subjectaccessreviews']),
    rule(READ, [storage], ['csinodes']),
    rule(READ, [storage], ['volumeattachments']),
    rule(READ, [''], ['namespaces']),
    rule(READ, [storage], ['csidrivers']),
    rule(READ, [storage], ['csistoragecapacities']),
    rule(READ, [resource], ['deviceclasses']),
    rule(['get', 'list', 'watch', 'update', 'patch'], [resource], ['resourceclaims']),
    rule(['get', 'list', 'watch', 'update', 'patch'], [resource], ['resourceclaims/status']),
    rule(['update'], [''], ['pods/finalizers']),
    rule(READ, [resource], ['resourceslices']),
  ];
}

/** What a node agent needs; the Node authorizer and NodeRestriction narrow it to its own objects. */
function nodeRules(n: PolicyNames) {
  const g = n.group;
  const storage = g('storage');
  const resource = g('resource');
  return [
    rule(['create'], [g('authentication')], ['tokenreviews']),
    rule(['create'], [g('authorization')], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, [''], ['services']),
    rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    rule(['update', 'patch'], [''], ['nodes/status']),
    rule(['update', 'patch'], [''], ['nodes']),
    eventsRule(n),
    rule(READ, [''], ['pods']),
    rule(['create', 'delete'], [''], ['pods']),
    rule(['update', 'patch'], [''], ['pods/status']),
    rule(['create'], [''], ['pods/eviction']),
    rule(READ, [''], ['secrets', 'configmaps']),
    rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [''], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [g('certificates')], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [g('coordination')], ['leases']),
    rule(['get'], [storage], ['volumeattachments']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
    rule(READ, [storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [storage], ['csinodes']),
    rule(READ, [g('node')], ['runtimeclasses']),
    rule(['get'], [resource], ['resourceclaims']),
    rule(['deletecollection'], [resource], ['resourceslices']),
    rule(['get'], [''], ['serviceaccounts']),
  ];
}
