// The controller manager against an in-process API server: controllers run and reconcile, the
// secure port answers health to anyone and metrics to whoever RBAC allows, two managers elect one
// leader and the other takes over when it stops, and service-account credentials give each
// controller its own identity.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clientFromPlatconfig } from '../../client/config.ts';
import { StaticCredentialSource } from '../../client/credentials.ts';
import type { RestClient } from '../../client/rest-client.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { ApiError } from '../../machinery/status.ts';
import { namingProfile } from '../../naming/index.ts';
import { componentClientCertificate } from '../../server/pki/component-client.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { defaultPlatControllerManagerConfiguration } from './config/defaults.ts';
import { type ControllerManagerHandle, startControllerManager } from './controller-manager.ts';

const profile = namingProfile('spec');
const quiet = { info: () => undefined, error: () => undefined };

function config(leaderElect: boolean) {
  return defaultPlatControllerManagerConfiguration(
    {
      Generic: {
        LeaderElection: { leaderElect, leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' },
      },
    },
    profile,
  );
}

function get(
  m: ControllerManagerHandle,
  path: string,
  token?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${m.url}${path}`,
      { ca: m.caPem, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const core = (resource: string) => ({ group: '', version: 'v1', resource });

async function exists(client: RestClient, resource: string, ns: string, name: string): Promise<boolean> {
  try {
    await client.resource(core(resource), ns).get(name);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return false;
    throw err;
  }
}

describe('controller manager', () => {
  let api: TestApiServer;
  let admin: RestClient;

  before(async () => {
    api = await startTestApiServer();
    admin = clientFromPlatconfig(api.server.adminConfigPath);
  });
  after(async () => {
    admin.close();
    await api.stop();
  });

  /** The manager's own user (system:<prefix>controller-manager), as the control-plane program connects it. */
  async function ownConnection() {
    const own = await componentClientCertificate(
      api.dir,
      `system:${profile.componentPrefix}controller-manager`,
    );
    return {
      server: api.server.url,
      caPem: own.caPem,
      credentials: new StaticCredentialSource({
        clientCertificatePem: own.certPem,
        clientKeyPem: own.keyPem,
      }),
    };
  }

  it('runs the controllers and serves health to anyone, metrics only to those RBAC allows', async () => {
    const m = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(false),
      securePort: 0,
      log: quiet,
    });
    try {
      await m.leading;
      assert.ok(m.running().includes('serviceaccount-controller'));
      assert.ok(!m.running().includes('bootstrap-signer-controller'), 'disabled by default');
      await admin
        .resource(core('namespaces'))
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cm-a' } });
      await waitUntil(
        () => exists(admin, 'serviceaccounts', 'cm-a', 'default'),
        'the default account of cm-a',
      );

      const health = await get(m, '/healthz?verbose');
      assert.equal(health.status, 200);
      assert.match(health.body, /\[\+\]ping ok/);
      assert.match(health.body, /\[\+\]serviceaccount-controller ok/);
      assert.equal((await get(m, '/healthz/serviceaccount-controller')).body, 'ok');
      assert.equal((await get(m, '/healthz/nope')).status, 404);

      const anonymous = await get(m, '/metrics');
      assert.equal(anonymous.status, 403);
      assert.match(anonymous.body, /User "system:anonymous" cannot get path "\/metrics"/);
      assert.equal((await get(m, '/metrics', 'not-a-token')).status, 401);

      // A service account bound to system:monitoring may read them.
      await admin.resource(core('serviceaccounts'), 'default').create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'monitor' },
      });
      const rbac = `rbac.authorization.${profile.groupDomain}`;
      await admin.resource({ group: rbac, version: 'v1', resource: 'clusterrolebindings' }).create({
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'monitor' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:monitoring' },
        subjects: [{ kind: 'ServiceAccount', name: 'monitor', namespace: 'default' }],
      });
      const tr = await admin.resource(core('serviceaccounts'), 'default').create(
        {
          apiVersion: `authentication.${profile.groupDomain}/v1`,
          kind: 'TokenRequest',
          spec: {},
        } as ApiObject,
        { subresource: 'token', name: 'monitor' },
      );
      const token = (tr.status as { token: string }).token;
      // RBAC's index learns of the binding through its watch: wait for it to allow.
      const metrics = await waitFor(
        () => get(m, '/metrics', token),
        (r) => r.status === 200,
        'metrics allowed to the monitor account',
      );
      // The service account controller's queue under upstream's name. Without leader election
      // there is no elector, so no election series, as upstream (controller-manager-metrics.test.ts
      // shows the leader's).
      assert.match(metrics.body, /^workqueue_adds_total\{name="serviceaccount"\} [1-9]/m);
      assert.doesNotMatch(metrics.body, /^leader_election_master_status\{/m);
    } finally {
      await m.stop();
    }
  });

  it('elects one leader of two, and the other takes over when it stops', async () => {
    const a = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(true),
      securePort: 'none',
      log: quiet,
    });
    await a.leading;
    const b = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(true),
      securePort: 'none',
      log: quiet,
    });
    try {
      assert.equal(a.isLeader(), true);
      assert.equal(b.isLeader(), false);
      assert.deepEqual(b.running(), []);
      await a.stop();
      await b.leading;
      assert.equal(b.isLeader(), true);
      assert.ok(b.running().includes('serviceaccount-controller'));
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('runs each controller as its own service account with --use-service-account-credentials', async () => {
    // The manager authenticates as its own user, whose role lets it create accounts and tokens
    // but not write ConfigMaps everywhere: the CA publisher can only succeed as its own account.
    const m = await startControllerManager({
      connection: await ownConnection(),
      config: config(false),
      useServiceAccountCredentials: true,
      securePort: 'none',
      log: quiet,
    });
    try {
      await m.leading;
      await admin
        .resource(core('namespaces'))
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cm-b' } });
      await waitUntil(
        () => exists(admin, 'serviceaccounts', 'cm-b', 'default'),
        'the default account of cm-b',
      );
      await waitUntil(
        () => exists(admin, 'configmaps', 'cm-b', `${profile.componentPrefix}root-ca.crt`),
        'the CA bundle of cm-b',
      );
      const system = `${profile.componentPrefix}system`;
      assert.equal(await exists(admin, 'serviceaccounts', system, 'service-account-controller'), true);
      assert.equal(await exists(admin, 'serviceaccounts', system, 'root-ca-cert-publisher'), true);
    } finally {
      await m.stop();
    }
  });

  it("without service-account credentials, the manager's own user is not enough to publish CA bundles", async () => {
    const errors: string[] = [];
    const m = await startControllerManager({
      connection: await ownConnection(),
      config: config(false),
      securePort: 'none',
      log: { info: () => undefined, error: (msg, f) => errors.push(`${msg} ${JSON.stringify(f)}`) },
    });
    try {
      await m.leading;
      await admin
        .resource(core('namespaces'))
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cm-c' } });
      await waitUntil(() => errors.some((e) => /forbidden/i.test(e)), 'a forbidden write');
      assert.equal(await exists(admin, 'configmaps', 'cm-c', `${profile.componentPrefix}root-ca.crt`), false);
    } finally {
      await m.stop();
    }
  });

  it('stops its controllers and reports it when another holder takes the lease', async () => {
    let lost = false;
    const m = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(true),
      securePort: 'none',
      log: quiet,
      onLeadershipLost: () => {
        lost = true;
      },
    });
    try {
      await m.leading;
      // Someone else writes the Lease as theirs, for a long time: this manager can no longer renew.
      const leases = admin.resource(
        { group: `coordination.${profile.groupDomain}`, version: 'v1', resource: 'leases' },
        `${profile.componentPrefix}system`,
      );
      // The manager renews it every retryPeriod: a stale write conflicts, so read and write again.
      await waitUntil(async () => {
        const lease = await leases.get(`${profile.componentPrefix}controller-manager`);
        const spec = lease.spec as Record<string, unknown>;
        try {
          await leases.update({
            ...lease,
            spec: { ...spec, holderIdentity: 'thief', leaseDurationSeconds: 3600, renewTime: spec.renewTime },
          });
          return true;
        } catch (err) {
          if (err instanceof ApiError && err.code === 409) return false;
          throw err;
        }
      }, 'the lease written as the thief');
      await waitUntil(() => lost, 'the lease to be lost');
      assert.equal(m.isLeader(), false);
      await waitUntil(() => m.running().length === 0, 'the controllers to stop');
    } finally {
      await m.stop();
    }
  });

  it('keeps running while the API server is unreachable, and says so in /healthz', async () => {
    const gone = await startTestApiServer();
    const copy = join(api.dir, 'gone.platconfig');
    writeFileSync(copy, readFileSync(gone.server.adminConfigPath));
    await gone.stop();
    const m = await startControllerManager({
      platconfig: copy,
      config: config(false),
      securePort: 0,
      log: quiet,
    });
    try {
      const health = await waitFor(
        () => get(m, '/healthz?verbose'),
        (r) => r.status === 500,
        'an unhealthy /healthz',
      );
      assert.match(health.body, /\[-\]apiserver failed: reason withheld/);
      assert.match(health.body, /\[\+\]ping ok/);
    } finally {
      await m.stop();
    }
  });

  it('refuses a configuration that breaks a rule, naming the field', async () => {
    const bad = config(true);
    bad.Generic.LeaderElection.renewDeadline = '10s';
    await assert.rejects(
      startControllerManager({
        platconfig: api.server.adminConfigPath,
        config: bad,
        securePort: 'none',
        log: quiet,
      }),
      /Generic\.LeaderElection\.leaseDuration: Invalid value: "10s": must be greater than or equal to `RenewDeadline`/,
    );
  });
});
