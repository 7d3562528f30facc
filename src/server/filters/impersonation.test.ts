import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes, Authorizer } from '../../auth/authz/types.ts';
import { ApiError } from '../../machinery/status.ts';
import { impersonate, splitServiceAccountUsername } from './impersonation.ts';

const AUTHN = 'authentication.k8s.io';
const alice = { username: 'alice', groups: ['dev', 'system:authenticated'] };

/** Records what it was asked; allows what `allow` says. */
function recorder(allow: (a: Attributes) => boolean = () => true) {
  const asked: Attributes[] = [];
  const authz: Authorizer = {
    authorize: (a) => {
      asked.push(a);
      return allow(a) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
    },
  };
  return { asked, authz };
}

const headers = (pairs: [string, string][]) => {
  const m = new Map<string, string[]>();
  for (const [k, v] of pairs) m.set(k, [...(m.get(k) ?? []), v]);
  return m;
};

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

describe('impersonation', () => {
  it('no headers: nothing to do', async () => {
    const { authz, asked } = recorder();
    assert.equal(await impersonate(authz, alice, headers([]), AUTHN), undefined);
    assert.equal(asked.length, 0);
  });

  it('a user: checked as users in the core group, system:authenticated added', async () => {
    const { authz, asked } = recorder();
    const u = await impersonate(authz, alice, headers([['impersonate-user', 'bob']]), AUTHN);
    assert.deepEqual(u, { username: 'bob', groups: ['system:authenticated'], extra: {} });
    assert.equal(asked.length, 1);
    assert.equal(asked[0].user, alice);
    assert.equal(asked[0].verb, 'impersonate');
    assert.equal(asked[0].apiGroup, '');
    assert.equal(asked[0].resource, 'users');
    assert.equal(asked[0].name, 'bob');
    assert.equal(asked[0].isResourceRequest, true);
  });

  it('user, groups, extras and uid: one check each, in upstream order', async () => {
    const { authz, asked } = recorder();
    const u = await impersonate(
      authz,
      alice,
      headers([
        ['impersonate-uid', 'u-1'],
        ['impersonate-group', 'a, b'],
        ['impersonate-group', 'c'],
        ['impersonate-user', 'bob'],
        ['impersonate-extra-scopes', 'view'],
        ['impersonate-extra-scopes', 'edit'],
        ['impersonate-extra-example.com%2fteam', 'x'],
      ]),
      AUTHN,
    );
    assert.deepEqual(u, {
      username: 'bob',
      uid: 'u-1',
      groups: ['a, b', 'c', 'system:authenticated'],
      extra: { scopes: ['view', 'edit'], 'example.com/team': ['x'] },
    });
    assert.deepEqual(
      asked.map((a) => [a.apiGroup, a.resource, a.subresource, a.name]),
      [
        ['', 'users', '', 'bob'],
        ['', 'groups', '', 'a, b'],
        ['', 'groups', '', 'c'],
        [AUTHN, 'userextras', 'scopes', 'view'],
        [AUTHN, 'userextras', 'scopes', 'edit'],
        [AUTHN, 'userextras', 'example.com/team', 'x'],
        [AUTHN, 'uids', '', 'u-1'],
      ],
    );
  });

  it('system:unauthenticated given: system:authenticated not added', async () => {
    const { authz } = recorder();
    const u = await impersonate(
      authz,
      alice,
      headers([
        ['impersonate-user', 'bob'],
        ['impersonate-group', 'system:unauthenticated'],
      ]),
      AUTHN,
    );
    assert.deepEqual(u?.groups, ['system:unauthenticated']);
  });

  it('system:anonymous gets system:unauthenticated', async () => {
    const { authz } = recorder();
    const u = await impersonate(authz, alice, headers([['impersonate-user', 'system:anonymous']]), AUTHN);
    assert.deepEqual(u?.groups, ['system:unauthenticated']);
  });

  it('a service account: namespaced check, its groups unless groups are given', async () => {
    const { authz, asked } = recorder();
    const u = await impersonate(
      authz,
      alice,
      headers([['impersonate-user', 'system:serviceaccount:team:builder']]),
      AUTHN,
    );
    assert.deepEqual(u?.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:team',
      'system:authenticated',
    ]);
    assert.equal(u?.username, 'system:serviceaccount:team:builder');
    assert.deepEqual(
      [asked[0].resource, asked[0].namespace, asked[0].name, asked[0].apiGroup],
      ['serviceaccounts', 'team', 'builder', ''],
    );
    const g = await impersonate(
      authz,
      alice,
      headers([
        ['impersonate-user', 'system:serviceaccount:team:builder'],
        ['impersonate-group', 'ops'],
      ]),
      AUTHN,
    );
    assert.deepEqual(g?.groups, ['ops', 'system:authenticated']);
  });

  it('a malformed service account name is an ordinary user', () => {
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:team:builder'), ['team', 'builder']);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:Team:builder'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:a:b:c'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:team:'), undefined);
  });

  it('groups without a user: 400 with upstream message', async () => {
    const { authz, asked } = recorder();
    const err = await rejects(impersonate(authz, alice, headers([['impersonate-group', 'admins']]), AUTHN));
    assert.equal(err.status.code, 400);
    assert.equal(err.status.reason, 'BadRequest');
    assert.equal(err.status.message, 'requested [{Group  admins    }] without impersonating a user');
    assert.equal(asked.length, 0);
  });

  it('uid and extra without a user: 400', async () => {
    const { authz } = recorder();
    const err = await rejects(
      impersonate(
        authz,
        alice,
        headers([
          ['impersonate-uid', 'u1'],
          ['impersonate-extra-scopes', 'v'],
        ]),
        AUTHN,
      ),
    );
    assert.equal(
      err.status.message,
      `requested [{UserExtra  v  ${AUTHN}/v1  scopes} {UID  u1  ${AUTHN}/v1  }] without impersonating a user`,
    );
  });

  it('a denied user: 403 with upstream message', async () => {
    const { authz } = recorder(() => false);
    const err = await rejects(impersonate(authz, alice, headers([['impersonate-user', 'x']]), AUTHN));
    assert.equal(err.status.code, 403);
    assert.equal(err.status.reason, 'Forbidden');
    assert.equal(
      err.status.message,
      'users "x" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    assert.deepEqual(err.status.details, { name: 'x', kind: 'users' });
  });

  it('a denied group, service account and extra: messages name each', async () => {
    const onlyUsers = recorder((a) => a.resource === 'users');
    let err = await rejects(
      impersonate(
        onlyUsers.authz,
        alice,
        headers([
          ['impersonate-user', 'bob'],
          ['impersonate-group', 'admins'],
        ]),
        AUTHN,
      ),
    );
    assert.equal(
      err.status.message,
      'groups "admins" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    err = await rejects(
      impersonate(
        recorder(() => false).authz,
        alice,
        headers([['impersonate-user', 'system:serviceaccount:ns:sa']]),
        AUTHN,
      ),
    );
    assert.equal(
      err.status.message,
      'serviceaccounts "sa" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns"',
    );
    err = await rejects(
      impersonate(
        onlyUsers.authz,
        alice,
        headers([
          ['impersonate-user', 'bob'],
          ['impersonate-extra-scopes', 'view'],
        ]),
        AUTHN,
      ),
    );
    assert.equal(
      err.status.message,
      `userextras.${AUTHN} "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "${AUTHN}" at the cluster scope`,
    );
  });
});
