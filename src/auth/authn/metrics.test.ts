// Authentication metrics after known sequences: the filter's attempts, latency and users on a real
// server (counted as upstream: a bad token is an error, no credential without anonymous access a
// failure), the JWT authenticators' latency and key set fetches by issuer hash, and the
// --authentication-config reload metrics split by the server identity's hash.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { componentName, groupName, namingProfile } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { metricHash } from '../apiserver-id.ts';
import { type Exposition, parseExposition, series, value } from '../testing/exposition.ts';
import { JwtMetrics } from './jwt-metrics.ts';
import { type JwtSetup, setUpJwtAuthenticators } from './jwt-setup.ts';
import { usernameFolder } from './metrics.ts';
import { TestOidcIssuer } from './testing/oidc-issuer.ts';

const SERVER_ID = 'testAPIServerID';
const SERVER_ID_HASH = 'sha256:14f9d63e669337ac6bfda2e2162915ee6a6067743eddd4e5c374b572f951ff37';

describe('authentication metrics', () => {
  it("keeps upstream's well-known user names and folds the rest", () => {
    const fold = usernameFolder(namingProfile('upstream'));
    for (const u of [
      'admin',
      'client',
      'kube_proxy',
      'kubelet',
      'system:serviceaccount:kube-system:default',
    ]) {
      assert.equal(fold(u), u);
    }
    assert.equal(fold('jane@example.com'), 'email_id');
    assert.equal(fold('system:anonymous'), 'other');
    assert.equal(fold('system:serviceaccount:default:default'), 'other');
    // The system namespace is the profile's.
    const specSa = `system:serviceaccount:${componentName(namingProfile('spec'), 'system')}:default`;
    assert.equal(usernameFolder(namingProfile('spec'))(specSa), specSa);
  });

  describe('on a server', () => {
    let t: TestApiServer;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'authn-metrics-'));
      const tokens = join(dir, 'tokens.csv');
      writeFileSync(
        tokens,
        ['t-jane,jane@example.com,1', 't-kubelet,kubelet,2', 't-bob,bob,3', ''].join('\n'),
      );
      t = await startTestApiServer({ tokenAuthFile: tokens, anonymousAuth: false });
    });
    after(async () => {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const scrape = async (): Promise<Exposition> => {
      const r = await t.call({ path: '/metrics' });
      assert.equal(r.status, 200);
      return parseExposition(r.body);
    };

    it('counts attempts by result, times them, and counts users by their folded name', async () => {
      const before = await scrape();
      for (const token of ['t-jane', 't-kubelet', 't-bob']) {
        const r = await t.call({
          path: '/version',
          anonymous: true,
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(r.status, 200);
      }
      const bad = await t.call({
        path: '/version',
        anonymous: true,
        headers: { authorization: 'Bearer nope' },
      });
      assert.equal(bad.status, 401);
      const none = await t.call({ path: '/version', anonymous: true });
      assert.equal(none.status, 401);
      const after = await scrape();

      const delta = (name: string, labels: Record<string, string>) =>
        value(after, name, labels) - value(before, name, labels);
      // The second scrape (as admin) is authenticated before it renders: one more success.
      assert.equal(delta('authentication_attempts', { result: 'success' }), 4);
      assert.equal(delta('authentication_attempts', { result: 'error' }), 1);
      assert.equal(delta('authentication_attempts', { result: 'failure' }), 1);
      for (const result of ['success', 'error', 'failure']) {
        assert.equal(
          delta('authentication_duration_seconds_count', { result }),
          delta('authentication_attempts', { result }),
        );
      }
      assert.equal(delta('authenticated_user_requests', { username: 'admin' }), 1);
      assert.equal(delta('authenticated_user_requests', { username: 'email_id' }), 1);
      assert.equal(delta('authenticated_user_requests', { username: 'kubelet' }), 1);
      assert.equal(delta('authenticated_user_requests', { username: 'other' }), 1);
      // Only those four names ever appear.
      assert.deepEqual(
        series(after, 'authenticated_user_requests').map((s) => s.replace(/ \d+$/, '')),
        ['{username="admin"}', '{username="email_id"}', '{username="kubelet"}', '{username="other"}'],
      );

      assert.equal(after.help.get('authentication_attempts'), '[ALPHA] Counter of authenticated attempts.');
      assert.equal(
        after.help.get('authentication_duration_seconds'),
        '[ALPHA] Authentication duration in seconds broken out by result.',
      );
      assert.equal(
        after.help.get('authenticated_user_requests'),
        '[ALPHA] Counter of authenticated requests broken out by username.',
      );
      assert.equal(after.type.get('authentication_attempts'), 'counter');
      // ExponentialBuckets(0.001, 2, 15): 1 ms to 16.384 s.
      const les = after.samples
        .filter((s) => s.name === 'authentication_duration_seconds_bucket' && s.labels.result === 'error')
        .map((s) => s.labels.le);
      assert.equal(les.length, 16);
      assert.equal(les[0], '0.001');
      assert.equal(les[14], '16.384');
      assert.equal(les[15], '+Inf');
    });
    it("counts the server's RBAC decisions under upstream's default names", async () => {
      const before = await scrape();
      // Discovery is granted to every authenticated user through RBAC's bootstrap bindings.
      for (let i = 0; i < 2; i++) {
        const r = await t.call({ path: '/api', anonymous: true, headers: { authorization: 'Bearer t-bob' } });
        assert.equal(r.status, 200);
      }
      const after = await scrape();
      const labels = { type: 'RBAC', name: 'rbac', decision: 'allowed' };
      const n = 'apiserver_authorization_decisions_total';
      assert.equal(value(after, n, labels) - value(before, n, labels), 2);
    });
    it('counts every authorization of the request filter by result, with its latency', async () => {
      const before = await scrape();
      for (let i = 0; i < 2; i++) {
        const r = await t.call({ path: '/api', anonymous: true, headers: { authorization: 'Bearer t-bob' } });
        assert.equal(r.status, 200);
      }
      const refused = await t.call({
        path: '/metrics',
        anonymous: true,
        headers: { authorization: 'Bearer t-bob' },
      });
      assert.equal(refused.status, 403);
      const after = await scrape();
      const delta = (name: string, result: string) =>
        value(after, name, { result }) - value(before, name, { result });
      // Bob's two reads and the admin's scrape that reads these very numbers (authorized first).
      assert.equal(delta('authorization_attempts_total', 'allowed'), 3);
      // RBAC has no opinion on Bob's scrape and nothing after it decides: upstream's no-opinion.
      assert.equal(delta('authorization_attempts_total', 'no-opinion'), 1);
      assert.equal(delta('authorization_duration_seconds_count', 'allowed'), 3);
      assert.equal(delta('authorization_duration_seconds_count', 'no-opinion'), 1);
      assert.equal(after.type.get('authorization_attempts_total'), 'counter');
    });
  });

  describe('JWT authenticators and --authentication-config', () => {
    let issuer: TestOidcIssuer;
    let dir: string;
    const setups: JwtSetup[] = [];
    before(async () => {
      issuer = await TestOidcIssuer.start({ path: '/tenant' });
      dir = mkdtempSync(join(tmpdir(), 'authn-config-metrics-'));
    });
    after(async () => {
      for (const s of setups) s.close();
      await issuer.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const doc = (prefix: string) => ({
      apiVersion: `${groupName(namingProfile('spec'), 'apiserver.config')}/v1`,
      kind: 'AuthenticationConfiguration',
      jwt: [
        {
          issuer: { url: issuer.url, audiences: ['platform'], certificateAuthority: issuer.caPem },
          claimMappings: { username: { claim: 'sub', prefix } },
        },
      ],
    });
    async function start(file: string, registry: MetricsRegistry): Promise<JwtSetup> {
      const s = setUpJwtAuthenticators({
        configFile: file,
        provider: { retryIntervalMs: 20, minRefreshIntervalMs: 0 },
        log: () => undefined,
        reloadIntervalMs: 3_600_000,
        reloadReadyTimeoutMs: 5_000,
        metrics: registry,
        apiServerId: SERVER_ID,
      });
      setups.push(s);
      await Promise.all(s.tokens?.members.map((m) => m.provider.ready) ?? []);
      return s;
    }

    it('times the tokens an issuer claims, by result and issuer hash; others are not its business', async () => {
      const registry = new MetricsRegistry();
      const file = join(dir, 'latency.yaml');
      writeFileSync(file, stringify(doc('oidc:')));
      const s = await start(file, registry);
      const tokens = s.tokens;
      assert.ok(tokens !== undefined);
      const good = await tokens.authenticateToken(await issuer.issue('platform'));
      assert.ok(good !== null && 'user' in good);
      const wrongAudience = await tokens.authenticateToken(await issuer.issue('elsewhere'));
      assert.ok(wrongAudience !== null && 'error' in wrongAudience);
      await tokens.authenticateToken(await issuer.issue('platform'));
      // Not a JWT of this issuer: no opinion, not timed.
      assert.equal(await tokens.authenticateToken('not-a-jwt'), null);

      const e = parseExposition(await registry.metrics());
      const n = 'apiserver_authentication_jwt_authenticator_latency_seconds';
      const hash = metricHash(issuer.url);
      assert.deepEqual(series(e, `${n}_count`), [
        `{jwt_issuer_hash="${hash}",result="failure"} 1`,
        `{jwt_issuer_hash="${hash}",result="success"} 2`,
      ]);
      assert.deepEqual(
        e.samples
          .filter((x) => x.name === `${n}_bucket` && x.labels.result === 'failure')
          .map((x) => x.labels.le),
        ['0.001', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
      );
      assert.equal(
        e.help.get(n),
        '[ALPHA] Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
      );
    });

    it('stamps key set fetches by result and names the hash of the last key set fetched', async () => {
      const registry = new MetricsRegistry();
      const file = join(dir, 'jwks.yaml');
      writeFileSync(file, stringify(doc('oidc:')));
      const started = Date.now() / 1000;
      const s = await start(file, registry);
      const provider = s.tokens?.members[0].provider;
      assert.ok(provider !== undefined);
      const n = 'apiserver_authentication_jwt_authenticator_jwks_fetch_last';
      const issuerHash = metricHash(issuer.url);
      const keySet = () => JSON.stringify({ keys: issuer.keys.map((k) => k.publicJwk) });
      const stamp = (e: Exposition, result: string) =>
        value(e, `${n}_timestamp_seconds`, {
          result,
          jwt_issuer_hash: issuerHash,
          apiserver_id_hash: SERVER_ID_HASH,
        });

      let e = parseExposition(await registry.metrics());
      assert.deepEqual(series(e, `${n}_key_set_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(keySet())}",jwt_issuer_hash="${issuerHash}"} 1`,
      ]);
      const firstSuccess = stamp(e, 'success');
      assert.ok(firstSuccess >= started && firstSuccess <= Date.now() / 1000);
      assert.equal(stamp(e, 'failure'), 0);

      issuer.available = false;
      await provider.refreshKeys();
      issuer.available = true;
      e = parseExposition(await registry.metrics());
      assert.ok(stamp(e, 'failure') >= firstSuccess);
      assert.equal(stamp(e, 'success'), firstSuccess);

      issuer.rotate();
      await provider.refreshKeys();
      e = parseExposition(await registry.metrics());
      // One info series per issuer: the rotated key set's.
      assert.deepEqual(series(e, `${n}_key_set_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(keySet())}",jwt_issuer_hash="${issuerHash}"} 1`,
      ]);
      assert.ok(stamp(e, 'success') >= firstSuccess);
      assert.equal(
        e.help.get(`${n}_timestamp_seconds`),
        '[ALPHA] Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
      );
      assert.equal(
        e.help.get(`${n}_key_set_info`),
        '[ALPHA] Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
      );
    });

    it('drops the key set series of an issuer a reload removed', async () => {
      const registry = new MetricsRegistry();
      const m = new JwtMetrics(registry, SERVER_ID);
      m.keySetFetch('https://a.example', 'success', '{"keys":[]}', 100);
      m.keySetFetch('https://b.example', 'failure', undefined, 200);
      m.keySetFetch('https://c.example', 'success', '{"keys":[1]}', 300);
      m.keepOnly(new Set(['https://c.example']));
      const e = parseExposition(await registry.metrics());
      const c = metricHash('https://c.example');
      assert.deepEqual(
        series(e, 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds'),
        [`{apiserver_id_hash="${SERVER_ID_HASH}",jwt_issuer_hash="${c}",result="success"} 300`],
      );
      assert.deepEqual(series(e, 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info'), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash('{"keys":[1]}')}",jwt_issuer_hash="${c}"} 1`,
      ]);
    });

    it('counts reloads by status and server identity hash, stamps them, and names the file in force', async () => {
      const registry = new MetricsRegistry();
      const file = join(dir, 'reload.yaml');
      const first = stringify(doc('oidc:'));
      writeFileSync(file, first);
      const s = await start(file, registry);
      const n = 'apiserver_authentication_config_controller';
      let e = parseExposition(await registry.metrics());
      assert.deepEqual(series(e, `${n}_last_config_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(first)}"} 1`,
      ]);
      assert.deepEqual(series(e, `${n}_automatic_reloads_total`), []);

      const second = stringify(doc('new:'));
      writeFileSync(file, second);
      const before = Date.now() / 1000;
      await s.reload?.();
      const afterSuccess = Date.now() / 1000;
      // A username claim without a prefix is invalid: refused, the second stays in force.
      writeFileSync(
        file,
        stringify({
          ...doc(''),
          jwt: [{ ...doc('').jwt[0], claimMappings: { username: { claim: 'sub' } } }],
        }),
      );
      await s.reload?.();
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
      assert.ok(stamp('success') >= before && stamp('success') <= afterSuccess, String(stamp('success')));
      assert.ok(stamp('failure') >= stamp('success') && stamp('failure') <= afterFailure);
      assert.deepEqual(series(e, `${n}_last_config_info`), [
        `{apiserver_id_hash="${SERVER_ID_HASH}",hash="${metricHash(second)}"} 1`,
      ]);
      assert.equal(
        e.help.get(`${n}_automatic_reloads_total`),
        '[BETA] Total number of automatic reloads of authentication configuration split by status and apiserver identity.',
      );
      assert.equal(
        e.help.get(`${n}_automatic_reload_last_timestamp_seconds`),
        '[BETA] Timestamp of the last automatic reload of authentication configuration split by status and apiserver identity.',
      );
      assert.equal(
        e.help.get(`${n}_last_config_info`),
        '[ALPHA] Information about the last applied authentication configuration with hash as label, split by apiserver identity.',
      );
      assert.equal(e.type.get(`${n}_automatic_reload_last_timestamp_seconds`), 'gauge');
    });
  });
});
