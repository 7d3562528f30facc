// Events in both APIs over HTTP: one storage (an Event written through either API reads through
// the other in its shape), upstream's validation of each API, the field selectors each supports,
// the `kubectl get events` columns, and watches through the events group.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { upstreamGroupAlias } from '../../naming/group-aliases.ts';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/index.ts';
import { eventFromCore, eventToCore } from './conversion.ts';

const profile = namingProfile('spec');
const GROUP = groupName(profile, 'events');
const CORE = '/api/v1/namespaces/default/events';
const NEW = `/apis/${GROUP}/v1/namespaces/default/events`;
const NOW = '2026-01-02T03:04:05.123456Z';

const coreEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container',
  source: { component: 'agent', host: 'node-1' },
  firstTimestamp: '2026-01-02T03:04:05Z',
  lastTimestamp: '2026-01-02T03:04:05Z',
  count: 3,
  type: 'Normal',
  ...extra,
});

const newEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Event',
  metadata: { name },
  eventTime: NOW,
  reportingController: `${GROUP}/scheduler`,
  reportingInstance: 'scheduler-1',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: { kind: 'Pod', namespace: 'default', name: 'web-2', apiVersion: 'v1' },
  note: 'Successfully assigned',
  type: 'Normal',
  ...extra,
});

describe('Event conversion', () => {
  it('round-trips between the two shapes', () => {
    const v1 = newEvent('x', {
      deprecatedCount: 2,
      deprecatedSource: { component: 'c' },
      series: { count: 2, lastObservedTime: NOW },
    }) as ApiObject;
    const core = eventToCore(v1);
    assert.equal(core.apiVersion, 'v1');
    assert.deepEqual(core.involvedObject, v1.regarding);
    assert.equal(core.message, v1.note);
    assert.equal(core.reportingComponent, v1.reportingController);
    assert.equal(core.count, 2);
    assert.deepEqual(eventFromCore(core, `${GROUP}/v1`), v1);
  });
});

describe('events over HTTP', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t?.stop());
  const post = (path: string, body: unknown) => t.call({ method: 'POST', path, body: JSON.stringify(body) });

  it('a core Event reads through the events group in its shape, and the other way round', async () => {
    const a = await post(CORE, coreEvent('a'));
    assert.equal(a.status, 201, a.body);
    const viaNew = await t.call({ path: `${NEW}/a` });
    assert.equal(viaNew.status, 200, viaNew.body);
    const n = viaNew.json();
    assert.equal(n.apiVersion, `${GROUP}/v1`);
    assert.equal((n.regarding as { name: string }).name, 'web-1');
    assert.equal(n.note, 'Started container');
    assert.equal(n.deprecatedCount, 3);
    assert.deepEqual(n.deprecatedSource, { component: 'agent', host: 'node-1' });
    assert.equal(n.involvedObject, undefined);

    const b = await post(NEW, newEvent('b'));
    assert.equal(b.status, 201, b.body);
    assert.equal((b.json().regarding as { name: string }).name, 'web-2');
    const viaCore = (await t.call({ path: `${CORE}/b` })).json();
    assert.equal(viaCore.apiVersion, 'v1');
    assert.equal((viaCore.involvedObject as { name: string }).name, 'web-2');
    assert.equal(viaCore.message, 'Successfully assigned');
    assert.equal(viaCore.reportingComponent, `${GROUP}/scheduler`);

    // A merge patch through the events group changes the stored core object.
    const patched = await t.call({
      method: 'PATCH',
      path: `${NEW}/b`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ series: { count: 2, lastObservedTime: NOW } }),
    });
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual((await t.call({ path: `${CORE}/b` })).json().series, {
      count: 2,
      lastObservedTime: NOW,
    });
    const list = (await t.call({ path: NEW })).json();
    assert.deepEqual((list.items as ApiObject[]).map((i) => i.metadata?.name).sort(), ['a', 'b']);
    const alias = upstreamGroupAlias(profile, GROUP);
    assert.ok(alias !== undefined);
    const viaAlias = await t.call({ path: `/apis/${alias}/v1/namespaces/default/events/b` });
    assert.equal(viaAlias.status, 200, viaAlias.body);
    assert.equal(viaAlias.json().apiVersion, `${alias}/v1`);
    assert.equal(viaAlias.json().note, 'Successfully assigned');
  });

  it('core validation: the involved object namespace must match; events with eventTime need reporting fields', async () => {
    const wrongNs = await post(
      CORE,
      coreEvent('c', { involvedObject: { kind: 'Pod', namespace: 'other', name: 'x' } }),
    );
    assert.equal(wrongNs.status, 422, wrongNs.body);
    assert.match(
      wrongNs.body,
      /involvedObject.namespace: Invalid value: \\"other\\": does not match event.namespace/,
    );
    const newStyle = await post(CORE, coreEvent('d', { eventTime: NOW }));
    assert.equal(newStyle.status, 422);
    const causes = (newStyle.json().details as { causes: { field: string }[] }).causes.map((c) => c.field);
    // An empty controller is also not a qualified name, as upstream reports it (three causes).
    assert.deepEqual(causes, [
      'reportingComponent',
      'reportingComponent',
      'reportingComponent',
      'reportingInstance',
      'action',
    ]);
  });

  it('events group validation: strict rules of that API', async () => {
    const r = await post(
      NEW,
      newEvent('e', {
        type: 'Odd',
        note: 'x'.repeat(1025),
        deprecatedCount: 4,
        series: { count: 1, lastObservedTime: NOW },
        reportingController: '',
      }),
    );
    assert.equal(r.status, 422, r.body);
    const causes = (r.json().details as { causes: { field: string; message: string }[] }).causes.map(
      (c) => `${c.field}: ${c.message}`,
    );
    assert.deepEqual(
      causes.filter((c) => !c.startsWith('reportingController: Invalid value: "": name part')),
      [
        'reportingController: Required value',
        'message: Invalid value: "": can have at most 1024 characters',
        'series.count: Invalid value: "": should be at least 2',
        'type: Invalid value: "": has invalid value: Odd',
        'deprecatedCount: Invalid value: "": needs to be unset',
      ],
    );
    const noTime = await post(NEW, newEvent('f', { eventTime: undefined }));
    assert.equal(noTime.status, 422, noTime.body);
    assert.match(noTime.body, /eventTime: Required value/);
    // Immutable fields through the events group.
    const upd = await t.call({
      method: 'PATCH',
      path: `${NEW}/b`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ note: 'changed' }),
    });
    assert.equal(upd.status, 422, upd.body);
    assert.match(upd.body, /message: Invalid value: \\"changed\\": field is immutable/);
  });

  it('field selectors of each API', async () => {
    const names = async (path: string) => {
      const r = await t.call({ path });
      assert.equal(r.status, 200, r.body);
      return (r.json().items as ApiObject[]).map((i) => i.metadata?.name).sort();
    };
    assert.deepEqual(await names(`${CORE}?fieldSelector=involvedObject.name%3Dweb-1`), ['a']);
    assert.deepEqual(await names(`${CORE}?fieldSelector=source%3D${GROUP}/scheduler`), ['b']);
    assert.deepEqual(
      await names(`${CORE}?fieldSelector=reportingComponent%3D${GROUP}/scheduler,type%3DNormal`),
      ['b'],
    );
    assert.deepEqual(await names(`${NEW}?fieldSelector=regarding.name%3Dweb-2`), ['b']);
    assert.deepEqual(await names(`${NEW}?fieldSelector=reportingController%3D${GROUP}/scheduler`), ['b']);
    const unsupported = await t.call({ path: `${NEW}?fieldSelector=source%3Dx` });
    assert.equal(unsupported.status, 400, unsupported.body);
    assert.match(unsupported.body, /field label not supported: source/);
  });

  it('the table has the columns of kubectl get events', async () => {
    const table = await t.call({
      path: CORE,
      headers: { accept: `application/json;as=Table;v=v1;g=${UPSTREAM_ALIASES.metaGroup}` },
    });
    const j = table.json() as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      j.columnDefinitions.filter((c) => !c.priority).map((c) => c.name),
      ['Last Seen', 'Type', 'Reason', 'Object', 'Message'],
    );
    const row = j.rows.find((r) => r.cells[3] === 'pod/web-1');
    assert.ok(row, JSON.stringify(j.rows));
    assert.deepEqual(
      row.cells.slice(1, 9).filter((_, i) => i !== 6),
      ['Normal', 'Started', 'pod/web-1', '', 'agent, node-1', 'Started container', 3],
    );
  });

  it('a watch through the events group sees writes through core in its shape', async () => {
    const rv = (await t.call({ path: NEW })).json().metadata as { resourceVersion: string };
    const created = await post(CORE, coreEvent('watched'));
    assert.equal(created.status, 201, created.body);
    // From the revision before the write: the event is replayed however the timing falls.
    const r = await t.call({ path: `${NEW}?watch=1&resourceVersion=${rv.resourceVersion}&timeoutSeconds=1` });
    const first = JSON.parse(r.body.split('\n')[0] ?? '{}') as { type: string; object: ApiObject };
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object.apiVersion, `${GROUP}/v1`);
    assert.equal((first.object.regarding as { name: string }).name, 'web-1');
  });
});
