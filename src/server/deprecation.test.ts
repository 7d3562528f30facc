// Calls to a deprecated version: upstream's warning text, the audit annotations and
// apiserver_requested_deprecated_apis, for the deprecated Widget version served beside a current
// one (testing/deprecated-kind.ts), and nothing at all for the current one.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import http2 from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { MetricsRegistry } from '../machinery/metrics/index.ts';
import {
  deprecatedApiAnnotationKey,
  removedReleaseAnnotationKey,
} from '../naming/deprecated-api-annotations.ts';
import { namingProfile } from '../naming/profile.ts';
import type { RequestContext } from './context.ts';
import {
  deprecatedApisMetric,
  deprecationSignalOf,
  deprecationWarning,
  isDeprecated,
  markDeprecatedCall,
  removedReleaseOf,
  signalDeprecatedCall,
} from './deprecation.ts';
import {
  h2Request,
  type KindsServer,
  startKindsServer,
  WIDGET_GROUP,
  warningValues,
  widgetKind,
  widgetKinds,
} from './testing/deprecated-kind.ts';

const DEPRECATED_KEY = deprecatedApiAnnotationKey(namingProfile('spec'));
const REMOVED_KEY = removedReleaseAnnotationKey(namingProfile('spec'));
const WARNING = `299 - "${WIDGET_GROUP}/v1beta1 Widget is deprecated in v1.33+, unavailable in v1.36+; use ${WIDGET_GROUP}/v1 Widget"`;
const HELP =
  '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.';

/** The exposition lines of one metric's samples. */
const samples = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('deprecation texts', () => {
  it("writes upstream's warning, with the removal and the replacement when known", () => {
    const kind = { group: 'batch', version: 'v1beta1', kind: 'CronJob' };
    assert.equal(
      deprecationWarning(kind, {
        deprecated: '1.21',
        removed: '1.25',
        replacement: { group: 'batch', version: 'v1', kind: 'CronJob' },
      }),
      'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
    );
    assert.equal(
      deprecationWarning(kind, { deprecated: '1.21' }),
      'batch/v1beta1 CronJob is deprecated in v1.21+',
    );
    // The core group prints as the bare version, as Go's GroupVersion.String() does.
    assert.equal(
      deprecationWarning(
        { group: '', version: 'v1', kind: 'ComponentStatus' },
        { deprecated: '1.19', replacement: { group: '', version: 'v2', kind: 'Thing' } },
      ),
      'v1 ComponentStatus is deprecated in v1.19+; use v2 Thing',
    );
    assert.equal(deprecationWarning(kind, { deprecated: '0.0' }), '');
  });

  it('deprecates from the deprecation release on, and gives the removal release', () => {
    assert.equal(isDeprecated({ deprecated: '1.35' }, { major: 1, minor: 35 }), true);
    assert.equal(isDeprecated({ deprecated: '1.36' }, { major: 1, minor: 35 }), false);
    assert.equal(isDeprecated({ deprecated: '2.0' }, { major: 1, minor: 35 }), false);
    assert.equal(isDeprecated({ deprecated: '1.2' }, { major: 1, minor: 35 }), true);
    assert.equal(isDeprecated({ deprecated: '0.0' }, { major: 1, minor: 35 }), false);
    // Without a current version, upstream calls any deprecation in force.
    assert.equal(isDeprecated({ deprecated: '9.9' }, { major: 0, minor: 0 }), true);
    assert.equal(removedReleaseOf({ deprecated: '1.2', removed: 'v1.25.3' }), '1.25');
    assert.equal(removedReleaseOf({ deprecated: '1.2' }), '');
  });

  it('works a kind out once, and not at all without a lifecycle', () => {
    const [beta, v1, future] = widgetKinds();
    const s = deprecationSignalOf(beta);
    assert.deepEqual(s, {
      warning: `${WIDGET_GROUP}/v1beta1 Widget is deprecated in v1.33+, unavailable in v1.36+; use ${WIDGET_GROUP}/v1 Widget`,
      removedRelease: '1.36',
    });
    assert.equal(deprecationSignalOf(beta), s);
    assert.equal(deprecationSignalOf(v1), undefined);
    assert.equal(deprecationSignalOf(future), undefined);
  });

  it("annotates under the profile's keys: spec and upstream", () => {
    for (const name of ['spec', 'upstream'] as const) {
      const profile = namingProfile(name);
      const deprecated = deprecatedApiAnnotationKey(profile);
      const removed = removedReleaseAnnotationKey(profile);
      const ctx = { warnings: [] as string[] } as unknown as RequestContext;
      signalDeprecatedCall(
        ctx,
        { warning: 'w', removedRelease: '1.36' },
        profile,
        { group: 'g', version: 'v', resource: 'r', subresource: '' },
        undefined,
      );
      assert.deepEqual(ctx.auditAnnotations, {
        [deprecated]: 'true',
        [removed]: '1.36',
      });
      assert.deepEqual(ctx.warnings, ['w']);
      // No removal planned: no removed-release annotation.
      const bare = { warnings: [] as string[] } as unknown as RequestContext;
      signalDeprecatedCall(
        bare,
        { warning: '', removedRelease: '' },
        profile,
        { group: 'g', version: 'v', resource: 'r', subresource: '' },
        undefined,
      );
      assert.deepEqual(bare.auditAnnotations, { [deprecated]: 'true' });
      assert.deepEqual(bare.warnings, []);
    }
  });

  it('defines the gauge once per registry and sets each endpoint to 1', async () => {
    const a = new MetricsRegistry();
    const b = new MetricsRegistry();
    assert.equal(deprecatedApisMetric(a), deprecatedApisMetric(a));
    assert.notEqual(deprecatedApisMetric(a).gauge, deprecatedApisMetric(b).gauge);
    const e = { group: 'batch', version: 'v1beta1', resource: 'cronjobs', subresource: '' };
    markDeprecatedCall(a, e, '1.25');
    markDeprecatedCall(a, e, '1.25');
    const text = await a.metrics();
    assert.ok(text.includes(HELP));
    assert.ok(text.includes('# TYPE apiserver_requested_deprecated_apis gauge'));
    assert.deepEqual(samples(text, 'apiserver_requested_deprecated_apis'), [
      'apiserver_requested_deprecated_apis{group="batch",version="v1beta1",resource="cronjobs",subresource="",removed_release="1.25"} 1',
    ]);
    assert.deepEqual(samples(await b.metrics(), 'apiserver_requested_deprecated_apis'), []);
  });
});

describe('calls to a deprecated version', () => {
  let server: KindsServer;
  const base = `/apis/${WIDGET_GROUP}`;
  const widget = (version: string, name: string) => ({
    apiVersion: `${WIDGET_GROUP}/${version}`,
    kind: 'Widget',
    metadata: { name },
    spec: { size: 1 },
  });
  const metricsText = async () => (await h2Request(server.url, 'GET', '/metrics')).body;
  /** The context of the last request to `path` with `method`. */
  const contextOf = (method: string, path: string) =>
    server.contexts.findLast((c) => c.method === method && c.url === path);

  before(async () => {
    server = await startKindsServer(widgetKinds());
  });
  after(() => server.stop());

  it('a current version carries no warning, no annotation and no metric', async () => {
    const path = `${base}/v1/namespaces/default/widgets`;
    const created = await h2Request(server.url, 'POST', path, widget('v1', 'plain'));
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(warningValues(created), []);
    assert.equal(contextOf('POST', path)?.auditAnnotations, undefined);
    const got = await h2Request(server.url, 'GET', `${path}/plain`);
    assert.equal(got.status, 200);
    assert.deepEqual(warningValues(got), []);
    const listed = await h2Request(server.url, 'GET', path);
    assert.deepEqual(warningValues(listed), []);
    // A version whose deprecation release has not come yet is current too.
    const future = await h2Request(server.url, 'GET', `${base}/v1beta2/namespaces/default/widgets`);
    assert.equal(future.status, 200);
    assert.deepEqual(warningValues(future), []);
    assert.deepEqual(samples(await metricsText(), 'apiserver_requested_deprecated_apis'), []);
  });

  it('create, get and list carry the warning, the annotations and the gauge', async () => {
    const path = `${base}/v1beta1/namespaces/default/widgets`;
    const created = await h2Request(server.url, 'POST', path, widget('v1beta1', 'old'));
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(warningValues(created), [WARNING]);
    assert.deepEqual(contextOf('POST', path)?.auditAnnotations, {
      [DEPRECATED_KEY]: 'true',
      [REMOVED_KEY]: '1.36',
    });
    const got = await h2Request(server.url, 'GET', `${path}/old`);
    assert.equal(got.status, 200);
    assert.deepEqual(warningValues(got), [WARNING]);
    assert.deepEqual(contextOf('GET', `${path}/old`)?.auditAnnotations, {
      [DEPRECATED_KEY]: 'true',
      [REMOVED_KEY]: '1.36',
    });
    const listed = await h2Request(server.url, 'GET', path);
    assert.equal(listed.status, 200);
    assert.deepEqual(warningValues(listed), [WARNING]);
    // A failed call of the endpoint is still a call of it, as upstream counts it.
    const missing = await h2Request(server.url, 'GET', `${path}/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(warningValues(missing), [WARNING]);

    const text = await metricsText();
    assert.ok(text.includes(HELP));
    assert.deepEqual(samples(text, 'apiserver_requested_deprecated_apis'), [
      `apiserver_requested_deprecated_apis{group="${WIDGET_GROUP}",version="v1beta1",resource="widgets",subresource="",removed_release="1.36"} 1`,
    ]);
  });

  it("a sub-resource in the kind's own shape is labelled with its name", async () => {
    const path = `${base}/v1beta1/namespaces/default/widgets`;
    await h2Request(server.url, 'POST', path, widget('v1beta1', 'st'));
    const status = await h2Request(server.url, 'GET', `${path}/st/status`);
    assert.equal(status.status, 200, status.body);
    assert.deepEqual(warningValues(status), [WARNING]);
    assert.deepEqual(samples(await metricsText(), 'apiserver_requested_deprecated_apis'), [
      `apiserver_requested_deprecated_apis{group="${WIDGET_GROUP}",version="v1beta1",resource="widgets",subresource="",removed_release="1.36"} 1`,
      `apiserver_requested_deprecated_apis{group="${WIDGET_GROUP}",version="v1beta1",resource="widgets",subresource="status",removed_release="1.36"} 1`,
    ]);
  });

  it('a watch carries the warning with its headers', async () => {
    const path = `${base}/v1beta1/namespaces/default/widgets?watch=1`;
    const session = http2.connect(server.url);
    try {
      const req = session.request({ ':method': 'GET', ':path': path });
      const [headers] = (await once(req, 'response')) as [http2.IncomingHttpHeaders];
      assert.equal(headers[':status'], 200);
      assert.equal(headers.warning, WARNING);
    } finally {
      session.destroy();
    }
    assert.deepEqual(contextOf('GET', path)?.auditAnnotations, {
      [DEPRECATED_KEY]: 'true',
      [REMOVED_KEY]: '1.36',
    });
  });

  it('a verb the endpoint does not serve is answered 405 without a warning', async () => {
    const kinds = [widgetKind('v1beta1', { deprecated: '1.20' })];
    kinds[0].resource.subresources = { status: ['get'] };
    const s = await startKindsServer(kinds);
    try {
      const r = await h2Request(
        s.url,
        'PUT',
        `${base}/v1beta1/namespaces/default/widgets/x/status`,
        widget('v1beta1', 'x'),
      );
      assert.equal(r.status, 405);
      assert.deepEqual(warningValues(r), []);
      assert.deepEqual(samples(await s.metrics.metrics(), 'apiserver_requested_deprecated_apis'), []);
    } finally {
      await s.stop();
    }
  });
});
