// The Node authorizer and NodeRestriction on a running server (default modes Node,RBAC), asked by
// clients holding node certificates: a node reads its own Node and not another's, patches only its
// own status, keeps only its own Lease, and reads a Secret only while a Pod bound to it names it
// (the graph follows the watch cache as the Pod binds and goes); only its own node evicts that Pod
// or asks a token bound to it. The feed's list-then-watch loop is
// also driven over a scripted store: watch events follow the first list, and an ended watch leads
// to a relist whose set replaces the old one (a Pod deleted while nothing watched leaves the graph).

import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createNodeAuthorizer } from '../auth/authz/node/create.ts';
import type { ApiObject } from '../machinery/object.ts';
import { nodeLeaseNamespace } from '../naming/node-agents.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import type { WireWatchEvent } from '../registry/generic-store.ts';
import { servedNodeGraphSource } from './node-graph-feed.ts';
import { componentClientCertificate } from './pki/component-client.ts';
import type { ServedResources } from './served-resources.ts';
import { startTestApiServer, type TestApiServer } from './testing/http-client.ts';
import { waitFor } from './testing/wait-for.ts';

const profile = namingProfile('spec');
const leaseNs = nodeLeaseNamespace(profile);
const coordination = groupName(profile, 'coordination');

interface Reply {
  status: number;
  body: Record<string, unknown>;
}
type NodeCall = (method: string, path: string, body?: unknown, contentType?: string) => Promise<Reply>;

async function nodeClient(t: TestApiServer, node: string): Promise<NodeCall> {
  const creds = await componentClientCertificate(t.dir, `system:node:${node}`, ['system:nodes']);
  return (method, path, body, contentType = 'application/json') =>
    new Promise((res, rej) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          method,
          path,
          ca: creds.caPem,
          cert: creds.certPem,
          key: creds.keyPem,
          headers:
            text === undefined
              ? {}
              : { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (d: Buffer) => chunks.push(d));
          r.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            res({ status: r.statusCode ?? 0, body: raw === '' ? {} : JSON.parse(raw) });
          });
        },
      );
      req.on('error', rej);
      req.end(text);
    });
}

describe('Node authorizer and NodeRestriction on a server', () => {
  let t: TestApiServer;
  let n1: NodeCall;
  let n2: NodeCall;

  before(async () => {
    t = await startTestApiServer();
    n1 = await nodeClient(t, 'n1');
    n2 = await nodeClient(t, 'n2');
    for (const name of ['n1', 'n2']) {
      const r = await t.call({
        method: 'POST',
        path: '/api/v1/nodes',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name } }),
      });
      assert.equal(r.status, 201, r.body);
    }
    const s = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/secrets',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
        data: { k: 'dg==' },
      }),
    });
    assert.equal(s.status, 201, s.body);
  });
  after(async () => {
    await t?.stop();
  });

  it("reads its own Node and not another node's", async () => {
    assert.equal((await n1('GET', '/api/v1/nodes/n1')).status, 200);
    const other = await n1('GET', '/api/v1/nodes/n2');
    assert.equal(other.status, 403);
    assert.equal(other.body.reason, 'Forbidden');
    assert.match(String(other.body.message), /: node 'n1' cannot read 'n2', only its own Node object$/);
    assert.equal((await n1('GET', '/api/v1/nodes')).status, 403);
  });

  it('patches only its own Node status', async () => {
    const patch = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const own = await n1('PATCH', '/api/v1/nodes/n1/status', patch, 'application/merge-patch+json');
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const other = await n1('PATCH', '/api/v1/nodes/n2/status', patch, 'application/merge-patch+json');
    assert.equal(other.status, 403);
    assert.equal(other.body.message, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  });

  it('keeps only its own Lease', async () => {
    const path = `/apis/${coordination}/v1/namespaces/${leaseNs}/leases`;
    const lease = (name: string) => ({ apiVersion: `${coordination}/v1`, kind: 'Lease', metadata: { name } });
    const own = await n1('POST', path, lease('n1'));
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const other = await n1('POST', path, lease('n2'));
    assert.equal(other.status, 403);
    assert.equal(
      other.body.message,
      `leases.${coordination} "n2" is forbidden: can only access node lease with the same name as the requesting node`,
    );
    assert.equal((await n2('GET', `${path}/n1`)).status, 403);
  });

  it('reads a Secret only while a Pod bound to it names the Secret', async () => {
    const denied = await n1('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(denied.status, 403);
    assert.match(String(denied.body.message), /: no relationship found between node 'n1' and this object$/);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p1' },
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 'v', secret: { secretName: 's1' } }],
      },
    };
    const created = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/pods',
      body: JSON.stringify(pod),
    });
    assert.equal(created.status, 201, created.body);
    await waitFor(
      () => n1('GET', '/api/v1/namespaces/default/secrets/s1'),
      (r) => r.status === 200,
      'node n1 to read the Secret its Pod names',
    );
    const other = await n2('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(other.status, 403);
    assert.match(String(other.body.message), /no relationship found between node 'n2' and this object$/);
    // Another node may not delete it, evict it or ask a token bound to it; its own node may.
    const del = await n2('DELETE', '/api/v1/namespaces/default/pods/p1');
    assert.equal(del.status, 403);
    const eviction = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p1', namespace: 'default' },
    };
    const evict = await n2('POST', '/api/v1/namespaces/default/pods/p1/eviction', eviction);
    assert.equal(evict.status, 403, JSON.stringify(evict.body));
    assert.equal(
      evict.body.message,
      'pods "p1" is forbidden: node n2 can only evict pods with spec.nodeName set to itself',
    );
    const podUid = String((created.json() as ApiObject).metadata?.uid);
    const tokenRequest = {
      apiVersion: `${groupName(profile, 'authentication')}/v1`,
      kind: 'TokenRequest',
      spec: { audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: podUid } },
    };
    const token = await n2('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', tokenRequest);
    assert.equal(token.status, 403, JSON.stringify(token.body));
    // The authorizer refuses first: no Pod of n2 uses the account.
    assert.match(String(token.body.message), /: no relationship found between node 'n2' and this object$/);
    // No controllers run here: the account the Pod defaulted to is made by hand.
    const sa = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/serviceaccounts',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }),
    });
    assert.equal(sa.status, 201, sa.body);
    const own = await n1('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', tokenRequest);
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const gone = await t.call({
      method: 'DELETE',
      path: '/api/v1/namespaces/default/pods/p1',
      body: JSON.stringify({ gracePeriodSeconds: 0 }),
    });
    assert.ok(gone.status === 200 || gone.status === 202, gone.body);
    await waitFor(
      () => n1('GET', '/api/v1/namespaces/default/secrets/s1'),
      (r) => r.status === 403,
      'the Secret to become unreadable once the Pod is gone',
    );
  });
});

const pod = (name: string, nodeName: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name, uid: name },
  spec: {
    nodeName,
    containers: [{ name: 'c' }],
    volumes: [{ name: 'v', secret: { secretName: `s-${name}` } }],
  },
});

/** A pods store whose lists answer `items` and whose watches deliver what the test pushes. */
function scriptedPods() {
  let items: ApiObject[] = [];
  let push: ((e: WireWatchEvent | null) => void) | undefined;
  let lists = 0;
  const store = {
    async list() {
      lists++;
      return { items: [...items], metadata: { resourceVersion: String(lists) } };
    },
    watch() {
      const queue: (WireWatchEvent | null)[] = [];
      let wake: (() => void) | undefined;
      push = (e) => {
        queue.push(e);
        wake?.();
      };
      return {
        stop: () => push?.(null),
        async *[Symbol.asyncIterator]() {
          for (;;) {
            while (queue.length === 0) await new Promise<void>((r) => (wake = r));
            const e = queue.shift();
            if (e === null || e === undefined) return;
            yield e;
          }
        },
      };
    },
  };
  // Only what the feed touches of ServedResources: lookup of the pods resource's store.
  const served = {
    lookup: (_g: string, _v: string, resource: string) => (resource === 'pods' ? { store } : undefined),
  } as unknown as ServedResources;
  return {
    served,
    setItems: (next: ApiObject[]) => {
      items = next;
    },
    send: (e: WireWatchEvent | null) => push?.(e),
    lists: () => lists,
  };
}

describe('node graph feed', () => {
  it('lists, follows the watch, and relists after the watch ends', async () => {
    const s = scriptedPods();
    s.setItems([pod('p1', 'n1')]);
    const h = createNodeAuthorizer(servedNodeGraphSource(s.served), namingProfile('spec'));
    try {
      await h.synced;
      assert.ok(h.graph.pathToNode('n1', 'secret', 'ns', 's-p1').found);
      s.send({ type: 'ADDED', object: pod('p2', 'n2') });
      await waitFor(
        () => h.graph.pathToNode('n2', 'secret', 'ns', 's-p2').found,
        (v) => v,
        'the watched Pod in the graph',
      );
      s.send({ type: 'DELETED', object: pod('p2', 'n2') });
      await waitFor(
        () => h.graph.has('pod', 'ns', 'p2'),
        (v) => !v,
        'the deleted Pod gone',
      );
      // p1 goes while the watch is down: the relist's set drops it.
      s.setItems([pod('p3', 'n1')]);
      s.send(null);
      await waitFor(
        () => s.lists(),
        (n) => n >= 2,
        'a relist',
      );
      await waitFor(
        () => h.graph.has('pod', 'ns', 'p1'),
        (v) => !v,
        'the Pod missing from the relist gone',
      );
      assert.ok(h.graph.pathToNode('n1', 'secret', 'ns', 's-p3').found);
    } finally {
      h.stop();
    }
  });
});
