// Audit through a real server: a policy with every kind of rule, a backend that keeps the events
// as a JSON backend would write them, and requests that check each level, each stage, the
// Audit-ID header, impersonation, failed authentication, the authorization annotations, a panic,
// and omitManagedFields.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { GenericStore } from '../../registry/generic-store.ts';
import { startTestApiServer, type TestApiServer, waitFor } from '../testing/index.ts';
import type { AuditBackend, AuditEvent } from './event-types.ts';
import { auditGroup, type Policy, type PolicyRule, policyRule } from './policy-types.ts';

const SPEC = namingProfile('spec');
const AUTHZ = groupName(SPEC, 'authorization');

/** Events as a JSON backend writes them, so later changes to the originals would not show. */
export class FakeBackend implements AuditBackend {
  readonly name = 'fake';
  events: AuditEvent[] = [];
  shutDown = false;
  processEvents(...events: AuditEvent[]): boolean {
    for (const e of events) this.events.push(JSON.parse(JSON.stringify(e)));
    return true;
  }
  async shutdown(): Promise<void> {
    this.shutDown = true;
  }
  of(auditID: string): AuditEvent[] {
    return this.events.filter((e) => e.auditID === auditID);
  }
}

function rule(r: Partial<PolicyRule> & { level: string }): PolicyRule {
  return policyRule(r.level, r);
}

const POLICY: Policy = {
  omitStages: [],
  omitManagedFields: false,
  rules: [
    rule({ level: 'None', nonResourceURLs: ['/healthz*'] }),
    rule({ level: 'Metadata', userGroups: ['system:masters'], nonResourceURLs: ['/version'] }),
    rule({ level: 'None', namespaces: ['quiet'] }),
    rule({
      level: 'None',
      resources: [{ group: '', resources: ['configmaps'], resourceNames: ['hidden'] }],
    }),
    rule({ level: 'Request', namespaces: ['req'] }),
    rule({ level: 'RequestResponse', namespaces: ['full'], omitManagedFields: true }),
    rule({ level: 'RequestResponse', namespaces: ['fullmf'] }),
    rule({ level: 'Metadata', namespaces: ['omit'], omitStages: ['RequestReceived'] }),
    rule({ level: 'RequestResponse', users: ['admin'], verbs: ['list'], namespaces: ['byuser'] }),
    rule({ level: 'Request', userGroups: ['system:unauthenticated'] }),
    rule({ level: 'Metadata' }),
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('audit through the server', () => {
  let t: TestApiServer;
  const backend = new FakeBackend();

  before(async () => {
    t = await startTestApiServer({ audit: { policy: POLICY, backend } });
    for (const ns of ['quiet', 'req', 'full', 'fullmf', 'omit', 'byuser', 'meta']) {
      const r = await t.call({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: JSON.stringify({ metadata: { name: ns } }),
      });
      assert.equal(r.status, 201, r.body);
    }
  });
  after(async () => {
    await t.stop();
    assert.equal(backend.shutDown, true);
  });

  /** The events of the request answered with `r`, once its ResponseComplete (or `last`) is in. */
  async function eventsOf(
    r: { headers: Record<string, unknown> },
    last: string = 'ResponseComplete',
  ): Promise<AuditEvent[]> {
    const id = String(r.headers['audit-id']);
    return waitFor(
      () => backend.of(id),
      (evs) => evs.some((e) => e.stage === last),
      `the ${last} event of ${id}`,
    );
  }

  it('Metadata: RequestReceived and ResponseComplete with upstream fields, no objects', async () => {
    const r = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/meta/configmaps?fieldManager=test',
      body: JSON.stringify({ metadata: { name: 'cm' }, data: { a: '1' } }),
      headers: { 'user-agent': 'audit-test/1.0', 'x-forwarded-for': '10.0.0.1, bogus, 10.0.0.2' },
    });
    assert.equal(r.status, 201, r.body);
    const id = String(r.headers['audit-id']);
    assert.match(id, UUID);
    const evs = await eventsOf(r);
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    const [received, done] = evs;
    assert.equal(done.apiVersion, `${auditGroup(SPEC)}/v1`);
    assert.equal(done.kind, 'Event');
    assert.equal(done.level, 'Metadata');
    assert.equal(done.auditID, id);
    assert.equal(done.verb, 'create');
    assert.equal(done.requestURI, '/api/v1/namespaces/meta/configmaps?fieldManager=test');
    assert.equal(done.user.username, 'admin');
    assert.ok(done.user.groups?.includes('system:masters'));
    assert.deepEqual(done.sourceIPs, ['10.0.0.1', '10.0.0.2', '127.0.0.1']);
    assert.equal(done.userAgent, 'audit-test/1.0');
    // The name comes from the body, as upstream's LogRequestObject fills it.
    assert.deepEqual(done.objectRef, {
      resource: 'configmaps',
      namespace: 'meta',
      name: 'cm',
      apiVersion: 'v1',
    });
    assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
    assert.equal(done.requestObject, undefined);
    assert.equal(done.responseObject, undefined);
    assert.match(done.requestReceivedTimestamp, MICRO_TIME);
    assert.match(done.stageTimestamp, MICRO_TIME);
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.equal(done.requestReceivedTimestamp, received.requestReceivedTimestamp);
    assert.ok(done.stageTimestamp >= done.requestReceivedTimestamp);
    // RequestReceived comes before authorization: only the later event has its decision.
    assert.equal(received.annotations, undefined);
    assert.equal(received.responseStatus, undefined);
    assert.equal(done.annotations?.[`${AUTHZ}/decision`], 'allow');
    assert.equal(typeof done.annotations?.[`${AUTHZ}/reason`], 'string');
    // Upstream's key order, which the JSON lines keep.
    assert.deepEqual(Object.keys(done), [
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ]);
  });

  it('a client Audit-ID is used as sent, and echoed', async () => {
    const r = await t.call({
      path: '/api/v1/namespaces/meta/configmaps',
      headers: { 'audit-id': 'my-id-1' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers['audit-id'], 'my-id-1');
    const evs = await eventsOf(r);
    assert.equal(evs[0].auditID, 'my-id-1');
    assert.equal(evs[0].verb, 'list');
  });

  it('level None (namespace, resource name, non-resource URL): nothing recorded, Audit-ID still sent', async () => {
    const before = backend.events.length;
    const calls = [
      await t.call({ path: '/api/v1/namespaces/quiet/configmaps' }),
      await t.call({ path: '/api/v1/namespaces/meta/configmaps/hidden' }),
      await t.call({ path: '/healthz' }),
    ];
    for (const r of calls) assert.match(String(r.headers['audit-id']), UUID);
    // A later audited request's events arrive after theirs would have.
    await eventsOf(await t.call({ path: '/api/v1/namespaces/meta/configmaps' }));
    const ids = new Set(calls.map((r) => String(r.headers['audit-id'])));
    assert.equal(backend.events.slice(before).filter((e) => ids.has(e.auditID)).length, 0);
  });

  it('a non-resource URL matched for a group: Metadata without objectRef', async () => {
    const r = await t.call({ path: '/version' });
    const done = (await eventsOf(r)).at(-1) as AuditEvent;
    assert.equal(done.level, 'Metadata');
    assert.equal(done.verb, 'get');
    assert.equal(done.objectRef, undefined);
    assert.deepEqual(done.responseStatus, { metadata: {}, code: 200 });
  });

  it('Request: the request object as decoded, no response object', async () => {
    const r = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/req/configmaps',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c1' },
        data: { k: 'v' },
      }),
    });
    assert.equal(r.status, 201, r.body);
    const [received, done] = await eventsOf(r);
    assert.equal(done.level, 'Request');
    assert.equal(received.requestObject, undefined);
    const obj = done.requestObject as { metadata: Record<string, unknown>; data: unknown };
    assert.deepEqual(obj.data, { k: 'v' });
    assert.equal(obj.metadata.name, 'c1');
    // Recorded before the store filled it in.
    assert.equal(obj.metadata.uid, undefined);
    assert.equal(done.responseObject, undefined);
  });

  it('Request: a patch is recorded as sent', async () => {
    const r = await t.call({
      method: 'PATCH',
      path: '/api/v1/namespaces/req/configmaps/c1',
      body: JSON.stringify({ data: { k: 'w' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(r.status, 200, r.body);
    const done = (await eventsOf(r)).at(-1) as AuditEvent;
    assert.deepEqual(done.requestObject, { data: { k: 'w' } });
    assert.equal(done.objectRef?.name, 'c1');
  });

  it('RequestResponse: both objects; omitManagedFields drops managedFields from each', async () => {
    const body = JSON.stringify({
      metadata: { name: 'c2' },
      data: { k: 'v' },
    });
    const kept = await t.call({ method: 'POST', path: '/api/v1/namespaces/fullmf/configmaps', body });
    const dropped = await t.call({ method: 'POST', path: '/api/v1/namespaces/full/configmaps', body });
    assert.equal(kept.status, 201, kept.body);
    assert.equal(dropped.status, 201, dropped.body);
    const k = (await eventsOf(kept)).at(-1) as AuditEvent;
    const d = (await eventsOf(dropped)).at(-1) as AuditEvent;
    type Obj = { metadata: Record<string, unknown> };
    const answered = kept.json() as Obj;
    assert.ok(Array.isArray(answered.metadata.managedFields), 'the server tracks managed fields');
    assert.deepEqual(k.responseObject, answered);
    assert.equal((k.requestObject as Obj).metadata.name, 'c2');
    assert.equal((d.responseObject as Obj).metadata.managedFields, undefined);
    assert.equal((d.responseObject as Obj).metadata.name, 'c2');
    assert.deepEqual(d.responseStatus, { metadata: {}, code: 201 });

    // A failure: the Status in responseStatus and as the response object.
    const missing = await t.call({ path: '/api/v1/namespaces/full/configmaps/nope' });
    assert.equal(missing.status, 404);
    const m = (await eventsOf(missing)).at(-1) as AuditEvent;
    assert.deepEqual(m.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
    assert.equal((m.responseObject as { kind: string }).kind, 'Status');
  });

  it('a user and verb rule: a list at RequestResponse carries the list', async () => {
    const r = await t.call({ path: '/api/v1/namespaces/byuser/configmaps' });
    const done = (await eventsOf(r)).at(-1) as AuditEvent;
    assert.equal(done.level, 'RequestResponse');
    const list = done.responseObject as { kind: string; items: unknown[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.ok(Array.isArray(list.items));
    assert.equal('runs' in list, false);
  });

  it('omitStages: a rule leaving out RequestReceived', async () => {
    const r = await t.call({ path: '/api/v1/namespaces/omit/configmaps' });
    const evs = await eventsOf(r);
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['ResponseComplete'],
    );
  });

  it('a watch gets ResponseStarted when its stream starts, then ResponseComplete', async () => {
    const r = await t.call({ path: '/api/v1/namespaces/meta/configmaps?watch=true&timeoutSeconds=1' });
    assert.equal(r.status, 200);
    const evs = await eventsOf(r);
    assert.deepEqual(
      evs.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    assert.equal(evs[1].verb, 'watch');
    assert.deepEqual(evs[1].responseStatus, { metadata: {}, code: 200 });
    assert.deepEqual(evs[2].responseStatus, { metadata: {}, code: 200 });
  });

  it('a handler that throws: a Panic event with upstream status, a 500, no ResponseComplete', async () => {
    const original = GenericStore.prototype.get;
    GenericStore.prototype.get = function (this: GenericStore, ns, name, at) {
      if (name === 'boom') throw new TypeError('boom went the handler');
      return original.call(this, ns, name, at);
    };
    try {
      const r = await t.call({ path: '/api/v1/namespaces/meta/configmaps/boom' });
      assert.equal(r.status, 500);
      const evs = await eventsOf(r, 'Panic');
      assert.deepEqual(
        evs.map((e) => e.stage),
        ['RequestReceived', 'Panic'],
      );
      assert.deepEqual(evs[1].responseStatus, {
        metadata: {},
        status: 'Failure',
        message: "APIServer panic'd: boom went the handler",
        reason: 'InternalError',
        code: 500,
      });
    } finally {
      GenericStore.prototype.get = original;
    }
  });

  it('impersonation: the authenticated user in user, the impersonated one in impersonatedUser', async () => {
    const r = await t.call({
      path: '/api/v1/namespaces/meta/configmaps',
      headers: { 'impersonate-user': 'bob', 'impersonate-group': 'devs' },
    });
    assert.equal(r.status, 403);
    const [received, done] = await eventsOf(r);
    assert.equal(received.user.username, 'admin');
    assert.equal(received.impersonatedUser, undefined);
    assert.equal(done.user.username, 'admin');
    assert.deepEqual(done.impersonatedUser, { username: 'bob', groups: ['devs', 'system:authenticated'] });
    // bob may not list: the decision is bob's.
    assert.equal(done.annotations?.[`${AUTHZ}/decision`], 'forbid');
    assert.equal(done.responseStatus?.code, 403);
    assert.equal(done.responseStatus?.reason, 'Forbidden');
  });

  it('anonymous and forbidden: a group rule at Request, the forbid decision annotated', async () => {
    const r = await t.call({ path: '/api/v1/namespaces/meta/configmaps', anonymous: true });
    assert.equal(r.status, 403);
    const done = (await eventsOf(r)).at(-1) as AuditEvent;
    assert.equal(done.level, 'Request');
    assert.equal(done.user.username, 'system:anonymous');
    assert.equal(done.annotations?.[`${AUTHZ}/decision`], 'forbid');
    assert.equal(typeof done.annotations?.[`${AUTHZ}/reason`], 'string');
  });

  it('failed authentication: one ResponseStarted event without a user', async () => {
    const r = await t.call({
      path: '/api/v1/namespaces/meta/configmaps',
      anonymous: true,
      headers: { authorization: 'Bearer not-a-token' },
    });
    assert.equal(r.status, 401);
    const evs = await eventsOf(r, 'ResponseStarted');
    assert.equal(evs.length, 1);
    const [ev] = evs;
    assert.equal(ev.auditID, r.headers['audit-id']);
    assert.equal(ev.level, 'Metadata');
    assert.deepEqual(ev.user, {});
    assert.equal(ev.verb, 'list');
    // Upstream's writer replaces the "Authentication failed" status with the 401's own.
    assert.deepEqual(ev.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });
});
