// Escalation prevention: roles need the writer's own permissions at that scope or `escalate`;
// bindings need the referenced role's permissions or `bind` (resourceNames restrict); the
// aggregationRule needs everything; system:masters passes; upstream's messages.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionAttributes } from '../../../admission/types.ts';
import type { UserInfo } from '../../authn/types.ts';
import { privilegedGroups } from '../privileged-groups.ts';
import { AuthzChain } from '../union.ts';
import { createRbacAuthorizer } from './create.ts';
import { confirmNoEscalation, rbacEscalationCheck } from './escalation.ts';
import { MemoryRbacSource } from './memory-source.ts';
import { compactRules, compactString, covers } from './rules.ts';
import type { PolicyRule, RbacKind, RbacObject } from './types.ts';

const G = 'rbac.authorization.svc.io';
const ref = (kind: string, name: string) => ({ apiGroup: G, kind, name });
const item = (kind: RbacKind, obj: RbacObject) => ({ kind, obj });

function setup() {
  const source = new MemoryRbacSource([
    item('ClusterRole', {
      metadata: { name: 'pod-reader' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    }),
    item('ClusterRole', {
      metadata: { name: 'pod-admin' },
      rules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods', 'pods/log'] }],
    }),
    item('ClusterRole', {
      metadata: { name: 'rbac-writer' },
      rules: [
        {
          verbs: ['create', 'update'],
          apiGroups: [G],
          resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'],
        },
      ],
    }),
    item('ClusterRole', {
      metadata: { name: 'binder' },
      rules: [{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['pod-admin'] }],
    }),
    item('ClusterRole', {
      metadata: { name: 'escalator' },
      rules: [{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }],
    }),
    item('ClusterRole', {
      metadata: { name: 'everything' },
      rules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
    }),
    item('ClusterRoleBinding', {
      metadata: { name: 'writers' },
      roleRef: ref('ClusterRole', 'rbac-writer'),
      subjects: [{ kind: 'Group', name: 'writers' }],
    }),
    item('RoleBinding', {
      metadata: { name: 'r', namespace: 'dev' },
      roleRef: ref('ClusterRole', 'pod-reader'),
      subjects: [{ kind: 'User', name: 'alice' }],
    }),
    item('RoleBinding', {
      metadata: { name: 'b', namespace: 'dev' },
      roleRef: ref('ClusterRole', 'binder'),
      subjects: [{ kind: 'User', name: 'binder' }],
    }),
    item('RoleBinding', {
      metadata: { name: 'e', namespace: 'dev' },
      roleRef: ref('ClusterRole', 'escalator'),
      subjects: [{ kind: 'User', name: 'esc' }],
    }),
    item('ClusterRoleBinding', {
      metadata: { name: 'root' },
      roleRef: ref('ClusterRole', 'everything'),
      subjects: [{ kind: 'User', name: 'root' }],
    }),
  ]);
  const rbac = createRbacAuthorizer(source);
  const chain = new AuthzChain([privilegedGroups(), rbac.authorizer]);
  const plugin = rbacEscalationCheck({ group: G, authorizer: () => chain, rules: () => rbac.rules });
  return { plugin, rbac };
}

const who = (username: string, ...groups: string[]): UserInfo => ({
  username,
  groups: [...groups, 'system:authenticated'],
});

function write(
  resource: string,
  ns: string,
  obj: RbacObject,
  user: UserInfo,
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
  oldObject?: RbacObject,
): AdmissionAttributes {
  return {
    operation,
    group: G,
    version: 'v1',
    resource,
    subresource: '',
    kind: '',
    namespace: ns,
    name: obj.metadata?.name ?? '',
    namespaced: ns !== '',
    object: obj as AdmissionAttributes['object'],
    oldObject: oldObject as AdmissionAttributes['oldObject'],
    user,
    dryRun: false,
  };
}

async function rejection(p: Promise<void>): Promise<{ code: number; message: string } | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return { code: (err as { code: number }).code, message: (err as Error).message };
  }
}

const podRole = (name: string, rules: PolicyRule[]) => ({ metadata: { name, namespace: 'dev' }, rules });

describe('role escalation', () => {
  it('allows a role within the writer’s own permissions at that scope', async () => {
    const { plugin } = setup();
    const alice = who('alice', 'writers');
    await plugin.validate(
      write('roles', 'dev', podRole('r1', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), alice),
    );
  });

  it('refuses permissions not held, listing them as upstream', async () => {
    const { plugin } = setup();
    const alice = who('alice', 'writers');
    const obj = podRole('r2', [
      { verbs: ['get', 'delete', 'patch'], apiGroups: [''], resources: ['pods', 'secrets'] },
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    ]);
    assert.deepEqual(await rejection(plugin.validate(write('roles', 'dev', obj, alice))), {
      code: 403,
      message:
        `roles.${G} "r2" is forbidden: user "alice" (groups=["writers" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "patch"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "patch"]}',
    });
    // the same rules elsewhere: alice holds pods only in dev
    const other = { ...podRole('r3', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]) };
    other.metadata.namespace = 'prod';
    assert.equal((await rejection(plugin.validate(write('roles', 'prod', other, alice))))?.code, 403);
  });

  it('lets `escalate` on roles and system:masters through', async () => {
    const { plugin } = setup();
    const big = podRole('big', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    await plugin.validate(write('roles', 'dev', big, who('esc', 'writers')));
    assert.equal(
      (await rejection(plugin.validate(write('roles', 'prod', big, who('esc', 'writers')))))?.code,
      403,
    );
    await plugin.validate(write('roles', 'dev', big, who('admin', 'system:masters')));
  });

  it('lets an update that only changes owners and finalizers through', async () => {
    const { plugin } = setup();
    const big = podRole('big', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    const updated = { ...big, metadata: { ...big.metadata, finalizers: ['x'], resourceVersion: '9' } };
    await plugin.validate(write('roles', 'dev', updated, who('nobody'), 'UPDATE', big));
    const changed = { ...updated, metadata: { ...updated.metadata, labels: { a: 'b' } } };
    assert.equal(
      (await rejection(plugin.validate(write('roles', 'dev', changed, who('nobody'), 'UPDATE', big))))?.code,
      403,
    );
  });

  it('needs everything for an aggregationRule', async () => {
    const { plugin } = setup();
    const agg = {
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
      rules: [],
    };
    assert.deepEqual(
      await rejection(plugin.validate(write('clusterroles', '', agg, who('alice', 'writers')))),
      {
        code: 403,
        message: `clusterroles.${G} "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
      },
    );
    await plugin.validate(write('clusterroles', '', agg, who('root')));
  });
});

describe('binding escalation', () => {
  it('allows binding a role whose permissions the writer holds there', async () => {
    const { plugin } = setup();
    const b = {
      metadata: { name: 'x', namespace: 'dev' },
      roleRef: ref('ClusterRole', 'pod-reader'),
      subjects: [{ kind: 'User', name: 'z' }],
    };
    await plugin.validate(write('rolebindings', 'dev', b, who('alice', 'writers')));
    const crb = { metadata: { name: 'x' }, roleRef: ref('ClusterRole', 'pod-reader'), subjects: [] };
    assert.deepEqual(
      await rejection(plugin.validate(write('clusterrolebindings', '', crb, who('alice', 'writers')))),
      {
        code: 403,
        message:
          `clusterrolebindings.${G} "x" is forbidden: user "alice" (groups=["writers" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
      },
    );
  });

  it('allows `bind` on the named role only', async () => {
    const { plugin } = setup();
    const binder = who('binder', 'writers');
    const ok = {
      metadata: { name: 'x', namespace: 'dev' },
      roleRef: ref('ClusterRole', 'pod-admin'),
      subjects: [],
    };
    await plugin.validate(write('rolebindings', 'dev', ok, binder));
    const notNamed = { ...ok, roleRef: ref('ClusterRole', 'pod-reader') };
    assert.equal(
      (await rejection(plugin.validate(write('rolebindings', 'dev', notNamed, binder))))?.code,
      403,
    );
    const elsewhere = { ...ok, metadata: { name: 'x', namespace: 'prod' } };
    assert.equal(
      (await rejection(plugin.validate(write('rolebindings', 'prod', elsewhere, binder))))?.code,
      403,
    );
  });

  it('answers NotFound for a missing role', async () => {
    const { plugin } = setup();
    const b = { metadata: { name: 'x', namespace: 'dev' }, roleRef: ref('Role', 'ghost'), subjects: [] };
    assert.deepEqual(
      await rejection(plugin.validate(write('rolebindings', 'dev', b, who('alice', 'writers')))),
      {
        code: 404,
        message: `role.${G} "ghost" not found`,
      },
    );
  });

  it('ignores other groups, subresources and deletes', async () => {
    const { plugin } = setup();
    const b = { metadata: { name: 'x' }, roleRef: ref('ClusterRole', 'everything'), subjects: [] };
    await plugin.validate({ ...write('clusterrolebindings', '', b, who('nobody')), group: 'other.io' });
    await plugin.validate({ ...write('clusterrolebindings', '', b, who('nobody')), operation: 'DELETE' });
  });
});

describe('covers', () => {
  it('follows upstream’s comparison', () => {
    const owner: PolicyRule[] = [
      { verbs: ['get'], apiGroups: [''], resources: ['*/status', 'pods'] },
      { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
      { verbs: ['get'], nonResourceURLs: ['/api/*'] },
    ];
    assert.equal(
      covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'nodes/status'] }]).covered,
      true,
    );
    assert.equal(
      covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }]).covered,
      false,
    );
    assert.equal(
      covers(owner, [
        { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
      ]).covered,
      true,
    );
    assert.equal(
      covers(owner, [{ verbs: ['update'], apiGroups: ['apps'], resources: ['deployments'] }]).covered,
      false,
    );
    assert.equal(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/api/v1', '/api'] }]).covered, false);
    assert.equal(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/api/v1'] }]).covered, true);
    assert.deepEqual(
      compactRules(
        covers([], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]).missing,
      ).map(compactString),
      ['{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}'],
    );
  });

  it('counts a permission held under a group’s upstream alias or its own name alike', () => {
    const aliases = new Map([['rbac.authorization.k8s.io', G]]);
    const owner: PolicyRule[] = [{ verbs: ['get'], apiGroups: [G], resources: ['roles'] }];
    const wanted: PolicyRule[] = [
      { verbs: ['get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] },
    ];
    assert.equal(covers(owner, wanted).covered, false);
    assert.equal(covers(owner, wanted, aliases).covered, true);
    assert.equal(covers(wanted, owner, aliases).covered, true);
  });

  it('reports resolution errors with the missing rules', () => {
    const source = new MemoryRbacSource([
      item('ClusterRoleBinding', {
        metadata: { name: 'x' },
        roleRef: ref('ClusterRole', 'gone'),
        subjects: [{ kind: 'User', name: 'u' }],
      }),
    ]);
    const { rules } = createRbacAuthorizer(source);
    assert.equal(
      confirmNoEscalation(rules, { username: 'u', groups: [] }, '', [
        { verbs: ['get'], nonResourceURLs: ['/x'] },
      ]),
      `user "u" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{NonResourceURLs:["/x"], Verbs:["get"]}; resolution errors: [clusterrole.${G} "gone" not found]`,
    );
  });
});
