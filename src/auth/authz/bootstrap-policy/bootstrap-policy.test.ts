import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../../naming/profile.ts';
import { policyNames } from './names.ts';
import type { RoleObject } from './objects.ts';
import { defaultPolicy } from './policy.ts';
import { reconcileDefaultPolicy } from './reconcile.ts';
import { memoryPolicyStores } from './testing.ts';

const spec = namingProfile('spec');
const upstream = namingProfile('upstream');
const names = policyNames(spec);
const opts = { autoupdateAnnotation: names.autoupdateAnnotation };

function findRole(roles: RoleObject[], name: string): RoleObject {
  const r = roles.find((x) => x.metadata.name === name);
  assert.ok(r, `role ${name}`);
  return r;
}

describe('default policy data', () => {
  const p = defaultPolicy(upstream);
  const cr = (name: string) => findRole(p.clusterRoles, name);

  it('has every upstream default ClusterRole, ClusterRoleBinding and namespaced object', () => {
    const roleNames = new Set(p.clusterRoles.map((r) => r.metadata.name));
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
      'system:monitoring',
      'system:auth-delegator',
      'system:heapster',
      'system:kube-aggregator',
      'system:kube-controller-manager',
      'system:kube-dns',
      'system:kube-scheduler',
      'system:kubelet-api-admin',
      'system:node',
      'system:node-bootstrapper',
      'system:node-problem-detector',
      'system:node-proxier',
      'system:persistent-volume-provisioner',
      'system:service-account-issuer-discovery',
      'system:volume-scheduler',
      'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
      'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
      'system:certificates.k8s.io:kube-apiserver-client-approver',
      'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
      'system:certificates.k8s.io:kubelet-serving-approver',
      'system:certificates.k8s.io:legacy-unknown-approver',
      'system:controller:attachdetach-controller',
      'system:controller:clusterrole-aggregation-controller',
      'system:controller:generic-garbage-collector',
      'system:controller:namespace-controller',
      'system:controller:certificate-controller',
      'system:controller:selinux-warning-controller',
    ]) {
      assert.ok(roleNames.has(name), name);
    }
    const bindings = new Map(p.clusterRoleBindings.map((b) => [b.metadata.name, b]));
    assert.deepEqual(bindings.get('cluster-admin')?.subjects, [
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ]);
    assert.deepEqual(
      bindings.get('system:public-info-viewer')?.subjects?.map((s) => s.name),
      ['system:authenticated', 'system:unauthenticated'],
    );
    assert.equal(bindings.get('system:node')?.subjects, undefined);
    assert.deepEqual(bindings.get('system:controller:namespace-controller')?.subjects, [
      { kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' },
    ]);
    // Every controller role is bound to its service account.
    for (const r of p.clusterRoles.filter((x) => x.metadata.name.startsWith('system:controller:'))) {
      assert.ok(bindings.has(r.metadata.name), r.metadata.name);
    }
    assert.deepEqual(p.roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`).sort(), [
      'kube-public/system:controller:bootstrap-signer',
      'kube-system/extension-apiserver-authentication-reader',
      'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler',
      'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider',
      'kube-system/system:controller:token-cleaner',
    ]);
    assert.equal(p.roleBindings.length, 7);
  });

  it('marks every object with the bootstrapping label and autoupdate "true"', () => {
    for (const o of [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings]) {
      assert.equal(o.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
      assert.equal(o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
    }
  });

  it('keeps upstream rules: cluster-admin, discovery, public info, basic user, a controller', () => {
    assert.deepEqual(cr('cluster-admin').rules, [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    assert.deepEqual(cr('system:discovery').rules, [
      {
        verbs: ['get'],
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
      },
    ]);
    assert.deepEqual(cr('system:public-info-viewer').rules, [
      { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
    ]);
    assert.deepEqual(cr('system:basic-user').rules, [
      {
        verbs: ['create'],
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    assert.deepEqual(cr('system:controller:clusterrole-aggregation-controller').rules, [
      {
        verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'],
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
      },
    ]);
  });

  it('aggregates admin, edit and view through the aggregate-to-* labels', () => {
    const sel = (name: string) => cr(name).aggregationRule?.clusterRoleSelectors;
    assert.deepEqual(sel('view'), [
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    ]);
    assert.deepEqual(sel('edit'), [
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
    ]);
    assert.deepEqual(sel('admin'), [
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
    ]);
    assert.equal(cr('view').metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
    assert.equal(cr('edit').metadata.labels['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.deepEqual(cr('view').rules, []);
    assert.equal(
      cr('system:aggregate-to-view').metadata.labels['rbac.authorization.k8s.io/aggregate-to-view'],
      'true',
    );
  });

  it('names groups, components, namespaces and signers through the naming profile', () => {
    const s = defaultPolicy(spec);
    const all = JSON.stringify(s);
    assert.doesNotMatch(all, /k8s\.io|kubernetes\.io|kube-|kubelet/);
    const sr = (name: string) => findRole(s.clusterRoles, name);
    assert.ok(sr(`system:${names.component('controller-manager')}`));
    assert.equal(sr('view').metadata.labels[names.bootstrappingLabel], 'rbac-defaults');
    assert.deepEqual(sr('system:aggregate-to-admin').rules[1]?.apiGroups, [names.rbacGroup]);
    assert.ok(
      s.roles.every((r) =>
        [names.systemNamespace, names.publicNamespace].includes(r.metadata.namespace ?? ''),
      ),
    );
  });
});

describe('reconciling the default policy', () => {
  const policy = defaultPolicy(spec);
  const total =
    policy.clusterRoles.length +
    policy.clusterRoleBindings.length +
    policy.roles.length +
    policy.roleBindings.length;

  it('creates everything on the first start and writes nothing on the second', async () => {
    const stores = memoryPolicyStores();
    const first = await reconcileDefaultPolicy(stores, policy, opts);
    assert.equal(first.failed.length, 0);
    assert.equal(first.created.length, total);
    const versions = stores.all.map((s) => [...s.objects.values()].map((o) => o.metadata?.resourceVersion));
    const writes = stores.all.map((s) => s.writes);
    const second = await reconcileDefaultPolicy(stores, policy, opts);
    assert.deepEqual(second, { created: [], updated: [], skipped: [], failed: [] });
    assert.deepEqual(
      stores.all.map((s) => [...s.objects.values()].map((o) => o.metadata?.resourceVersion)),
      versions,
    );
    assert.deepEqual(
      stores.all.map((s) => s.writes),
      writes,
    );
  });

  it('re-adds a rule a user removed and keeps the rules a user added', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const basic = await stores.clusterroles.get('', 'system:basic-user');
    const extra = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
    basic.rules = [extra];
    stores.clusterroles.put('', basic);
    const report = await reconcileDefaultPolicy(stores, policy, opts);
    assert.deepEqual(report.updated, ['clusterrole system:basic-user']);
    const after = await stores.clusterroles.get('', 'system:basic-user');
    const rules = after.rules as { verbs: string[]; resources?: string[] }[];
    assert.deepEqual(rules[0], extra);
    const granted = rules.flatMap((r) => (r.resources ?? []).map((res) => `${r.verbs.join()}:${res}`));
    for (const want of [
      'create:selfsubjectaccessreviews',
      'create:selfsubjectrulesreviews',
      'create:selfsubjectreviews',
    ]) {
      assert.ok(granted.includes(want), want);
    }
    // And then it is stable again.
    const again = await reconcileDefaultPolicy(stores, policy, opts);
    assert.deepEqual(again.updated, []);
  });

  it('re-adds removed subjects and default labels, keeping what users added', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const b = await stores.clusterrolebindings.get('', 'system:public-info-viewer');
    b.subjects = [{ kind: 'User', apiGroup: names.rbacGroup, name: 'alice' }];
    b.metadata = { ...b.metadata, labels: { team: 'a' } };
    stores.clusterrolebindings.put('', b);
    await reconcileDefaultPolicy(stores, policy, opts);
    const after = await stores.clusterrolebindings.get('', 'system:public-info-viewer');
    assert.deepEqual(
      (after.subjects as { name: string }[]).map((s) => s.name),
      ['alice', 'system:authenticated', 'system:unauthenticated'],
    );
    assert.deepEqual(after.metadata?.labels, { team: 'a', [names.bootstrappingLabel]: 'rbac-defaults' });
  });

  it('leaves an object annotated autoupdate "false" alone', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const edit = await stores.clusterroles.get('', 'system:aggregate-to-edit');
    edit.rules = [];
    edit.metadata = { ...edit.metadata, annotations: { [names.autoupdateAnnotation]: 'false' } };
    stores.clusterroles.put('', edit);
    const rv = edit.metadata?.resourceVersion;
    const warnings: string[] = [];
    const report = await reconcileDefaultPolicy(stores, policy, { ...opts, warn: (m) => warnings.push(m) });
    assert.deepEqual(report.skipped, ['clusterrole system:aggregate-to-edit']);
    assert.equal(warnings.length, 1);
    const after = await stores.clusterroles.get('', 'system:aggregate-to-edit');
    assert.deepEqual(after.rules, []);
    assert.equal(after.metadata?.resourceVersion, rv);
  });

  it('keeps an aggregated role aggregated: selectors added, rules left to the aggregation', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const view = await stores.clusterroles.get('', 'view');
    const own = { matchLabels: { team: 'view-extras' } };
    view.aggregationRule = { clusterRoleSelectors: [own] };
    view.rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    stores.clusterroles.put('', view);
    await reconcileDefaultPolicy(stores, policy, opts);
    const after = await stores.clusterroles.get('', 'view');
    assert.deepEqual(after.aggregationRule, {
      clusterRoleSelectors: [own, { matchLabels: { [names.aggregateLabel('view')]: 'true' } }],
    });
    assert.deepEqual(after.rules, view.rules);
  });

  it('replaces a binding whose roleRef was changed', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const b = await stores.clusterrolebindings.get('', 'system:basic-user');
    b.roleRef = { apiGroup: names.rbacGroup, kind: 'ClusterRole', name: 'view' };
    stores.clusterrolebindings.put('', b);
    await reconcileDefaultPolicy(stores, policy, opts);
    const after = await stores.clusterrolebindings.get('', 'system:basic-user');
    assert.equal((after.roleRef as { name: string }).name, 'system:basic-user');
  });

  it('loses no concurrent change: the union is computed again on the object written over', async () => {
    const stores = memoryPolicyStores();
    await reconcileDefaultPolicy(stores, policy, opts);
    const role = await stores.clusterroles.get('', 'system:auth-delegator');
    role.rules = [];
    stores.clusterroles.put('', role);
    const concurrent = { verbs: ['list'], apiGroups: [''], resources: ['secrets'] };
    stores.clusterroles.beforeNextPatch = () => {
      const now = stores.clusterroles.objects.get('/system:auth-delegator');
      if (now !== undefined) stores.clusterroles.put('', { ...structuredClone(now), rules: [concurrent] });
    };
    await reconcileDefaultPolicy(stores, policy, opts);
    const after = await stores.clusterroles.get('', 'system:auth-delegator');
    const rules = after.rules as unknown[];
    assert.deepEqual(rules[0], concurrent);
    assert.equal(rules.length, 3);
  });

  it('retries a create that lost to another server creating the same object', async () => {
    const stores = memoryPolicyStores();
    const realCreate = stores.clusterroles.create.bind(stores.clusterroles);
    let raced = false;
    stores.clusterroles.create = async (ns, obj) => {
      if (!raced && obj.metadata?.name === 'cluster-admin') {
        raced = true;
        await realCreate(ns, { ...structuredClone(obj), rules: [] });
        throw Object.assign(new Error('exists'), { code: 409 });
      }
      return realCreate(ns, obj);
    };
    const report = await reconcileDefaultPolicy(stores, policy, opts);
    assert.equal(report.failed.length, 0);
    assert.ok(report.updated.includes('clusterrole cluster-admin'));
    const after = await stores.clusterroles.get('', 'cluster-admin');
    assert.equal((after.rules as unknown[]).length, 2);
  });
});
