// The resourceVersion tables of get, list and watch, cell by cell, and streaming lists.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { initialEventsEndAnnotations, namingProfile, UPSTREAM_ALIASES } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';

const CM = '/api/v1/namespaces/reads/configmaps';
type List = {
  metadata: { resourceVersion: string; continue?: string };
  items: { metadata: { name: string } }[];
};
type Event = {
  type: string;
  object: { metadata: { name?: string; resourceVersion: string; annotations?: Record<string, string> } };
};

describe('resourceVersion semantics', () => {
  let t: TestApiServer;
  let rvA = 0;
  const list = async (query: string) => t.call({ path: `${CM}?${query}` });
  const names = (r: { json: () => unknown }) => (r.json() as List).items.map((i) => i.metadata.name);
  const events = (body: string): Event[] =>
    body
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));

  before(async () => {
    t = await startTestApiServer();
    await t.call({ method: 'POST', path: '/api/v1/namespaces', body: '{"metadata":{"name":"reads"}}' });
    const a = await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"a"}}' });
    rvA = Number((a.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"b"}}' });
  });
  after(() => t.stop());

  describe('list', () => {
    for (const [query, expected] of [
      ['', ['a', 'b']],
      ['resourceVersion=0', ['a', 'b']],
      [`resourceVersion=${0}&resourceVersionMatch=NotOlderThan`, ['a', 'b']],
      ['limit=10', ['a', 'b']],
      ['resourceVersion=0&limit=10', ['a', 'b']],
    ] as const) {
      it(`${query || 'unset'}: the current collection`, async () => {
        const r = await list(query);
        assert.equal(r.status, 200, r.body);
        assert.deepEqual(names(r), expected);
      });
    }

    it('a number without limit is "not older than": the newest state', async () => {
      const r = await list(`resourceVersion=${rvA}`);
      assert.deepEqual(names(r), ['a', 'b']);
      assert.ok(Number((r.json() as List).metadata.resourceVersion) > rvA);
    });

    it('a number with limit, or with Exact, is the collection exactly as it was', async () => {
      for (const query of [
        `resourceVersion=${rvA}&limit=10`,
        `resourceVersion=${rvA}&resourceVersionMatch=Exact`,
      ]) {
        const r = await list(query);
        assert.equal(r.status, 200, r.body);
        assert.deepEqual(names(r), ['a'], query);
        assert.equal((r.json() as List).metadata.resourceVersion, String(rvA));
      }
    });

    it('continue pages at the token revision; "0" beside it is ignored, a number refused', async () => {
      const first = (await list('limit=1')).json() as List;
      const token = encodeURIComponent(first.metadata.continue ?? '');
      assert.deepEqual(names(await list(`limit=1&continue=${token}`)), ['b']);
      assert.deepEqual(names(await list(`limit=1&continue=${token}&resourceVersion=0`)), ['b']);
      const refused = await list(`limit=1&continue=${token}&resourceVersion=${rvA}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.json().message, 'specifying resource version is not allowed when using continue');
    });

    // The list table's Invalid cells are 400 by the spec ("Errors"); the rest stay upstream's 422.
    for (const [query, message] of [
      [
        'resourceVersionMatch=Exact',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ],
      [
        'resourceVersionMatch=NotOlderThan',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ],
      [
        'resourceVersion=0&resourceVersionMatch=Exact',
        'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      ],
    ] as const) {
      it(`${query}: 400`, async () => {
        const r = await list(query);
        assert.equal(r.status, 400, r.body);
        assert.equal(r.json().reason, 'BadRequest');
        assert.equal(r.json().message, message);
      });
    }

    for (const [query, message] of [
      [
        'resourceVersion=1&resourceVersionMatch=Sometimes',
        'resourceVersionMatch: Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""',
      ],
      ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ] as const) {
      it(`${query}: 422`, async () => {
        const r = await list(query);
        assert.equal(r.status, 422, r.body);
        assert.match(String(r.json().message), /^ListOptions\.meta\S* "" is invalid: /);
        assert.ok(String(r.json().message).endsWith(message), String(r.json().message));
      });
    }

    it('a future revision times out as Too large resource version (504)', async () => {
      const r = await list('resourceVersion=99999999');
      assert.equal(r.status, 504, r.body);
      const s = r.json() as {
        reason: string;
        message: string;
        details: { retryAfterSeconds: number; causes: { reason: string }[] };
      };
      assert.equal(s.reason, 'Timeout');
      assert.match(s.message, /Too large resource version/);
      assert.ok(s.details.retryAfterSeconds > 0);
      assert.equal(s.details.causes[0].reason, 'ResourceVersionTooLarge');
    });
  });

  describe('get', () => {
    for (const rv of ['', '0', '1']) {
      it(`resourceVersion=${rv || 'unset'} answers the current object`, async () => {
        const r = await t.call({ path: `${CM}/a${rv === '' ? '' : `?resourceVersion=${rv}`}` });
        assert.equal(r.status, 200, r.body);
      });
    }
    it('a future revision is 504', async () => {
      assert.equal((await t.call({ path: `${CM}/a?resourceVersion=99999999` })).status, 504);
    });
  });

  describe('watch', () => {
    const watch = async (query: string, change?: () => Promise<unknown>) => {
      const pending = t.call({ path: `${CM}?watch=true&timeoutSeconds=1&${query}` });
      if (change) {
        await new Promise((r) => setTimeout(r, 200));
        await change();
      }
      return pending;
    };

    it('unset and "0" start with the current state as ADDED', async () => {
      for (const query of ['', 'resourceVersion=0']) {
        const r = await watch(query);
        assert.deepEqual(
          events(r.body).map((e) => `${e.type} ${e.object.metadata.name}`),
          ['ADDED a', 'ADDED b'],
        );
      }
    });

    it('a number starts strictly after it', async () => {
      const r = await watch(`resourceVersion=${rvA}`);
      assert.deepEqual(
        events(r.body).map((e) => `${e.type} ${e.object.metadata.name}`),
        ['ADDED b'],
      );
    });

    it('a streaming list sends the state, a bookmark with both end annotations, then changes', async () => {
      const r = await watch(
        'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
        () =>
          t.call({
            method: 'PATCH',
            path: `${CM}/a`,
            body: '{"data":{"k":"v"}}',
            headers: { 'content-type': 'application/merge-patch+json' },
          }),
      );
      const evs = events(r.body).filter((e, i) => !(e.type === 'BOOKMARK' && i > 2));
      assert.deepEqual(
        evs.map((e) => e.type),
        ['ADDED', 'ADDED', 'BOOKMARK', 'MODIFIED'],
      );
      const annotations = evs[2].object.metadata.annotations ?? {};
      const expected = initialEventsEndAnnotations(namingProfile('spec'));
      assert.ok(expected.includes(UPSTREAM_ALIASES.initialEventsEndAnnotation));
      for (const a of expected) assert.equal(annotations[a], 'true');
      assert.ok(Number(evs[2].object.metadata.resourceVersion) >= rvA);
    });

    it('sendInitialEvents=false starts at the most recent revision without the state', async () => {
      const r = await watch('sendInitialEvents=false&resourceVersionMatch=NotOlderThan', () =>
        t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"c"}}' }),
      );
      assert.deepEqual(
        events(r.body).map((e) => `${e.type} ${e.object.metadata.name}`),
        ['ADDED c'],
      );
    });

    for (const [query, message] of [
      [
        'sendInitialEvents=true',
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      ],
      [
        'resourceVersionMatch=NotOlderThan',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ],
    ] as const) {
      it(`${query}: 422 so clients fall back to list and watch`, async () => {
        const r = await t.call({ path: `${CM}?watch=true&${query}` });
        assert.equal(r.status, 422, r.body);
        assert.ok(String(r.json().message).endsWith(message), String(r.json().message));
      });
    }
  });
});

describe('per-kind field selectors', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    for (const [name, type] of [
      ['plain', 'Opaque'],
      ['cfg', 'example.com/config'],
    ]) {
      const body = JSON.stringify({ metadata: { name }, type, stringData: { a: 'b' } });
      assert.equal(
        (await t.call({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body })).status,
        201,
      );
    }
  });
  after(() => t.stop());

  it('secrets select by type, namespaces by status.phase', async () => {
    const secrets = await t.call({ path: '/api/v1/namespaces/default/secrets?fieldSelector=type%3DOpaque' });
    assert.deepEqual(
      (secrets.json() as List).items.map((i) => i.metadata.name),
      ['plain'],
    );
    const active = await t.call({
      path: '/api/v1/namespaces?fieldSelector=status.phase%3DActive,metadata.name%3Ddefault',
    });
    assert.deepEqual(
      (active.json() as List).items.map((i) => i.metadata.name),
      ['default'],
    );
  });

  it('a field a kind does not declare is a 400 in upstream words', async () => {
    const r = await t.call({ path: '/api/v1/namespaces/default/secrets?fieldSelector=data.a%3Db' });
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'field label not supported: data.a');
    const cm = await t.call({ path: '/api/v1/namespaces/default/configmaps?fieldSelector=type%3Dx' });
    assert.equal(
      cm.json().message,
      '"type" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});

describe('watch timeouts', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('a watch with bookmarks ends its timeout with a BOOKMARK at the last revision it sent', async () => {
    const created = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: '{"metadata":{"name":"t"}}',
    });
    const rv = (created.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const r = await t.call({
      path: '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&allowWatchBookmarks=true',
    });
    const lines = r.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } });
    assert.deepEqual(
      lines.map((e) => e.type),
      ['ADDED', 'BOOKMARK'],
    );
    assert.equal(lines[1].object.metadata.resourceVersion, rv);
    const plain = await t.call({ path: '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1' });
    assert.equal(plain.body.trim().split('\n').length, 1);
  });
});

describe('other representations', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: '{"metadata":{"name":"m","labels":{"a":"b"}},"data":{"k":"v"}}',
    });
  });
  after(() => t.stop());

  for (const v of ['v1', 'v1beta1']) {
    it(`Table in meta ${v}, in the group asked for`, async () => {
      const r = await t.call({
        path: '/api/v1/namespaces/default/configmaps',
        headers: { accept: `application/json;as=Table;v=${v};g=${UPSTREAM_ALIASES.metaGroup}` },
      });
      assert.equal(r.status, 200, r.body);
      const table = r.json() as { kind: string; apiVersion: string; rows: unknown[] };
      assert.equal(table.kind, 'Table');
      assert.equal(table.apiVersion, `${UPSTREAM_ALIASES.metaGroup}/${v}`);
      assert.equal(table.rows.length, 1);
    });
  }

  it('PartialObjectMetadata for a get, PartialObjectMetadataList for a list, per event for a watch', async () => {
    const accept = (as: string) => ({
      accept: `application/json;as=${as};v=v1;g=${UPSTREAM_ALIASES.metaGroup}`,
    });
    const one = (
      await t.call({
        path: '/api/v1/namespaces/default/configmaps/m',
        headers: accept('PartialObjectMetadata'),
      })
    ).json();
    assert.equal(one.kind, 'PartialObjectMetadata');
    assert.equal(one.apiVersion, `${UPSTREAM_ALIASES.metaGroup}/v1`);
    assert.deepEqual((one.metadata as { labels: unknown }).labels, { a: 'b' });
    assert.equal(one.data, undefined);
    const list = (
      await t.call({
        path: '/api/v1/namespaces/default/configmaps',
        headers: accept('PartialObjectMetadataList'),
      })
    ).json();
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal((list.items as { kind: string }[])[0].kind, 'PartialObjectMetadata');
    const watch = await t.call({
      path: '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1',
      headers: accept('PartialObjectMetadata'),
    });
    const ev = JSON.parse(watch.body.trim().split('\n')[0]) as {
      type: string;
      object: { kind: string; data?: unknown };
    };
    assert.equal(ev.object.kind, 'PartialObjectMetadata');
    assert.equal(ev.object.data, undefined);
    const wrong = await t.call({
      path: '/api/v1/namespaces/default/configmaps',
      headers: accept('PartialObjectMetadata'),
    });
    assert.equal(wrong.status, 406);
  });
});
