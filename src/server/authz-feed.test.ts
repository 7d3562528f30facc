// The server's RBAC feed over real stores: the index starts with what is stored and follows
// creates, updates and deletes of the four kinds; decisions change accordingly.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rbacKinds } from '../apis/rbac/index.ts';
import { createRbacAuthorizer, type RbacAuthorizerHandle } from '../auth/authz/rbac/index.ts';
import type { Attributes } from '../auth/authz/types.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import { openSqliteStorage, type SqliteStorage } from '../storage/sqlite/index.ts';
import { servedRbacSource } from './authz-feed.ts';
import { ServedResources } from './served-resources.ts';

const profile = namingProfile('spec');
const G = groupName(profile, 'rbac.authorization');

const getPods: Attributes = {
  user: { username: 'alice', groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'dev',
  name: 'p',
};

describe('served RBAC feed', () => {
  let storage: SqliteStorage;
  let served: ServedResources;
  let rbac: RbacAuthorizerHandle;
  const store = (resource: string) => {
    const r = served.lookup(G, 'v1', resource);
    assert.ok(r, resource);
    return r.store;
  };
  /** Resolves once the decision for getPods is `want` (checked after every index change). */
  const decisionBecomes = (want: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if ((rbac.authorizer.authorize(getPods) as { decision: string }).decision === want) {
          off();
          resolve();
        }
      };
      const off = rbac.index.onChange(check);
      check();
    });

  before(async () => {
    storage = openSqliteStorage({ path: ':memory:' });
    served = new ServedResources(rbacKinds(profile), storage, profile);
    await store('clusterroles').create('', {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'pod-reader' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    });
    rbac = createRbacAuthorizer(servedRbacSource(served, profile), { profile });
    await rbac.synced;
  });
  after(async () => {
    rbac.stop();
    await storage.close();
  });

  it('starts from the stored objects and follows changes', async () => {
    assert.equal(rbac.index.size().ClusterRole, 1);
    const binding = {
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'alice', namespace: 'dev' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' },
      subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }],
    };
    await store('rolebindings').create('dev', binding);
    await decisionBecomes('allow');
    const role = await store('clusterroles').get('', 'pod-reader');
    await store('clusterroles').update('', 'pod-reader', {
      ...role,
      rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
    });
    await decisionBecomes('noOpinion');
    await store('roles').create('dev', {
      apiVersion: `${G}/v1`,
      kind: 'Role',
      metadata: { name: 'getter', namespace: 'dev' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    });
    await store('clusterrolebindings').create('', {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'alice-all' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' },
      subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }],
    });
    await store('rolebindings').delete('dev', 'alice');
    await store('rolebindings').create('dev', {
      ...binding,
      metadata: { name: 'alice2', namespace: 'dev' },
      roleRef: { apiGroup: G, kind: 'Role', name: 'getter' },
    });
    await decisionBecomes('allow');
    await store('roles').delete('dev', 'getter');
    await decisionBecomes('noOpinion');
    assert.deepEqual(rbac.index.size(), { Role: 0, ClusterRole: 1, RoleBinding: 1, ClusterRoleBinding: 1 });
    assert.equal(
      (rbac.authorizer.authorize(getPods) as { reason: string }).reason,
      `RBAC: role.${G} "getter" not found`,
    );
  });
});
