// /metrics on the API server: a known sequence of requests shows up under upstream's metric names
// and labels (parsed from the exposition text), histograms carry their buckets, sums and counts,
// and reading the endpoint is authorized as a non-resource URL.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseExposition, type Sample } from '../../machinery/metrics/testing/exposition.ts';
import { componentClientCertificate } from '../pki/component-client.ts';
import { startTestApiServer, type TestApiServer } from '../testing/http-client.ts';
import { waitFor } from '../testing/wait-for.ts';
import { metricDryRun, metricScope, metricVerb } from './request-metrics.ts';

function find(samples: Sample[], name: string, labels: Record<string, string>): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

const CM = { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver' };

describe('/metrics', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(async () => {
    await t?.stop();
  });

  const scrape = async () => {
    const r = await t.call({ path: '/metrics' });
    assert.equal(r.status, 200, r.body);
    return { ...parseExposition(r.body), contentType: String(r.headers['content-type']) };
  };

  it('counts requests by upstream verb, scope and code, with latency and size histograms', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const created = await t.call({
      method: 'POST',
      path: base,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'm' },
        data: { a: 'b' },
      }),
    });
    assert.equal(created.status, 201, created.body);
    assert.equal((await t.call({ path: `${base}/m` })).status, 200);
    assert.equal((await t.call({ path: base })).status, 200);
    assert.equal((await t.call({ path: `${base}/missing` })).status, 404);
    const dry = await t.call({
      method: 'POST',
      path: `${base}?dryRun=All`,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } }),
    });
    assert.equal(dry.status, 201, dry.body);

    // A watch, held open until the gauge shows it, then ended by its client.
    const watch = request({
      host: '127.0.0.1',
      port: t.server.port,
      path: `${base}?watch=true`,
      ca: readFileSync(join(t.dir, 'ca.crt')),
      cert: readFileSync(join(t.dir, 'admin.crt')),
      key: readFileSync(join(t.dir, 'admin.key')),
    });
    const watchStatus = new Promise<number>((res) => watch.on('response', (r) => res(r.statusCode ?? 0)));
    watch.on('error', () => undefined);
    watch.end();
    assert.equal(await watchStatus, 200);
    const watching = { verb: 'WATCH', ...CM, scope: 'namespace' };
    await waitFor(
      scrape,
      (m) => find(m.samples, 'apiserver_longrunning_requests', watching)[0]?.value === 1,
      'the watch counted as long-running',
    );
    watch.destroy();

    const total = (verb: string, scope: string, code: string, dryRun = '') =>
      find((last ?? { samples: [] }).samples, 'apiserver_request_total', {
        verb,
        dry_run: dryRun,
        ...CM,
        scope,
        code,
      })[0]?.value;
    let last: Awaited<ReturnType<typeof scrape>> | undefined;
    last = await waitFor(
      scrape,
      (m) => {
        last = m;
        return total('WATCH', 'namespace', '200') === 1;
      },
      'the ended watch counted',
    );
    assert.equal(find(last.samples, 'apiserver_longrunning_requests', watching)[0]?.value, 0);
    assert.equal(total('POST', 'resource', '201'), 1);
    assert.equal(total('POST', 'resource', '201', 'All'), 1);
    assert.equal(total('GET', 'resource', '200'), 1);
    assert.equal(total('GET', 'resource', '404'), 1);
    assert.equal(total('LIST', 'namespace', '200'), 1);
    assert.match(last.contentType, /^text\/plain; version=0\.0\.4/);

    // Names, types and help texts are upstream's.
    assert.equal(last.type.get('apiserver_request_total'), 'counter');
    assert.equal(last.type.get('apiserver_request_duration_seconds'), 'histogram');
    assert.equal(last.type.get('apiserver_response_sizes'), 'histogram');
    assert.equal(last.type.get('apiserver_longrunning_requests'), 'gauge');
    assert.equal(last.type.get('apiserver_current_inflight_requests'), 'gauge');
    assert.equal(
      last.help.get('apiserver_request_total'),
      '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    );

    // Latency: every upstream bucket, +Inf equal to the count, a sum.
    const getLatency = { verb: 'GET', dry_run: '', ...CM, scope: 'resource' };
    const buckets = find(last.samples, 'apiserver_request_duration_seconds_bucket', getLatency);
    assert.deepEqual(
      buckets.map((b) => b.labels.le),
      [
        '0.005',
        '0.025',
        '0.05',
        '0.1',
        '0.2',
        '0.4',
        '0.6',
        '0.8',
        '1',
        '1.25',
        '1.5',
        '2',
        '3',
        '4',
        '5',
        '6',
        '8',
        '10',
        '15',
        '20',
        '30',
        '45',
        '60',
        '+Inf',
      ],
    );
    assert.equal(buckets.at(-1)?.value, 2);
    assert.equal(find(last.samples, 'apiserver_request_duration_seconds_count', getLatency)[0]?.value, 2);
    assert.equal(find(last.samples, 'apiserver_request_duration_seconds_sum', getLatency).length, 1);
    // The POST series has no duration labels of a code; the duration histogram carries no code label.
    assert.ok(
      find(last.samples, 'apiserver_request_duration_seconds_count', {}).every((s) => !('code' in s.labels)),
    );

    // Sizes: reads only, upstream's buckets, the bytes of the list's body.
    const listSize = { verb: 'LIST', ...CM, scope: 'namespace' };
    const sizes = find(last.samples, 'apiserver_response_sizes_bucket', listSize);
    assert.deepEqual(
      sizes.map((b) => b.labels.le),
      ['1000', '10000', '100000', '1000000', '10000000', '100000000', '1000000000', '+Inf'],
    );
    assert.equal(find(last.samples, 'apiserver_response_sizes_count', listSize)[0]?.value, 1);
    assert.ok((find(last.samples, 'apiserver_response_sizes_sum', listSize)[0]?.value ?? 0) > 0);
    assert.equal(find(last.samples, 'apiserver_response_sizes_count', { verb: 'POST' }).length, 0);

    // In flight by kind, and the scrapes themselves: a non-resource GET with empty resource labels.
    assert.ok(
      (find(last.samples, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' })[0]?.value ??
        0) >= 1,
    );
    assert.equal(
      find(last.samples, 'apiserver_current_inflight_requests', { request_kind: 'mutating' }).length,
      1,
    );
    const scrapes = find(last.samples, 'apiserver_request_total', {
      verb: 'GET',
      group: '',
      version: '',
      resource: '',
      subresource: '',
      scope: '',
      code: '200',
    });
    assert.equal(scrapes.length, 1);
    assert.ok(scrapes[0].value >= 1);

    // prom-client's process and Node.js metrics.
    assert.ok(last.type.has('process_cpu_user_seconds_total'));
    assert.ok(last.type.has('nodejs_heap_size_used_bytes'));
  });

  it('is readable by system:monitoring, forbidden to anonymous', async () => {
    const anonymous = await t.call({ path: '/metrics', anonymous: true });
    assert.equal(anonymous.status, 403);
    assert.equal(anonymous.json().message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
    const creds = await componentClientCertificate(t.dir, 'prometheus', ['system:monitoring']);
    const status = await new Promise<{ code: number; body: string }>((res, rej) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path: '/metrics',
          ca: creds.caPem,
          cert: creds.certPem,
          key: creds.keyPem,
        },
        (r) => {
          let body = '';
          r.on('data', (d: Buffer) => {
            body += d.toString('utf8');
          });
          r.on('end', () => res({ code: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', rej);
      req.end();
    });
    assert.equal(status.code, 200);
    assert.match(status.body, /^# HELP apiserver_request_total /m);
    // A user without the role is refused.
    const other = await componentClientCertificate(t.dir, 'someone', []);
    const refused = await new Promise<number>((res, rej) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path: '/metrics',
          ca: other.caPem,
          cert: other.certPem,
          key: other.keyPem,
        },
        (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        },
      );
      req.on('error', rej);
      req.end();
    });
    assert.equal(refused, 403);
  });
});

describe('label normalisation', () => {
  const ctx = (method: string, url: string, headers: Record<string, string> = {}) => {
    const { parseRequestInfo } = requestInfo;
    const q = url.indexOf('?');
    return {
      method,
      url,
      query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
      info: parseRequestInfo(method, url),
      req: { headers },
    } as unknown as Parameters<typeof metricVerb>[0];
  };
  let requestInfo: typeof import('../request-info.ts');
  before(async () => {
    requestInfo = await import('../request-info.ts');
  });

  it('reports verbs and scopes as upstream does', () => {
    const cases: [string, string, Record<string, string>, string, string][] = [
      ['GET', '/api/v1/pods', {}, 'LIST', 'cluster'],
      ['GET', '/api/v1/namespaces/a/pods', {}, 'LIST', 'namespace'],
      ['GET', '/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3Dx', {}, 'LIST', 'namespace'],
      ['GET', '/api/v1/namespaces/a/pods?watch=1', {}, 'WATCH', 'namespace'],
      ['GET', '/api/v1/namespaces/a/pods/p', {}, 'GET', 'resource'],
      ['HEAD', '/api/v1/namespaces/a/pods/p', {}, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/a', {}, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces', {}, 'LIST', 'cluster'],
      ['POST', '/api/v1/namespaces/a/pods', {}, 'POST', 'resource'],
      ['PUT', '/api/v1/namespaces/a/pods/p', {}, 'PUT', 'resource'],
      ['DELETE', '/api/v1/namespaces/a/pods', {}, 'DELETE', 'namespace'],
      [
        'PATCH',
        '/api/v1/namespaces/a/pods/p',
        { 'content-type': 'application/apply-patch+yaml' },
        'APPLY',
        'resource',
      ],
      [
        'PATCH',
        '/api/v1/namespaces/a/pods/p',
        { 'content-type': 'application/merge-patch+json' },
        'PATCH',
        'resource',
      ],
      ['GET', '/api/v1/namespaces/a/pods/p/log', {}, 'CONNECT', 'resource'],
      ['GET', '/healthz', {}, 'GET', ''],
      ['OPTIONS', '/api/v1/pods', {}, 'other', 'cluster'],
    ];
    for (const [method, url, headers, verb, scope] of cases) {
      const c = ctx(method, url, headers);
      assert.deepEqual([metricVerb(c, metricScope(c)), metricScope(c)], [verb, scope], `${method} ${url}`);
    }
  });

  it('reports dry runs as upstream does', () => {
    assert.equal(metricDryRun(ctx('POST', '/api/v1/pods')), '');
    assert.equal(metricDryRun(ctx('POST', '/api/v1/pods?dryRun=All')), 'All');
    assert.equal(metricDryRun(ctx('POST', '/api/v1/pods?dryRun=All&dryRun=All')), 'All');
    assert.equal(metricDryRun(ctx('POST', '/api/v1/pods?dryRun=Some')), 'invalid');
  });
});

describe('fast histogram', () => {
  it('counts a value on a bound in that bound, cumulatively, and renders through the registry', async () => {
    const { MetricsRegistry } = await import('../../machinery/metrics/index.ts');
    const { FastHistogram } = await import('../../machinery/metrics/index.ts');
    const registry = new MetricsRegistry();
    const h = new FastHistogram(
      { name: 'test_seconds', help: 'Test.', labelNames: ['a'], buckets: [1, 2] },
      registry,
    );
    const s = h.series('x');
    for (const v of [0.5, 1, 1.5, 3]) h.observe(s, v);
    const { samples, help } = parseExposition(await registry.metrics());
    assert.equal(help.get('test_seconds'), '[ALPHA] Test.');
    assert.deepEqual(
      samples.map((x) => [x.name, x.labels.le ?? '', x.value]),
      [
        ['test_seconds_bucket', '1', 2],
        ['test_seconds_bucket', '2', 3],
        ['test_seconds_bucket', '+Inf', 4],
        ['test_seconds_sum', '', 6],
        ['test_seconds_count', '', 4],
      ],
    );
  });
});
