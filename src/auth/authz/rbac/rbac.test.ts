// The RBAC decision matrix: users x verbs x resources x namespaces through the index, with
// wildcards, subresources, resourceNames, nonResourceURLs, RoleBinding -> ClusterRole scoping,
// service accounts and groups; upstream's allow reasons and resolution errors; index updates.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../authn/types.ts';
import type { Attributes } from '../types.ts';
import { createRbacAuthorizer } from './create.ts';
import { MemoryRbacSource } from './memory-source.ts';
import type { PolicyRule, RbacKind, RbacObject, Subject } from './types.ts';

const G = 'rbac.authorization.svc.io';

function role(ns: string, name: string, rules: PolicyRule[]): { kind: RbacKind; obj: RbacObject } {
  return { kind: 'Role', obj: { metadata: { name, namespace: ns }, rules } };
}
function clusterRole(name: string, rules: PolicyRule[]): { kind: RbacKind; obj: RbacObject } {
  return { kind: 'ClusterRole', obj: { metadata: { name }, rules } };
}
function rb(ns: string, name: string, roleKind: string, roleName: string, subjects: Subject[]) {
  return {
    kind: 'RoleBinding' as RbacKind,
    obj: {
      metadata: { name, namespace: ns },
      roleRef: { apiGroup: G, kind: roleKind, name: roleName },
      subjects,
    },
  };
}
function crb(name: string, roleName: string, subjects: Subject[]) {
  return {
    kind: 'ClusterRoleBinding' as RbacKind,
    obj: { metadata: { name }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: roleName }, subjects },
  };
}
const user = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: G, name });
const sa = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function u(username: string, groups: string[] = ['system:authenticated']): UserInfo {
  return { username, groups };
}

function res(
  who: UserInfo,
  verb: string,
  resource: string,
  ns = '',
  extra: Partial<Attributes> = {},
): Attributes {
  const [r, sub = ''] = resource.split('/');
  return {
    user: who,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: r,
    subresource: sub,
    namespace: ns,
    name: '',
    ...extra,
  };
}
function url(who: UserInfo, verb: string, path: string): Attributes {
  return { ...res(who, verb, ''), isResourceRequest: false, path };
}

function fixture() {
  const source = new MemoryRbacSource([
    clusterRole('admin-all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    clusterRole('pod-reader', [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] },
    ]),
    clusterRole('any-status', [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] }]),
    clusterRole('deploy-all-sub', [{ verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/*'] }]),
    clusterRole('named-cm', [
      {
        verbs: ['get', 'update', 'create', 'list'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['cfg'],
      },
    ]),
    clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }]),
    clusterRole('all-urls', [{ verbs: ['get', 'post'], nonResourceURLs: ['*'] }]),
    role('dev', 'secrets-rw', [{ verbs: ['get', 'create'], apiGroups: [''], resources: ['secrets'] }]),
    crb('root', 'admin-all', [user('root')]),
    crb('health', 'health', [group('system:authenticated')]),
    crb('urls', 'all-urls', [user('urlman')]),
    crb('status', 'any-status', [user('watcher')]),
    crb('deploy', 'deploy-all-sub', [user('deployer')]),
    rb('dev', 'readers', 'ClusterRole', 'pod-reader', [group('devs'), user('alice')]),
    rb('dev', 'secrets', 'Role', 'secrets-rw', [user('bob'), sa('builder')]),
    rb('dev', 'named', 'ClusterRole', 'named-cm', [user('carol')]),
    rb('prod', 'ci-reader', 'ClusterRole', 'pod-reader', [sa('ci', 'tools')]),
    rb('dev', 'dangling', 'Role', 'gone', [user('dave')]),
    crb('dangling', 'gone-too', [user('dave')]),
  ]);
  const h = createRbacAuthorizer(source);
  return { source, h, authz: h.authorizer };
}

describe('RBAC authorizer decisions', () => {
  const { authz } = fixture();
  const decide = (a: Attributes) => {
    const v = authz.authorize(a);
    return (v as { decision: string }).decision;
  };

  it('matches the decision matrix', () => {
    const alice = u('alice');
    const dev = u('eve', ['system:authenticated', 'devs']);
    const bob = u('bob');
    const carol = u('carol');
    const builder = u('system:serviceaccount:dev:builder', ['system:serviceaccounts']);
    const ci = u('system:serviceaccount:tools:ci', ['system:serviceaccounts']);
    const cases: [Attributes, string][] = [
      // cluster-wide wildcard: any verb, group, resource, namespace, subresource
      [res(u('root'), 'delete', 'nodes'), 'allow'],
      [res(u('root'), 'escalate', 'roles', 'x', { apiGroup: G }), 'allow'],
      [res(u('root'), 'get', 'pods/exec', 'kube'), 'allow'],
      // RoleBinding -> ClusterRole: only in the binding's namespace
      [res(alice, 'list', 'pods', 'dev'), 'allow'],
      [res(alice, 'get', 'pods/log', 'dev'), 'allow'],
      [res(alice, 'get', 'pods/exec', 'dev'), 'noOpinion'],
      [res(alice, 'list', 'pods', 'prod'), 'noOpinion'],
      [res(alice, 'list', 'pods'), 'noOpinion'],
      [res(alice, 'delete', 'pods', 'dev'), 'noOpinion'],
      [res(alice, 'list', 'pods', 'dev', { apiGroup: 'apps' }), 'noOpinion'],
      // by group
      [res(dev, 'watch', 'pods', 'dev'), 'allow'],
      [res(dev, 'watch', 'pods', 'prod'), 'noOpinion'],
      // Role in the namespace
      [res(bob, 'create', 'secrets', 'dev'), 'allow'],
      [res(bob, 'list', 'secrets', 'dev'), 'noOpinion'],
      [res(bob, 'get', 'secrets', 'prod'), 'noOpinion'],
      // service account without namespace in the subject: the binding's namespace
      [res(builder, 'get', 'secrets', 'dev', { name: 's' }), 'allow'],
      [res(u('system:serviceaccount:prod:builder'), 'get', 'secrets', 'dev'), 'noOpinion'],
      // service account of another namespace, bound in prod
      [res(ci, 'get', 'pods', 'prod'), 'allow'],
      [res(ci, 'get', 'pods', 'tools'), 'noOpinion'],
      // */status and resource/*
      [res(u('watcher'), 'get', 'deployments/status', 'a', { apiGroup: 'apps' }), 'allow'],
      [res(u('watcher'), 'get', 'deployments', 'a', { apiGroup: 'apps' }), 'noOpinion'],
      [res(u('watcher'), 'get', 'pods/statusx', 'a'), 'noOpinion'],
      [res(u('deployer'), 'update', 'deployments/*', 'a', { apiGroup: 'apps' }), 'allow'],
      [res(u('deployer'), 'update', 'deployments/scale', 'a', { apiGroup: 'apps' }), 'noOpinion'],
      // resourceNames: the name must match; requests without a name (create, list) never do
      [res(carol, 'get', 'configmaps', 'dev', { name: 'cfg' }), 'allow'],
      [res(carol, 'update', 'configmaps', 'dev', { name: 'cfg' }), 'allow'],
      [res(carol, 'get', 'configmaps', 'dev', { name: 'other' }), 'noOpinion'],
      [res(carol, 'create', 'configmaps', 'dev'), 'noOpinion'],
      [res(carol, 'list', 'configmaps', 'dev'), 'noOpinion'],
      // non-resource URLs: exact and prefix*
      [url(alice, 'get', '/healthz'), 'allow'],
      [url(alice, 'get', '/healthz/etcd'), 'noOpinion'],
      [url(alice, 'get', '/logs/'), 'allow'],
      [url(alice, 'get', '/logs/kube.log'), 'allow'],
      [url(alice, 'post', '/healthz'), 'noOpinion'],
      [url(u('anon', ['system:unauthenticated']), 'get', '/healthz'), 'noOpinion'],
      [url(u('urlman'), 'post', '/anything/at/all'), 'allow'],
      // a resource rule never allows a URL, nor a URL rule a resource
      [url(u('root', []), 'get', '/healthz'), 'noOpinion'],
      [res(u('urlman', []), 'get', 'pods', 'dev'), 'noOpinion'],
    ];
    for (const [a, want] of cases) {
      const label = `${a.user.username} ${a.verb} ${a.isResourceRequest ? `${a.apiGroup}/${a.resource}/${a.subresource}:${a.name}@${a.namespace}` : a.path}`;
      assert.equal(decide(a), want, label);
    }
  });

  it('names the binding, role and subject that allowed', () => {
    assert.deepEqual(authz.authorize(res(u('root'), 'get', 'pods')), {
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "root" of ClusterRole "admin-all" to User "root"',
    });
    assert.deepEqual(authz.authorize(res(u('eve', ['devs']), 'get', 'pods', 'dev')), {
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "readers/dev" of ClusterRole "pod-reader" to Group "devs"',
    });
    assert.deepEqual(authz.authorize(res(u('system:serviceaccount:dev:builder'), 'get', 'secrets', 'dev')), {
      decision: 'allow',
      reason:
        'RBAC: allowed by RoleBinding "secrets/dev" of Role "secrets-rw" to ServiceAccount "builder/dev"',
    });
  });

  it('has no opinion on a denial, naming roles that did not resolve', () => {
    assert.deepEqual(authz.authorize(res(u('nobody'), 'get', 'pods', 'dev')), {
      decision: 'noOpinion',
      reason: '',
    });
    assert.deepEqual(authz.authorize(res(u('dave'), 'get', 'pods')), {
      decision: 'noOpinion',
      reason: `RBAC: clusterrole.${G} "gone-too" not found`,
    });
    assert.deepEqual(authz.authorize(res(u('dave'), 'get', 'pods', 'dev')), {
      decision: 'noOpinion',
      reason: `RBAC: [clusterrole.${G} "gone-too" not found, role.${G} "gone" not found]`,
    });
  });
});

describe('RBAC rule resolver', () => {
  it('lists the rules of a user in a namespace, with resolution errors', () => {
    const { h } = fixture();
    const r = h.rules.rulesFor(u('alice'), 'dev');
    assert.deepEqual(r.resourceRules, [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [''],
        resources: ['pods', 'pods/log'],
        resourceNames: [],
      },
    ]);
    assert.deepEqual(r.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }]);
    assert.equal(r.incomplete, false);
    assert.equal(r.evaluationError, '');
    const d = h.rules.rulesFor(u('dave'), 'dev');
    assert.equal(d.evaluationError, `[clusterrole.${G} "gone-too" not found, role.${G} "gone" not found]`);
    assert.equal(h.rules.rulesFor(u('alice'), '').resourceRules.length, 0);
  });

  it('resolves role references, NotFound for missing roles', () => {
    const { h } = fixture();
    assert.deepEqual(h.rules.roleRefRules({ kind: 'Role', name: 'secrets-rw' }, 'dev'), [
      { verbs: ['get', 'create'], apiGroups: [''], resources: ['secrets'] },
    ]);
    assert.throws(
      () => h.rules.roleRefRules({ kind: 'ClusterRole', name: 'nope' }, ''),
      (e: { code?: number; message: string }) =>
        e.code === 404 && e.message === `clusterrole.${G} "nope" not found`,
    );
    assert.throws(() => h.rules.roleRefRules({ kind: 'Role', name: 'secrets-rw' }, ''), /not found/);
  });
});

describe('RBAC index updates', () => {
  it('follows adds, updates and deletes of all four kinds', () => {
    const { source, authz } = fixture();
    const frank = u('frank');
    const getCm = res(frank, 'get', 'configmaps', 'qa');
    const d = () => (authz.authorize(getCm) as { decision: string }).decision;
    assert.equal(d(), 'noOpinion');
    source.put(
      'Role',
      role('qa', 'cm', [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }]).obj,
    );
    source.put('RoleBinding', rb('qa', 'frank', 'Role', 'cm', [user('frank')]).obj);
    assert.equal(d(), 'noOpinion');
    // the role gains get
    source.put(
      'Role',
      role('qa', 'cm', [{ verbs: ['list', 'get'], apiGroups: [''], resources: ['configmaps'] }]).obj,
    );
    assert.equal(d(), 'allow');
    // the binding moves to another subject
    source.put('RoleBinding', rb('qa', 'frank', 'Role', 'cm', [user('gina')]).obj);
    assert.equal(d(), 'noOpinion');
    assert.equal((authz.authorize({ ...getCm, user: u('gina') }) as { decision: string }).decision, 'allow');
    source.delete('RoleBinding', rb('qa', 'frank', 'Role', 'cm', []).obj);
    assert.equal(
      (authz.authorize({ ...getCm, user: u('gina') }) as { decision: string }).decision,
      'noOpinion',
    );
    // cluster-wide: a ClusterRoleBinding, then its role removed
    source.put(
      'ClusterRole',
      clusterRole('cm-get', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]).obj,
    );
    source.put('ClusterRoleBinding', crb('frank', 'cm-get', [user('frank')]).obj);
    assert.equal(d(), 'allow');
    source.delete('ClusterRole', clusterRole('cm-get', []).obj);
    assert.deepEqual(authz.authorize(getCm), {
      decision: 'noOpinion',
      reason: `RBAC: clusterrole.${G} "cm-get" not found`,
    });
    source.delete('ClusterRoleBinding', crb('frank', 'cm-get', []).obj);
    assert.deepEqual(authz.authorize(getCm), { decision: 'noOpinion', reason: '' });
  });

  it('replaces a kind wholesale after a relist', () => {
    const { h, authz } = fixture();
    assert.equal((authz.authorize(res(u('root'), 'get', 'pods')) as { decision: string }).decision, 'allow');
    h.index.replace('ClusterRoleBinding', []);
    assert.equal(
      (authz.authorize(res(u('root'), 'get', 'pods')) as { decision: string }).decision,
      'noOpinion',
    );
    assert.equal(h.index.size().ClusterRoleBinding, 0);
  });

  it('ignores subjects it cannot match and a ClusterRoleBinding to a namespace-less service account', () => {
    const source = new MemoryRbacSource([
      clusterRole('all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
      crb('odd', 'all', [{ kind: 'Robot', name: 'r2' }, sa('ghost')]),
    ]);
    const { authorizer } = createRbacAuthorizer(source);
    for (const name of ['r2', 'system:serviceaccount::ghost', 'ghost'])
      assert.equal(
        (authorizer.authorize(res(u(name), 'get', 'pods', 'x')) as { decision: string }).decision,
        'noOpinion',
      );
  });
});

describe('RBAC with upstream group names as aliases', () => {
  const aliases = new Map([['coordination.k8s.io', 'coordination.svc.io']]);
  const source = new MemoryRbacSource([
    clusterRole('leases-upstream', [
      { verbs: ['get'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
    ]),
    clusterRole('leases-own', [
      { verbs: ['list'], apiGroups: ['coordination.svc.io'], resources: ['leases'] },
    ]),
    crb('a', 'leases-upstream', [user('ann')]),
    crb('b', 'leases-own', [user('ann')]),
  ]);
  const { authorizer } = createRbacAuthorizer(source, { groupAliases: aliases });
  const d = (verb: string, group: string) =>
    (authorizer.authorize(res(u('ann'), verb, 'leases', 'x', { apiGroup: group })) as { decision: string })
      .decision;

  it('matches a rule naming either name against a request naming either', () => {
    assert.equal(d('get', 'coordination.svc.io'), 'allow');
    assert.equal(d('get', 'coordination.k8s.io'), 'allow');
    assert.equal(d('list', 'coordination.k8s.io'), 'allow');
    assert.equal(d('list', 'coordination.svc.io'), 'allow');
    assert.equal(d('list', 'apps'), 'noOpinion');
  });
});
