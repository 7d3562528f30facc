// Server-side apply over HTTP: create on apply, conflicts as 409 with causes, force, no-op applies,
// dry run, the status subresource, and managedFields recorded by every kind of write.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { YAML_SERIALIZER } from '../../codec/serializers.ts';
import { groupName, namingProfile } from '../../naming/index.ts';
import { startTestApiServer, type TestApiServer, warningsOf } from '../testing/index.ts';
import { BREATHE_FROM_BYTES } from './breathe.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

interface Obj {
  metadata: { resourceVersion?: string; managedFields?: Entry[] };
  data?: Record<string, string>;
  spec?: { replicas?: number };
}

interface StatusBody {
  reason?: string;
  message?: string;
  details: { causes: unknown[] };
}

const obj = (r: { json(): unknown }) => r.json() as Obj;
const statusOf = (r: { json(): unknown }) => r.json() as StatusBody;

interface Entry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: unknown;
}

describe('server-side apply over HTTP', () => {
  let t: TestApiServer;
  const apply = (path: string, body: string, query: string) =>
    t.call({
      method: 'PATCH',
      path: `${path}?${query}`,
      body,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
  const entries = (o: Obj) =>
    (o.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.subresource ?? '', e.fieldsV1]);

  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('creates the object, then conflicts, then forces', async () => {
    const cfg = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';
    const created = await apply(`${CM}/a`, cfg, 'fieldManager=first');
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(entries(obj(created)), [['first', 'Apply', '', { 'f:data': { 'f:k': {} } }]]);

    const again = await apply(`${CM}/a`, cfg, 'fieldManager=first');
    assert.equal(again.status, 200);
    assert.equal(
      obj(again).metadata.resourceVersion,
      obj(created).metadata.resourceVersion,
      'a no-op apply writes nothing',
    );

    const other = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: w\n';
    const clash = await apply(`${CM}/a`, other, 'fieldManager=second');
    assert.equal(clash.status, 409);
    const status = statusOf(clash);
    assert.equal(status.reason, 'Conflict');
    assert.equal(status.message, 'Apply failed with 1 conflict: conflict with "first": .data.k');
    assert.deepEqual(status.details.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.k' },
    ]);
    assert.equal(obj(await t.call({ path: `${CM}/a` })).data?.k, 'v');

    const forced = await apply(`${CM}/a`, other, 'fieldManager=second&force=true');
    assert.equal(forced.status, 200, forced.body);
    assert.equal(obj(forced).data?.k, 'w');
    assert.deepEqual(entries(obj(forced)), [['second', 'Apply', '', { 'f:data': { 'f:k': {} } }]]);
  });

  it('managers applying their own fields at once all succeed, the first one creating', async () => {
    const path = '/api/v1/namespaces/default/configmaps/apply-race';
    const managers = 30;
    const replies = await Promise.all(
      Array.from({ length: managers }, (_, i) =>
        apply(
          path,
          `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"apply-race"},"data":{"m${i}":"${i}"}}`,
          `fieldManager=racer-${i}`,
        ),
      ),
    );
    assert.deepEqual(
      replies.filter((r) => r.status !== 200 && r.status !== 201).map((r) => `${r.status} ${r.body}`),
      [],
    );
    assert.equal(replies.filter((r) => r.status === 201).length, 1);
    const stored = obj(await t.call({ path }));
    assert.equal(Object.keys(stored.data ?? {}).length, managers);
    assert.equal(stored.metadata.managedFields?.length, managers);
  });

  it('a create by apply needs the name, and no uid', async () => {
    const noName = await apply(
      `${CM}/nameless`,
      'apiVersion: v1\nkind: ConfigMap\ndata: {a: b}',
      'fieldManager=m',
    );
    assert.equal(noName.status, 400);
    assert.equal(
      statusOf(noName).message,
      'the name of the object (nameless based on URL) was undeterminable: name must be provided',
    );
    const withUid = await apply(
      `${CM}/uid`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: uid, uid: abc}',
      'fieldManager=m',
    );
    assert.equal(withUid.status, 409);
    assert.equal(
      statusOf(withUid).message,
      'Operation cannot be fulfilled on configmaps "uid": uid mismatch: the provided object specified uid abc, and no existing object was found',
    );
    const wrongName = await apply(
      `${CM}/right`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wrong}',
      'fieldManager=m',
    );
    assert.equal(wrongName.status, 400);
    assert.equal(
      statusOf(wrongName).message,
      'the name of the object (wrong) does not match the name on the URL (right)',
    );
  });

  it('a large YAML configuration (decoded on the worker thread) is answered as a small one', async () => {
    const lines = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: big',
      'data:',
      '  k0: a',
      '  k0: b',
    ];
    for (let i = 1, size = 0; size < BREATHE_FROM_BYTES; i++)
      size += lines[lines.push(`  k${i}: v`) - 1].length + 1;
    const body = `${lines.join('\n')}\n`;
    const strict = await apply(`${CM}/big`, body, 'fieldManager=m&fieldValidation=Strict');
    assert.equal(strict.status, 400, strict.body);
    assert.equal(
      statusOf(strict).message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "k0" already set in map',
    );
    const warned = await apply(`${CM}/big`, body, 'fieldManager=m');
    assert.equal(warned.status, 201, warned.body);
    assert.deepEqual(warningsOf(warned), ['line 7: key "k0" already set in map']);
    assert.equal(obj(warned).data?.k0, 'b');
    const invalid = `${body}\tk: tab-indented\n`;
    let expected = '';
    try {
      YAML_SERIALIZER.decodeChecked(invalid);
    } catch (err) {
      expected = (err as Error).message;
    }
    assert.notEqual(expected, '');
    const refused = await apply(`${CM}/big`, invalid, 'fieldManager=m');
    assert.equal(refused.status, 400, refused.body);
    assert.equal(statusOf(refused).message, `error decoding YAML: ${expected}`);
  });

  it('repeated keys: Strict refuses, Warn warns, in YAML and in JSON bodies', async () => {
    const yamlBody = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup}\ndata:\n  k: a\n  k: b\n';
    const strict = await apply(`${CM}/dup`, yamlBody, 'fieldManager=m&fieldValidation=Strict');
    assert.equal(strict.status, 400);
    assert.equal(
      statusOf(strict).message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 6: key "k" already set in map',
    );
    assert.equal((await t.call({ path: `${CM}/dup` })).status, 404);
    const jsonBody =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},\n"data":{"k":"a","k":"b"}}';
    const warned = await apply(`${CM}/dup`, jsonBody, 'fieldManager=m');
    assert.equal(warned.status, 201, warned.body);
    assert.deepEqual(warningsOf(warned), ['line 2: key "k" already set in map']);
    assert.equal(obj(warned).data?.k, 'b');
  });

  it('dry run persists nothing', async () => {
    const cfg = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\ndata:\n  k: v\n';
    const r = await apply(`${CM}/dry`, cfg, 'fieldManager=m&dryRun=All');
    assert.equal(r.status, 201, r.body);
    assert.equal((await t.call({ path: `${CM}/dry` })).status, 404);
  });

  it('updates record their fields under fieldManager or the User-Agent', async () => {
    const created = await t.call({
      method: 'POST',
      path: CM,
      body: '{"metadata":{"name":"u"},"data":{"a":"1"}}',
      headers: { 'user-agent': 'my-tool/1.0 (linux)' },
    });
    assert.deepEqual(entries(obj(created))[0].slice(0, 3), ['my-tool', 'Update', '']);
    const patched = await t.call({
      method: 'PATCH',
      path: `${CM}/u?fieldManager=patcher`,
      body: '{"data":{"b":"2"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const byManager = Object.fromEntries(entries(obj(patched)).map((e) => [e[0], e[3]]));
    assert.deepEqual(byManager.patcher, { 'f:data': { 'f:b': {} } });
    assert.deepEqual(byManager['my-tool'], { 'f:data': { '.': {}, 'f:a': {} } });
  });

  it('an update may replace managedFields, and an empty list clears them', async () => {
    await t.call({
      method: 'POST',
      path: `${CM}?fieldManager=one`,
      body: '{"metadata":{"name":"mf"},"data":{"a":"1"}}',
    });
    const current = obj(await t.call({ path: `${CM}/mf` }));
    const replaced = await t.call({
      method: 'PUT',
      path: `${CM}/mf`,
      body: JSON.stringify({
        ...current,
        metadata: {
          ...current.metadata,
          managedFields: [
            {
              manager: 'chosen',
              operation: 'Apply',
              apiVersion: 'v1',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:data': { 'f:a': {} } },
            },
          ],
        },
      }),
    });
    assert.equal(replaced.status, 200, replaced.body);
    assert.deepEqual(entries(obj(replaced)), [['chosen', 'Apply', '', { 'f:data': { 'f:a': {} } }]]);
    const cleared = await t.call({
      method: 'PUT',
      path: `${CM}/mf`,
      body: JSON.stringify({ ...obj(replaced), metadata: { ...obj(replaced).metadata, managedFields: [] } }),
    });
    assert.equal(cleared.status, 200, cleared.body);
    assert.equal(obj(cleared).metadata.managedFields, undefined);
  });

  it('a field manager name is checked', async () => {
    const r = await t.call({
      method: 'POST',
      path: `${CM}?fieldManager=${'x'.repeat(129)}`,
      body: '{"metadata":{"name":"long"}}',
    });
    assert.equal(r.status, 422);
    assert.match(
      String(statusOf(r).message),
      /fieldManager: Too long: may not be (more than|longer than) 128/,
    );
    assert.equal((await t.call({ path: `${CM}/long` })).status, 404);
  });

  it('applies to a Deployment and to its status', async () => {
    const dep = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers:',
      '      - name: nginx',
      '        image: nginx:1',
      '        ports: [{containerPort: 80}]',
    ].join('\n');
    const r = await apply(`${DEPLOYMENTS}/web`, dep, 'fieldManager=deployer');
    assert.equal(r.status, 201, r.body);
    const fields = JSON.stringify(obj(r).metadata.managedFields?.[0].fieldsV1);
    assert.match(fields, /"k:\{\\"name\\":\\"nginx\\"\}":\{"\.":\{\},"f:image":\{\},"f:name":\{\},"f:ports"/);
    assert.match(fields, /"k:\{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"\}"/);
    assert.equal(obj(r).spec?.replicas, 1, 'defaults are filled after the merge');

    const status =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nstatus: {observedGeneration: 1}';
    const s = await apply(`${DEPLOYMENTS}/web/status`, status, 'fieldManager=controller');
    assert.equal(s.status, 200, s.body);
    const managers = entries(obj(s)).map((e) => `${e[0]}/${e[2]}`);
    assert.deepEqual(managers.sort(), ['controller/status', 'deployer/']);

    const changed = dep.replace('nginx:1', 'nginx:2');
    const clash = await apply(`${DEPLOYMENTS}/web`, changed, 'fieldManager=someone');
    assert.equal(clash.status, 409);
    assert.equal(
      statusOf(clash).message,
      'Apply failed with 1 conflict: conflict with "deployer": .spec.template.spec.containers[name="nginx"].image',
    );
  });

  it('every served kind records managedFields for updates and applies', async () => {
    const coordination = groupName(namingProfile('spec'), 'coordination');
    const podTemplate = {
      metadata: { labels: { app: 'k' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const kinds: [string, string, string, Record<string, unknown>][] = [
      ['/api/v1/namespaces', 'v1', 'Namespace', {}],
      [CM, 'v1', 'ConfigMap', { data: { a: '1' } }],
      ['/api/v1/namespaces/default/secrets', 'v1', 'Secret', { stringData: { a: '1' } }],
      [
        '/api/v1/namespaces/default/serviceaccounts',
        'v1',
        'ServiceAccount',
        { automountServiceAccountToken: false },
      ],
      [
        `/apis/${coordination}/v1/namespaces/default/leases`,
        `${coordination}/v1`,
        'Lease',
        { spec: { holderIdentity: 'h' } },
      ],
      [
        DEPLOYMENTS,
        'apps/v1',
        'Deployment',
        { spec: { selector: { matchLabels: { app: 'k' } }, template: podTemplate } },
      ],
      [
        '/apis/apps/v1/namespaces/default/replicasets',
        'apps/v1',
        'ReplicaSet',
        { spec: { selector: { matchLabels: { app: 'k' } }, template: podTemplate } },
      ],
    ];
    for (const [path, apiVersion, kind, content] of kinds) {
      const name = `every-${kind.toLowerCase()}`;
      const created = await t.call({
        method: 'POST',
        path: `${path}?fieldManager=creator`,
        body: JSON.stringify({ apiVersion, kind, metadata: { name }, ...content }),
      });
      assert.equal(created.status, 201, `${kind}: ${created.body}`);
      assert.deepEqual(
        entries(obj(created)).map((e) => e.slice(0, 2)),
        [['creator', 'Update']],
        kind,
      );
      const applied = await apply(
        `${path}/${name}`,
        JSON.stringify({ apiVersion, kind, metadata: { name, labels: { owner: 'applier' } } }),
        'fieldManager=applier',
      );
      assert.equal(applied.status, 200, `${kind}: ${applied.body}`);
      const byManager = Object.fromEntries(entries(obj(applied)).map((e) => [`${e[0]}/${e[1]}`, e[3]]));
      assert.deepEqual(byManager['applier/Apply'], { 'f:metadata': { 'f:labels': { 'f:owner': {} } } }, kind);
      assert.ok(byManager['creator/Update'], kind);
    }
  });

  it('a field the applier stops applying is removed, or reset to its default', async () => {
    const dep = (replicas: string) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: resets}',
        'spec:',
        replicas,
        '  selector: {matchLabels: {app: r}}',
        '  template:',
        '    metadata: {labels: {app: r, tier: web}}',
        '    spec: {containers: [{name: c, image: i}]}',
      ].join('\n');
    const first = await apply(`${DEPLOYMENTS}/resets`, dep('  replicas: 3'), 'fieldManager=owner');
    assert.equal(obj(first).spec?.replicas, 3, first.body);
    const second = await apply(`${DEPLOYMENTS}/resets`, dep('  minReadySeconds: 0'), 'fieldManager=owner');
    assert.equal(second.status, 200, second.body);
    assert.equal(obj(second).spec?.replicas, 1, 'replicas went back to its default');
  });

  it('an apply to the status of a missing object is 404', async () => {
    const r = await apply(
      `${DEPLOYMENTS}/nothing/status`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: nothing}\nstatus: {replicas: 1}',
      'fieldManager=m',
    );
    assert.equal(r.status, 404);
  });
});
