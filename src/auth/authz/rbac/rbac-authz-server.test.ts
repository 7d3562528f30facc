// RBAC on a running server (--authorization-mode=RBAC) with token-file users: a RoleBinding grants
// in its namespace only, with upstream's 403 message otherwise; escalation prevention on role and
// binding writes (403 listing the missing rules, `bind` letting a binding through); aggregation of
// a ClusterRole by label. Waits are for conditions (the index follows the stores by watch).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { groupName, namingProfile } from '../../../naming/profile.ts';
import type { Reply } from '../../../server/testing/http-client.ts';
import { startTestControlPlane, type TestApiServer } from '../../../server/testing/http-client.ts';

const G = groupName(namingProfile('spec'), 'rbac.authorization');
const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

describe('RBAC mode on a server', () => {
  let dir: string;
  let api: TestApiServer;
  const admin = (method: string, path: string, body?: unknown) =>
    api.call({ method, path, body: body === undefined ? undefined : JSON.stringify(body) });
  const as = (token: string, method: string, path: string, body?: unknown) =>
    api.call({ method, path, body: body === undefined ? undefined : JSON.stringify(body), ...bearer(token) });
  /** Repeats the call until its status is `want` (the index follows the stores asynchronously). */
  async function eventually(call: () => Promise<Reply>, want: number): Promise<Reply> {
    for (let i = 0; ; i++) {
      const r = await call();
      if (r.status === want || i >= 500) return r;
      await new Promise((res) => setImmediate(res));
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rbac-server-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, ['alice-token,alice,1', 'bob-token,bob,2'].join('\n'));
    // With the controller manager: the aggregated roles are filled by its aggregation controller.
    api = await startTestControlPlane({ tokenAuthFile: tokens, authorizationModes: ['RBAC'] });
  });
  after(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants through a RoleBinding in its namespace only', async () => {
    for (const ns of ['team-a', 'team-b'])
      assert.ok(
        [201, 409].includes(
          (
            await admin('POST', '/api/v1/namespaces', {
              apiVersion: 'v1',
              kind: 'Namespace',
              metadata: { name: ns },
            })
          ).status,
        ),
      );
    const cr = await admin('POST', `/apis/${G}/v1/clusterroles`, {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'cm-and-roles' },
      rules: [
        { verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['create'], apiGroups: [G], resources: ['roles', 'rolebindings'] },
      ],
    });
    assert.equal(cr.status, 201, cr.body);
    const rb = await admin('POST', `/apis/${G}/v1/namespaces/team-a/rolebindings`, {
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'alice' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cm-and-roles' },
      subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }],
    });
    assert.equal(rb.status, 201, rb.body);
    const ok = await eventually(() => as('alice-token', 'GET', '/api/v1/namespaces/team-a/configmaps'), 200);
    assert.equal(ok.status, 200, ok.body);
    const other = await as('alice-token', 'GET', '/api/v1/namespaces/team-b/configmaps');
    assert.equal(other.status, 403);
    assert.equal(
      other.json().message,
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-b"',
    );
    const secrets = await as('alice-token', 'GET', '/api/v1/namespaces/team-a/secrets');
    assert.equal(secrets.status, 403);
  });

  it('refuses roles and bindings granting more than the writer holds', async () => {
    await eventually(() => as('alice-token', 'GET', '/api/v1/namespaces/team-a/configmaps'), 200);
    const role = (name: string, rules: unknown[]) => ({
      apiVersion: `${G}/v1`,
      kind: 'Role',
      metadata: { name },
      rules,
    });
    const within = await as(
      'alice-token',
      'POST',
      `/apis/${G}/v1/namespaces/team-a/roles`,
      role('cm-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]),
    );
    assert.equal(within.status, 201, within.body);
    const beyond = await as(
      'alice-token',
      'POST',
      `/apis/${G}/v1/namespaces/team-a/roles`,
      role('secret-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }]),
    );
    assert.equal(beyond.status, 403);
    assert.equal(
      beyond.json().message,
      `roles.${G} "secret-reader" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`,
    );
    assert.equal((await admin('GET', `/apis/${G}/v1/namespaces/team-a/roles/secret-reader`)).status, 404);

    const binding = (name: string, roleName: string) => ({
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: roleName },
      subjects: [{ kind: 'User', apiGroup: G, name: 'bob' }],
    });
    const same = await as(
      'alice-token',
      'POST',
      `/apis/${G}/v1/namespaces/team-a/rolebindings`,
      binding('bob-same', 'cm-and-roles'),
    );
    assert.equal(same.status, 201, same.body);
    const admin403 = await as(
      'alice-token',
      'POST',
      `/apis/${G}/v1/namespaces/team-a/rolebindings`,
      binding('bob-admin', 'cluster-admin'),
    );
    assert.equal(admin403.status, 403, admin403.body);
    assert.match(
      String(admin403.json().message),
      /^rolebindings\.\S+ "bob-admin" is forbidden: user "alice" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/,
    );

    // `bind` on cluster-admin, by name, lets the binding through
    const binder = await admin('POST', `/apis/${G}/v1/namespaces/team-a/roles`, {
      apiVersion: `${G}/v1`,
      kind: 'Role',
      metadata: { name: 'bind-cluster-admin' },
      rules: [
        { verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['cluster-admin'] },
      ],
    });
    assert.equal(binder.status, 201, binder.body);
    assert.equal(
      (
        await admin('POST', `/apis/${G}/v1/namespaces/team-a/rolebindings`, {
          apiVersion: `${G}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'alice-binder' },
          roleRef: { apiGroup: G, kind: 'Role', name: 'bind-cluster-admin' },
          subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }],
        })
      ).status,
      201,
    );
    const bound = await eventually(
      () =>
        as(
          'alice-token',
          'POST',
          `/apis/${G}/v1/namespaces/team-a/rolebindings`,
          binding('bob-admin', 'cluster-admin'),
        ),
      201,
    );
    assert.equal(bound.status, 201, bound.body);
  });

  it('aggregates the default admin, edit and view roles', async () => {
    const rulesOf = async (name: string) => {
      for (let i = 0; ; i++) {
        const rules = (await admin('GET', `/apis/${G}/v1/clusterroles/${name}`)).json().rules;
        if ((Array.isArray(rules) && rules.length > 0) || i >= 500)
          return (rules ?? []) as { verbs: string[]; resources?: string[] }[];
        await new Promise((res) => setImmediate(res));
      }
    };
    const allows = (rules: { verbs: string[]; resources?: string[] }[], verb: string, resource: string) =>
      rules.some((r) => r.verbs.includes(verb) && (r.resources ?? []).includes(resource));
    const view = await rulesOf('view');
    assert.ok(allows(view, 'get', 'pods') && !allows(view, 'get', 'secrets'), JSON.stringify(view));
    const edit = await rulesOf('edit');
    assert.ok(allows(edit, 'create', 'pods') && allows(edit, 'get', 'secrets'), JSON.stringify(edit));
    const adminRole = await rulesOf('admin');
    assert.ok(
      allows(adminRole, 'create', 'rolebindings') && allows(adminRole, 'get', 'pods'),
      JSON.stringify(adminRole),
    );
  });

  it('aggregates a labelled ClusterRole into an aggregated one', async () => {
    const agg = await admin('POST', `/apis/${G}/v1/clusterroles`, {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'team-agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] },
    });
    assert.equal(agg.status, 201, agg.body);
    const part = await admin('POST', `/apis/${G}/v1/clusterroles`, {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'team-part', labels: { 'example.com/agg': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }],
    });
    assert.equal(part.status, 201, part.body);
    let rules: unknown;
    for (let i = 0; i < 500; i++) {
      rules = (await admin('GET', `/apis/${G}/v1/clusterroles/team-agg`)).json().rules;
      if (Array.isArray(rules) && rules.length > 0) break;
      await new Promise((res) => setImmediate(res));
    }
    assert.deepEqual(rules, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]);
  });
});
