// Pods over HTTP on an in-process server: defaults and status on create, validation, the spec's
// immutability, /status, /binding, /eviction, /ephemeralcontainers, graceful deletion, field
// selectors and the table kubectl prints.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { POD_UPDATE_FORBIDDEN_MESSAGE } from '../apis/core/pod/index.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const P = '/api/v1/namespaces/default/pods';
type Obj = Record<string, unknown>;
interface Pod {
  metadata: {
    name: string;
    resourceVersion: string;
    generation?: number;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec: Obj & { containers: Obj[]; nodeName?: string; ephemeralContainers?: Obj[] };
  status: Obj & { conditions?: Obj[] };
}
interface Status {
  kind: string;
  status: string;
  code: number;
  reason?: string;
  message?: string;
  details?: { causes?: { field: string; reason: string; message: string }[] };
}

const pod = (name: string, spec: Obj = {}) =>
  JSON.stringify({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...spec } });

describe('pods over HTTP', () => {
  let t: TestApiServer;
  const create = async (name: string, spec: Obj = {}) => {
    const r = await t.call({ method: 'POST', path: P, body: pod(name, spec) });
    assert.equal(r.status, 201, r.body);
    return r.json() as unknown as Pod;
  };
  const get = async (name: string) =>
    (await t.call({ method: 'GET', path: `${P}/${name}` })).json() as unknown as Pod;
  const bind = (name: string, node: string, bindingName = name) =>
    t.call({
      method: 'POST',
      path: `${P}/${name}/binding`,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: bindingName },
        target: { kind: 'Node', name: node },
      }),
    });

  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('create: defaults, phase Pending, QoS class, generation 1', async () => {
    const p = await create('defaults');
    assert.equal(p.metadata.generation, 1);
    assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.equal(p.spec.restartPolicy, 'Always');
    assert.equal(p.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(p.spec.schedulerName, 'default-scheduler');
    assert.equal(p.spec.terminationGracePeriodSeconds, 30);
    assert.equal(p.spec.enableServiceLinks, true);
    assert.equal(p.spec.priority, 0);
    assert.deepEqual(p.spec.securityContext, {});
    const c = p.spec.containers[0];
    assert.equal(c.imagePullPolicy, 'IfNotPresent');
    assert.equal(c.terminationMessagePath, '/dev/termination-log');
    assert.equal(c.terminationMessagePolicy, 'File');
    const latest = await create('latest', { containers: [{ name: 'c', image: 'nginx' }] });
    assert.equal(latest.spec.containers[0].imagePullPolicy, 'Always');
    const guaranteed = await create('guaranteed', {
      containers: [{ name: 'c', image: 'nginx:1', resources: { limits: { cpu: '1', memory: '1Gi' } } }],
    });
    assert.equal(guaranteed.status.qosClass, 'Guaranteed');
    assert.deepEqual((guaranteed.spec.containers[0].resources as Obj).requests, { cpu: '1', memory: '1Gi' });
    const burstable = await create('burstable', {
      containers: [{ name: 'c', image: 'nginx:1', resources: { requests: { cpu: '100m' } } }],
    });
    assert.equal(burstable.status.qosClass, 'Burstable');
  });

  it('create refuses invalid specs with upstream causes', async () => {
    const cases: [Obj, string, string][] = [
      [{ containers: [] }, 'spec.containers', 'FieldValueRequired'],
      [{ containers: [{ name: 'c' }] }, 'spec.containers[0].image', 'FieldValueRequired'],
      [{ containers: [{ name: 'Bad_Name', image: 'x:1' }] }, 'spec.containers[0].name', 'FieldValueInvalid'],
      [
        {
          containers: [{ name: 'c', image: 'x:1' }],
          initContainers: [{ name: 'c', image: 'x:1' }],
        },
        'spec.initContainers[0].name',
        'FieldValueDuplicate',
      ],
      [
        { containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 70000 }] }] },
        'spec.containers[0].ports[0].containerPort',
        'FieldValueInvalid',
      ],
      [
        {
          containers: [
            { name: 'c', image: 'x:1', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
          ],
        },
        'spec.containers[0].resources.requests',
        'FieldValueInvalid',
      ],
      [
        { containers: [{ name: 'c', image: 'x:1', volumeMounts: [{ name: 'v', mountPath: '/v' }] }] },
        'spec.containers[0].volumeMounts[0].name',
        'FieldValueNotFound',
      ],
      [
        {
          containers: [
            { name: 'a', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080 }] },
            { name: 'b', image: 'x:1', ports: [{ containerPort: 81, hostPort: 8080 }] },
          ],
        },
        'spec.containers[1].ports[0].hostPort',
        'FieldValueDuplicate',
      ],
      [{ restartPolicy: 'Sometimes' }, 'spec.restartPolicy', 'FieldValueNotSupported'],
      [{ dnsPolicy: 'Elsewhere' }, 'spec.dnsPolicy', 'FieldValueNotSupported'],
      [{ activeDeadlineSeconds: 0 }, 'spec.activeDeadlineSeconds', 'FieldValueInvalid'],
      [
        { ephemeralContainers: [{ name: 'dbg', image: 'busybox:1', targetContainerName: 'nope' }] },
        'spec.ephemeralContainers[0].targetContainerName',
        'FieldValueNotFound',
      ],
    ];
    for (const [spec, field, reason] of cases) {
      const r = await t.call({
        method: 'POST',
        path: P,
        body: JSON.stringify({ metadata: { name: 'bad' }, spec }),
      });
      assert.equal(r.status, 422, `${field}: ${r.body}`);
      const s = r.json() as unknown as Status;
      assert.equal(s.reason, 'Invalid');
      assert.ok(
        s.details?.causes?.some((c) => c.field === field && c.reason === reason),
        `${field} ${reason}: ${r.body}`,
      );
    }
    const req = JSON.parse(
      (
        await t.call({
          method: 'POST',
          path: P,
          body: JSON.stringify({
            metadata: { name: 'bad' },
            spec: {
              containers: [
                { name: 'c', image: 'x:1', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
              ],
            },
          }),
        })
      ).body,
    ) as Status;
    assert.match(req.message ?? '', /must be less than or equal to cpu limit of 1/);
  });

  it('update: only images (and the like) may change; the rest is refused as upstream words it', async () => {
    const p = await create('immutable');
    const image = structuredClone(p);
    image.spec.containers[0].image = 'nginx:1.26';
    const ok = await t.call({ method: 'PUT', path: `${P}/immutable`, body: JSON.stringify(image) });
    assert.equal(ok.status, 200, ok.body);
    const updated = ok.json() as unknown as Pod;
    assert.equal(updated.spec.containers[0].image, 'nginx:1.26');
    assert.equal(updated.metadata.generation, 2);
    const port = structuredClone(updated);
    port.spec.containers[0].ports = [{ containerPort: 80 }];
    const refused = await t.call({ method: 'PUT', path: `${P}/immutable`, body: JSON.stringify(port) });
    assert.equal(refused.status, 422, refused.body);
    const s = refused.json() as unknown as Status;
    assert.deepEqual(s.details?.causes, [
      { reason: 'FieldValueForbidden', message: `Forbidden: ${POD_UPDATE_FORBIDDEN_MESSAGE}`, field: 'spec' },
    ]);
    const node = structuredClone(updated);
    node.spec.nodeName = 'n1';
    const nodeRefused = await t.call({ method: 'PUT', path: `${P}/immutable`, body: JSON.stringify(node) });
    assert.equal(nodeRefused.status, 422);
    const added = structuredClone(updated);
    added.spec.containers.push({ name: 'd', image: 'x:1' });
    const addRefused = (
      await t.call({ method: 'PUT', path: `${P}/immutable`, body: JSON.stringify(added) })
    ).json() as unknown as Status;
    assert.equal(
      addRefused.details?.causes?.[0]?.message,
      'Forbidden: pod updates may not add or remove containers',
    );
  });

  it('status: written only through /status; the QoS class stays', async () => {
    const p = await create('status');
    const main = await t.call({
      method: 'PUT',
      path: `${P}/status`,
      body: JSON.stringify({ ...p, status: { phase: 'Running' } }),
    });
    assert.equal((main.json() as unknown as Pod).status.phase, 'Pending');
    const r = await t.call({
      method: 'PUT',
      path: `${P}/status/status`,
      body: JSON.stringify({
        ...p,
        status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }], podIP: '10.0.0.5' },
      }),
    });
    assert.equal(r.status, 200, r.body);
    const s = (r.json() as unknown as Pod).status;
    assert.equal(s.phase, 'Running');
    assert.equal(s.qosClass, 'BestEffort');
    const qos = await t.call({
      method: 'PATCH',
      path: `${P}/status/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { qosClass: 'Guaranteed' } }),
    });
    assert.equal(qos.status, 422, qos.body);
    assert.match(qos.body, /status.qosClass/);
    const badIP = await t.call({
      method: 'PATCH',
      path: `${P}/status/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { podIPs: [{ ip: 'nope' }] } }),
    });
    assert.equal(badIP.status, 422, badIP.body);
  });

  it('binding: assigns the node once, with the PodScheduled condition', async () => {
    await create('bound');
    const mismatch = await bind('bound', 'n1', 'other');
    assert.equal(mismatch.status, 400, mismatch.body);
    const badTarget = await t.call({
      method: 'POST',
      path: `${P}/bound/binding`,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'bound' },
        target: { kind: 'Pod' },
      }),
    });
    assert.equal(badTarget.status, 422, badTarget.body);
    const r = await bind('bound', 'n1');
    assert.equal(r.status, 201, r.body);
    assert.equal((r.json() as unknown as Status).status, 'Success');
    const p = await get('bound');
    assert.equal(p.spec.nodeName, 'n1');
    assert.equal(p.metadata.generation, 1);
    const scheduled = p.status.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(scheduled?.status, 'True');
    const again = await bind('bound', 'n2');
    assert.equal(again.status, 409, again.body);
    assert.equal(
      (again.json() as unknown as Status).message,
      'Operation cannot be fulfilled on pods "bound": pod bound is already assigned to node "n1"',
    );
  });

  it('graceful deletion: a scheduled pod is kept for its grace period, a delete with 0 removes it', async () => {
    await create('graceful');
    assert.equal((await bind('graceful', 'n1')).status, 201);
    const first = await t.call({ method: 'DELETE', path: `${P}/graceful` });
    assert.equal(first.status, 200, first.body);
    const marked = first.json() as unknown as Pod;
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 30);
    assert.ok(marked.metadata.deletionTimestamp);
    assert.equal(marked.metadata.generation, 2);
    assert.equal((await get('graceful')).metadata.deletionGracePeriodSeconds, 30);
    // A longer period does not lengthen it.
    const longer = await t.call({
      method: 'DELETE',
      path: `${P}/graceful`,
      body: JSON.stringify({ gracePeriodSeconds: 60 }),
    });
    assert.equal((longer.json() as unknown as Pod).metadata.deletionGracePeriodSeconds, 30);
    const shorter = await t.call({
      method: 'DELETE',
      path: `${P}/graceful`,
      body: JSON.stringify({ gracePeriodSeconds: 10 }),
    });
    assert.equal((shorter.json() as unknown as Pod).metadata.deletionGracePeriodSeconds, 10);
    // A status write inside the period does not complete the deletion.
    const st = await t.call({
      method: 'PATCH',
      path: `${P}/graceful/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { phase: 'Running' } }),
    });
    assert.equal(st.status, 200, st.body);
    const now = await t.call({ method: 'DELETE', path: `${P}/graceful?gracePeriodSeconds=0` });
    assert.equal(now.status, 200, now.body);
    assert.equal((await t.call({ method: 'GET', path: `${P}/graceful` })).status, 404);
  });

  it('graceful deletion: an unscheduled pod, or one that finished, goes at once', async () => {
    await create('unscheduled');
    const r = await t.call({ method: 'DELETE', path: `${P}/unscheduled` });
    assert.equal(r.status, 200, r.body);
    assert.equal((r.json() as unknown as Pod).metadata.name, 'unscheduled');
    assert.equal((await t.call({ method: 'GET', path: `${P}/unscheduled` })).status, 404);
    await create('done');
    await bind('done', 'n1');
    await t.call({
      method: 'PATCH',
      path: `${P}/done/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { phase: 'Succeeded' } }),
    });
    await t.call({ method: 'DELETE', path: `${P}/done` });
    assert.equal((await t.call({ method: 'GET', path: `${P}/done` })).status, 404);
  });

  it('eviction: deletes through the Eviction (both versions), answering a Success Status', async () => {
    await create('evicted');
    const r = await t.call({
      method: 'POST',
      path: `${P}/evicted/eviction`,
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evicted' } }),
    });
    assert.equal(r.status, 201, r.body);
    const s = r.json() as unknown as Status;
    assert.equal(s.kind, 'Status');
    assert.equal(s.status, 'Success');
    assert.equal((await t.call({ method: 'GET', path: `${P}/evicted` })).status, 404);
    await create('evicted-bound');
    await bind('evicted-bound', 'n1');
    const beta = await t.call({
      method: 'POST',
      path: `${P}/evicted-bound/eviction`,
      body: JSON.stringify({
        apiVersion: 'policy/v1beta1',
        kind: 'Eviction',
        metadata: { name: 'evicted-bound' },
        deleteOptions: { gracePeriodSeconds: 5 },
      }),
    });
    assert.equal(beta.status, 201, beta.body);
    const kept = await get('evicted-bound');
    assert.equal(kept.metadata.deletionGracePeriodSeconds, 5);
    const target = kept.status.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.equal(target?.reason, 'EvictionByEvictionAPI');
    const mismatch = await t.call({
      method: 'POST',
      path: `${P}/evicted-bound/eviction`,
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'x' } }),
    });
    assert.equal(mismatch.status, 400, mismatch.body);
    const missing = await t.call({
      method: 'POST',
      path: `${P}/missing/eviction`,
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'missing' } }),
    });
    assert.equal(missing.status, 404, missing.body);
  });

  it('ephemeralcontainers: entries may be added, not removed or changed', async () => {
    const p = await create('debug');
    const withDebug = structuredClone(p);
    withDebug.spec.ephemeralContainers = [{ name: 'dbg', image: 'busybox:1', targetContainerName: 'c' }];
    // Through the resource itself this is a spec change like any other.
    const main = await t.call({ method: 'PUT', path: `${P}/debug`, body: JSON.stringify(withDebug) });
    assert.equal(main.status, 422, main.body);
    const r = await t.call({
      method: 'PUT',
      path: `${P}/debug/ephemeralcontainers`,
      body: JSON.stringify(withDebug),
    });
    assert.equal(r.status, 200, r.body);
    const added = r.json() as unknown as Pod;
    assert.equal(added.spec.ephemeralContainers?.[0]?.terminationMessagePolicy, 'File');
    const got = await t.call({ method: 'GET', path: `${P}/debug/ephemeralcontainers` });
    assert.equal((got.json() as unknown as Pod).spec.ephemeralContainers?.length, 1);
    const removed = await t.call({
      method: 'PATCH',
      path: `${P}/debug/ephemeralcontainers`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { ephemeralContainers: [] } }),
    });
    assert.equal(removed.status, 422, removed.body);
    assert.match(removed.body, /existing ephemeral containers \\"dbg\\" may not be removed/);
    const other = await t.call({
      method: 'PATCH',
      path: `${P}/debug/ephemeralcontainers`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { sneaky: 'yes' } } }),
    });
    assert.equal(other.status, 200, other.body);
    assert.equal((await get('debug')).metadata.name, 'debug');
    assert.equal(((await get('debug')).metadata as Obj).labels, undefined);
  });

  it('field selectors: spec.nodeName, status.phase and friends; unknown labels are refused', async () => {
    await create('sel-a');
    await create('sel-b');
    await bind('sel-b', 'node-x');
    const names = async (selector: string) => {
      const r = await t.call({ method: 'GET', path: `${P}?fieldSelector=${encodeURIComponent(selector)}` });
      assert.equal(r.status, 200, r.body);
      return ((r.json() as unknown as { items: Pod[] }).items.map((p) => p.metadata.name) as string[])
        .filter((n) => n.startsWith('sel-'))
        .sort();
    };
    assert.deepEqual(await names('spec.nodeName=node-x'), ['sel-b']);
    assert.deepEqual(await names('spec.nodeName=,metadata.name=sel-a'), ['sel-a']);
    assert.deepEqual(await names('status.phase=Pending'), ['sel-a', 'sel-b']);
    assert.deepEqual(await names('spec.restartPolicy=Always,spec.schedulerName=default-scheduler'), [
      'sel-a',
      'sel-b',
    ]);
    assert.deepEqual(await names('spec.hostNetwork=false,spec.serviceAccountName=default'), [
      'sel-a',
      'sel-b',
    ]);
    assert.deepEqual(await names('status.podIP=10.1.1.1'), []);
    assert.deepEqual(await names('spec.host=node-x'), ['sel-b']);
    const bad = await t.call({ method: 'GET', path: `${P}?fieldSelector=spec.image%3Dx` });
    assert.equal(bad.status, 400, bad.body);
  });

  it('table: kubectl columns, wide ones at priority 1', async () => {
    await create('table');
    await bind('table', 'n7');
    const r = await t.call({
      method: 'GET',
      path: `${P}/table`,
      headers: { accept: `application/json;as=Table;v=v1;g=${groupName(namingProfile('spec'), 'meta')}` },
    });
    assert.equal(r.status, 200, r.body);
    const table = r.json() as unknown as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Status', 0],
        ['Restarts', 0],
        ['Age', 0],
        ['IP', 1],
        ['Node', 1],
        ['Nominated Node', 1],
        ['Readiness Gates', 1],
      ],
    );
    const cells = table.rows[0].cells;
    assert.deepEqual(
      [cells[0], cells[1], cells[2], cells[3], cells[5], cells[6], cells[7], cells[8]],
      ['table', '0/1', 'Pending', '0', '<none>', 'n7', '<none>', '<none>'],
    );
  });
});
