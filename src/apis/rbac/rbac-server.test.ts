// The RBAC kinds through a running server: created under the profile's group and under upstream's
// alias (what stock kubectl uses), the same objects under both, invalid ones refused with 422 and
// upstream's text, a changed roleRef refused without touching the stored binding, PUT creating as
// upstream's RBAC strategies allow, and the protobuf wire numbers.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../codec/protobuf/index.ts';
import { namingProfile } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { clusterRoleKind } from './cluster-role.ts';
import { roleBindingKind } from './role-binding.ts';
import { rbacGroup } from './types.ts';

const SPEC = namingProfile('spec');
const G = rbacGroup(SPEC);
const UG = rbacGroup(namingProfile('upstream'));

describe('RBAC kinds through the server', () => {
  let api: TestApiServer;
  before(async () => {
    api = await startTestApiServer();
  });
  after(async () => {
    await api.stop();
  });

  const post = (group: string, path: string, body: unknown) =>
    api.call({ method: 'POST', path: `/apis/${group}/v1/${path}`, body: JSON.stringify(body) });

  it('a Role created under the upstream name is read back under both', async () => {
    const created = await post(UG, 'namespaces/default/roles', {
      apiVersion: `${UG}/v1`,
      kind: 'Role',
      metadata: { name: 'pod-reader' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().apiVersion, `${UG}/v1`);
    const own = await api.call({ path: `/apis/${G}/v1/namespaces/default/roles/pod-reader` });
    assert.equal(own.status, 200);
    assert.equal(own.json().apiVersion, `${G}/v1`);
    assert.deepEqual(own.json().rules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('a nonResourceURL in a Role is 422 with upstream text and nothing stored', async () => {
    const r = await post(G, 'namespaces/default/roles', {
      metadata: { name: 'bad' },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    });
    assert.equal(r.status, 422, r.body);
    const status = r.json() as { reason: string; message: string; details: { causes: unknown[] } };
    assert.equal(status.reason, 'Invalid');
    assert.equal(
      status.message,
      `Role.${G} "bad" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`,
    );
    assert.deepEqual(status.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
        field: 'rules[0].nonResourceURLs',
      },
    ]);
    const get = await api.call({ path: `/apis/${G}/v1/namespaces/default/roles/bad` });
    assert.equal(get.status, 404);
  });

  it('a binding keeps the group it was sent with and defaults the rest; its roleRef cannot change', async () => {
    const created = await post(UG, 'clusterrolebindings', {
      metadata: { name: 'alice-view' },
      roleRef: { apiGroup: UG, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
    });
    assert.equal(created.status, 201, created.body);
    const stored = created.json();
    assert.deepEqual(stored.roleRef, { apiGroup: UG, kind: 'ClusterRole', name: 'view' });
    assert.deepEqual(stored.subjects, [
      { kind: 'User', name: 'alice', apiGroup: G },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
    ]);

    const path = `/apis/${G}/v1/clusterrolebindings/alice-view`;
    const changed = await api.call({
      method: 'PUT',
      path,
      body: JSON.stringify({
        ...stored,
        apiVersion: `${G}/v1`,
        roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' },
      }),
    });
    assert.equal(changed.status, 422, changed.body);
    assert.equal(
      changed.json().message,
      `ClusterRoleBinding.${G} "alice-view" is invalid: roleRef: Invalid value: {"APIGroup":"${G}","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`,
    );
    const patched = await api.call({
      method: 'PATCH',
      path,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ roleRef: { name: 'admin' } }),
    });
    assert.equal(patched.status, 422, patched.body);
    const after = await api.call({ path });
    assert.deepEqual(after.json().roleRef, { apiGroup: UG, kind: 'ClusterRole', name: 'view' });
    assert.equal(
      (after.json().metadata as { resourceVersion: string }).resourceVersion,
      (stored.metadata as { resourceVersion: string }).resourceVersion,
    );

    // The same role under the profile's name of the group is no change.
    const same = await api.call({
      method: 'PATCH',
      path,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ roleRef: { apiGroup: G } }),
    });
    assert.equal(same.status, 200, same.body);
  });

  it('PUT of a missing role creates it, as upstream RBAC strategies allow', async () => {
    const r = await api.call({
      method: 'PUT',
      path: `/apis/${G}/v1/clusterroles/made-by-put`,
      body: JSON.stringify({
        apiVersion: `${G}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'made-by-put' },
        rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      }),
    });
    assert.equal(r.status, 201, r.body);
  });

  it('a bad subject kind is 422 and a wrong type is 400', async () => {
    const bad = await post(G, 'namespaces/default/rolebindings', {
      metadata: { name: 'b' },
      roleRef: { apiGroup: G, kind: 'Role', name: 'pod-reader' },
      subjects: [{ kind: 'Robot', name: 'r2' }],
    });
    assert.equal(bad.status, 422, bad.body);
    assert.match(String(bad.json().message), /subjects\[0\]\.kind: Unsupported value: "Robot"/);
    const typed = await post(G, 'namespaces/default/roles', {
      metadata: { name: 't' },
      rules: [{ verbs: 'get', apiGroups: [''], resources: ['pods'] }],
    });
    assert.equal(typed.status, 400, typed.body);
  });
});

describe('RBAC protobuf', () => {
  const schemas = [clusterRoleKind(SPEC).schema, roleBindingKind(SPEC).schema];
  const lookup = (_v: string, kind: string) => schemas.find((s) => s.kind === kind);

  it('round-trips with upstream field numbers', () => {
    const binding = {
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'n' },
      subjects: [{ kind: 'ServiceAccount', name: 's', namespace: 'n' }],
      roleRef: { apiGroup: 'g', kind: 'Role', name: 'r' },
    };
    const bytes = encodeProtobuf(schemas[1], binding);
    assert.deepEqual(decodeProtobuf(lookup, bytes), binding);
    // roleRef is field 3 (apiGroup 1, kind 2, name 3); a subject is field 2 (kind 1, apiGroup 2, name 3,
    // namespace 4), its Go string fields written even when empty, as go-to-protobuf does.
    const hex = Buffer.from(bytes).toString('hex');
    const str = (field: number, s: string) =>
      Buffer.concat([Buffer.from([(field << 3) | 2, s.length]), Buffer.from(s)]).toString('hex');
    const roleRef = str(1, 'g') + str(2, 'Role') + str(3, 'r');
    assert.ok(hex.includes(`1a${(roleRef.length / 2).toString(16).padStart(2, '0')}${roleRef}`), hex);
    const subject = str(1, 'ServiceAccount') + str(2, '') + str(3, 's') + str(4, 'n');
    assert.ok(hex.includes(`12${(subject.length / 2).toString(16).padStart(2, '0')}${subject}`), hex);

    const role = {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      rules: [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
        { verbs: ['get'], nonResourceURLs: ['/x'] },
      ],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
    };
    assert.deepEqual(decodeProtobuf(lookup, encodeProtobuf(schemas[0], role)), role);
  });
});
