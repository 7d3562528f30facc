// Authorization metrics after known sequences: terminal decisions per configured authorizer (the
// configuration's names; lower-cased modes and `default` for --authorization-mode), webhook round
// trips and fail-opens, the filter's attempts, and the configuration file's reload metrics split
// by the server identity's hash.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { metricHash } from '../apiserver-id.ts';
import { parseExposition, series, value } from '../testing/exposition.ts';
import { buildAuthorization, modeAuthorizerName } from './config.ts';
import { AuthorizationAttemptMetrics } from './metrics.ts';
import { startAuthzWebhook, type TestAuthzWebhook } from './testing/webhook-authorizer.ts';
import type { Attributes } from './types.ts';

const attrs = (username: string, groups: string[] = ['system:authenticated']): Attributes => ({
  user: { username, groups },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
});

const DECISIONS = 'apiserver_authorization_decisions_total';
const SERVER_ID = 'testAPIServerID';
// Upstream's own test constant for this id.
const SERVER_ID_HASH = 'sha256:14f9d63e669337ac6bfda2e2162915ee6a6067743eddd4e5c374b572f951ff37';

describe('authorization metrics', () => {
  let dir: string;
  let webhook: TestAuthzWebhook;
  let clientConfig: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authz-metrics-'));
    webhook = await startAuthzWebhook((r) => {
      if (r.spec.user === 'alice') return { status: { allowed: true } };
      if (r.spec.user === 'bob') return { status: { allowed: false, denied: true, reason: 'no bob' } };
      if (r.spec.user === 'broken') return { raw: 'nope', code: 400 };
      return { status: { allowed: false } };
    });
    clientConfig = webhook.writeClientConfig(dir);
  });
  after(async () => {
    await webhook.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (lines: string[]) =>
    [
      `apiVersion: ${groupName(namingProfile('spec'), 'apiserver.config')}/v1`,
      'kind: AuthorizationConfiguration',
      'authorizers:',
      ...lines,
      '',
    ].join('\n');
  const webhookEntry = (name: string, failurePolicy: string) => [
    '- type: Webhook',
    `  name: ${name}`,
    '  webhook:',
    '    timeout: 3s',
    '    subjectAccessReviewVersion: v1',
    '    matchConditionSubjectAccessReviewVersion: v1',
    `    failurePolicy: ${failurePolicy}`,
    '    authorizedTTL: 1ms',
    '    unauthorizedTTL: 1ms',
    '    connectionInfo:',
    '      type: ClientConfigFile',
    `      clientConfigFile: ${clientConfig}`,
  ];

  it('names --authorization-mode authorizers as upstream does', () => {
    assert.equal(modeAuthorizerName('RBAC'), 'rbac');
    assert.equal(modeAuthorizerName('AlwaysAllow'), 'alwaysallow');
    assert.equal(modeAuthorizerName('Node'), 'node');
    assert.equal(modeAuthorizerName('Webhook'), 'default');
  });

  it('counts allows of a mode chain under the mode and its name; privileged and public requests are not counted', async () => {
    const registry = new MetricsRegistry();
    const a = buildAuthorization({ modes: ['Node', 'AlwaysAllow'], metrics: registry });
    try {
      for (const u of ['alice', 'bob'])
        assert.equal((await a.authorizer.authorize(attrs(u))).decision, 'allow');
      // system:masters is allowed in front of the configured authorizers, as upstream's.
      await a.authorizer.authorize(attrs('admin', ['system:masters']));
      await a.authorizer.authorize({ ...attrs('carol'), isResourceRequest: false, path: '/version' });
    } finally {
      a.close();
    }
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, DECISIONS), ['{decision="allowed",name="alwaysallow",type="AlwaysAllow"} 2']);
    assert.equal(
      e.help.get(DECISIONS),
      '[ALPHA] Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    );
  });

  it('counts decisions per configured authorizer, webhook round trips and fail-opens', async () => {
    const registry = new MetricsRegistry();
    const path = join(dir, 'authz.yaml');
    writeFileSync(
      path,
      file([...webhookEntry('remote', 'NoOpinion'), '- type: AlwaysAllow', '  name: alwaysallow']),
    );
    const a = buildAuthorization({ configFile: path, metrics: registry, reloadIntervalMs: 3_600_000 });
    try {
      assert.equal((await a.authorizer.authorize(attrs('alice'))).decision, 'allow');
      assert.equal((await a.authorizer.authorize(attrs('bob'))).decision, 'deny');
      assert.equal((await a.authorizer.authorize(attrs('carol'))).decision, 'allow');
      // A 400 is not retried: one failed round trip, no opinion from the webhook, allowed after it.
      assert.equal((await a.authorizer.authorize(attrs('broken'))).decision, 'allow');
    } finally {
      a.close();
    }
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, DECISIONS), [
      '{decision="allowed",name="alwaysallow",type="AlwaysAllow"} 2',
      '{decision="allowed",name="remote",type="Webhook"} 1',
      '{decision="denied",name="remote",type="Webhook"} 1',
    ]);
    assert.deepEqual(series(e, 'apiserver_authorization_webhook_evaluations_total'), [
      '{name="remote",result="error"} 1',
      '{name="remote",result="success"} 3',
    ]);
    assert.deepEqual(
      series(e, 'apiserver_authorization_webhook_duration_seconds_count'),
      series(e, 'apiserver_authorization_webhook_evaluations_total'),
    );
    assert.deepEqual(
      e.samples
        .filter((s) => s.name === 'apiserver_authorization_webhook_duration_seconds_bucket')
        .filter((s) => s.labels.result === 'error')
        .map((s) => s.labels.le),
      ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
    );
    assert.deepEqual(series(e, 'apiserver_authorization_webhook_evaluations_fail_open_total'), [
      '{name="remote",result="error"} 1',
    ]);
    assert.equal(
      e.help.get('apiserver_authorization_webhook_evaluations_total'),
      '[ALPHA] Round-trips to authorization webhooks.',
    );
    assert.equal(
      e.help.get('apiserver_authorization_webhook_evaluations_fail_open_total'),
      '[ALPHA] NoOpinion results due to webhook timeout or error.',
    );
  });

  it('a webhook that fails closed is not a fail-open', async () => {
    const registry = new MetricsRegistry();
    const path = join(dir, 'closed.yaml');
    writeFileSync(path, file(webhookEntry('strict', 'Deny')));
    const a = buildAuthorization({ configFile: path, metrics: registry, reloadIntervalMs: 3_600_000 });
    try {
      assert.equal((await a.authorizer.authorize(attrs('broken'))).decision, 'deny');
    } finally {
      a.close();
    }
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, 'apiserver_authorization_webhook_evaluations_fail_open_total'), []);
    // The failure policy's deny is the authorizer's terminal decision.
    assert.deepEqual(series(e, DECISIONS), ['{decision="denied",name="strict",type="Webhook"} 1']);
  });

  it('times match conditions, and counts their errors and the requests they exclude', async () => {
    const registry = new MetricsRegistry();
    const path = join(dir, 'conditions.yaml');
    writeFileSync(
      path,
      file([
        ...webhookEntry('gated', 'NoOpinion'),
        '    matchConditions:',
        `    - expression: "request.user != 'skipme'"`,
        `    - expression: "request.user == 'oops' ? request.extra['nope'].size() > 0 : true"`,
      ]),
    );
    const a = buildAuthorization({ configFile: path, metrics: registry, reloadIntervalMs: 3_600_000 });
    try {
      assert.equal((await a.authorizer.authorize(attrs('alice'))).decision, 'allow');
      assert.equal((await a.authorizer.authorize(attrs('skipme'))).decision, 'noOpinion');
      const oops = await a.authorizer.authorize(attrs('oops'));
      assert.equal(oops.decision, 'noOpinion');
      assert.ok(oops.error !== undefined);
    } finally {
      a.close();
    }
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, 'apiserver_authorization_match_condition_evaluation_seconds_count'), [
      '{name="gated",type="Webhook"} 3',
    ]);
    assert.deepEqual(series(e, 'apiserver_authorization_match_condition_exclusions_total'), [
      '{name="gated",type="Webhook"} 1',
    ]);
    assert.deepEqual(series(e, 'apiserver_authorization_match_condition_evaluation_errors_total'), [
      '{name="gated",type="Webhook"} 1',
    ]);
    // Only alice reached the webhook.
    assert.deepEqual(series(e, 'apiserver_authorization_webhook_evaluations_total'), [
      '{name="gated",result="success"} 1',
    ]);
    assert.equal(
      e.help.get('apiserver_authorization_match_condition_evaluation_seconds'),
      '[ALPHA] Authorization match condition evaluation time in seconds, split by authorizer type and name.',
    );
  });

  it('counts reloads of --authorization-config by status and server identity hash, and names the file in force', async () => {
    const registry = new MetricsRegistry();
    const path = join(dir, 'reload.yaml');
    const first = file(['- type: AlwaysAllow', '  name: alwaysallow']);
    writeFileSync(path, first);
    const a = buildAuthorization({
      configFile: path,
      metrics: registry,
      apiServerId: SERVER_ID,
      reloadIntervalMs: 3_600_000,
      log: () => undefined,
    });
    const n = 'apiserver_authorization_config_controller';
    try {
      let e = parseExposition(await registry.metrics());
      assert.deepEqual(series(e, `${n}_last_config_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(first)}"} 1`,
      ]);
      assert.deepEqual(series(e, `${n}_automatic_reloads_total`), []);

      const second = file([
        '- type: AlwaysAllow',
        '  name: alwaysallow',
        '- type: AlwaysDeny',
        '  name: alwaysdeny',
      ]);
      writeFileSync(path, second);
      const before = Date.now() / 1000;
      await a.reloader?.check();
      const afterSuccess = Date.now() / 1000;
      writeFileSync(path, file(['- type: AlwaysAllow', '  name: wrong']));
      await a.reloader?.check();
      const afterFailure = Date.now() / 1000;

      e = parseExposition(await registry.metrics());
      assert.deepEqual(series(e, `${n}_automatic_reloads_total`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",status="failure"} 1`,
        `{apiserver_id_hash="${SERVER_ID_HASH}",status="success"} 1`,
      ]);
      const stamp = (status: string) =>
        value(e, `${n}_automatic_reload_last_timestamp_seconds`, {
          status,
          apiserver_id_hash: SERVER_ID_HASH,
        });
      assert.ok(stamp('success') >= before && stamp('success') <= afterSuccess);
      assert.ok(stamp('failure') >= stamp('success') && stamp('failure') <= afterFailure);
      // The refused file is not in force: the info still names the second.
      assert.deepEqual(series(e, `${n}_last_config_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(second)}"} 1`,
      ]);
      assert.equal(
        e.help.get(`${n}_automatic_reloads_total`),
        '[BETA] Total number of automatic reloads of authorization configuration split by status and apiserver identity.',
      );
      assert.equal(
        e.help.get(`${n}_automatic_reload_last_timestamp_seconds`),
        '[BETA] Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.',
      );
      assert.equal(
        e.help.get(`${n}_last_config_info`),
        '[ALPHA] Information about the last applied authorization configuration with hash as label, split by apiserver identity.',
      );
    } finally {
      a.close();
    }
  });

  it('classifies the filter attempts as upstream: an allow first, then an error, then the decision', async () => {
    const registry = new MetricsRegistry();
    const m = new AuthorizationAttemptMetrics(registry);
    m.record({ decision: 'allow', reason: '', error: 'ignored' }, 0.001);
    m.record({ decision: 'deny', reason: '' }, 0.001);
    m.record({ decision: 'deny', reason: '', error: 'webhook down' }, 0.001);
    m.record({ decision: 'noOpinion', reason: '' }, 0.001);
    m.record({ decision: 'noOpinion', reason: '' }, 0.001);
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, 'authorization_attempts_total'), [
      '{result="allowed"} 1',
      '{result="denied"} 1',
      '{result="error"} 1',
      '{result="no-opinion"} 2',
    ]);
    assert.deepEqual(
      series(e, 'authorization_duration_seconds_count'),
      series(e, 'authorization_attempts_total'),
    );
    assert.equal(
      e.samples.filter(
        (s) => s.name === 'authorization_duration_seconds_bucket' && s.labels.result === 'denied',
      ).length,
      16,
    );
  });
});
