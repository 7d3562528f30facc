// The system controllers on the in-memory cluster (objects frozen, so a write to a cached object
// throws) with failures a real server only gives under races: a write that meets a conflict, a
// create that fails, and odd objects (null data and annotations, no status, names that parse as
// nothing). Each controller retries what upstream retries, survives the odd objects, and goes on
// to reconcile the next good one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedInformerFactory } from '../client/informers/factory.ts';
import { FakeCluster } from '../client/testing/fake-cluster.ts';
import type { ApiObject } from '../machinery/object.ts';
import { conflict, internalError } from '../machinery/status.ts';
import { controllerObjectNames } from '../naming/controller-objects.ts';
import { namingProfile } from '../naming/profile.ts';
import { serviceAccountNames } from '../naming/service-accounts.ts';
import { waitFor, waitUntil } from '../server/testing/wait-for.ts';
import { BootstrapSigner, bootstrapSignerNames } from './bootstrap-signer/index.ts';
import { CONFIG_MAPS, NAMESPACES, SECRETS, SERVICE_ACCOUNTS } from './controller-support.ts';
import { RootCACertPublisher } from './root-ca-cert-publisher/index.ts';
import { ServiceAccountsController } from './serviceaccount/index.ts';
import { TokensController } from './serviceaccount-token/index.ts';

const profile = namingProfile('spec');
const logs: string[] = [];
const log = { info() {}, error: (msg: string) => void logs.push(msg) };
const gr = (resource: string) => ({ group: '', resource });

interface Running {
  run(signal: AbortSignal): Promise<void>;
  stop(): void;
}

/** Runs `c` over `informers` until the test body returns. */
async function running(
  informers: SharedInformerFactory,
  c: Running,
  body: () => Promise<void>,
): Promise<void> {
  const abort = new AbortController();
  informers.start();
  const done = c.run(abort.signal).catch(() => {});
  try {
    await body();
  } finally {
    abort.abort();
    c.stop();
    informers.stop();
    await done;
  }
}

const ns = (name: string, phase?: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  ...(phase === undefined ? {} : { status: { phase } }),
});

describe('system controllers under faults', () => {
  it('serviceaccount: retries a failed create, skips namespaces without an Active phase', async () => {
    const cluster = new FakeCluster();
    await cluster.resource(NAMESPACES).create(ns('odd'));
    await cluster.resource(NAMESPACES).create(ns('gone', 'Terminating'));
    cluster.failNext('create', internalError(new Error('etcd is down')), { resource: 'serviceaccounts' });
    await cluster.resource(NAMESPACES).create(ns('team', 'Active'));
    const informers = new SharedInformerFactory(cluster);
    const c = new ServiceAccountsController({
      client: cluster,
      namespaces: informers.forResource(NAMESPACES),
      serviceAccounts: informers.forResource(SERVICE_ACCOUNTS),
      log,
    });
    await running(informers, c, async () => {
      await waitUntil(async () => {
        try {
          await cluster.resource(SERVICE_ACCOUNTS, 'team').get('default');
          return true;
        } catch {
          return false;
        }
      }, 'default account in team after a retry');
      assert.equal(cluster.callsOf('create', 'serviceaccounts').length, 2);
    });
    assert.deepEqual(
      (await cluster.resource(SERVICE_ACCOUNTS).list()).items.map((s) => s.metadata?.namespace),
      ['team'],
    );
  });

  it('root CA publisher: an update that meets a conflict is retried, odd ConfigMaps are rewritten', async () => {
    const cluster = new FakeCluster();
    const names = controllerObjectNames(profile);
    await cluster.resource(NAMESPACES).create(ns('team', 'Active'));
    await cluster.resource(CONFIG_MAPS, 'team').create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: names.rootCAConfigMap,
        namespace: 'team',
        annotations: null,
      } as unknown as ApiObject['metadata'],
      data: null,
    } as unknown as ApiObject);
    cluster.failNext('update', conflict(gr('configmaps'), names.rootCAConfigMap, 'changed'), {
      resource: 'configmaps',
    });
    const informers = new SharedInformerFactory(cluster);
    const c = new RootCACertPublisher({
      client: cluster,
      namespaces: informers.forResource(NAMESPACES),
      configMaps: informers.forResource(CONFIG_MAPS),
      rootCA: 'CA',
      names,
      log,
    });
    await running(informers, c, async () => {
      const cm = await waitFor(
        () => cluster.resource(CONFIG_MAPS, 'team').get(names.rootCAConfigMap),
        (x) => (x.data as Record<string, string> | null)?.['ca.crt'] === 'CA',
        'the ConfigMap rewritten after a conflict',
      );
      assert.equal(cm.metadata?.annotations?.[names.descriptionAnnotation], names.rootCADescription);
      assert.equal(cluster.callsOf('update', 'configmaps').length, 2);
    });
  });

  it('bootstrap signer: odd token Secrets sign nothing, a conflict is retried', async () => {
    const cluster = new FakeCluster();
    const n = bootstrapSignerNames(profile);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const secrets = cluster.resource(SECRETS, n.tokenNamespace);
    await secrets.create({
      metadata: { name: 'bootstrap-token-oddity' },
      type: n.tokenSecretType,
      data: null,
    });
    await secrets.create({
      metadata: { name: 'not-a-token-name' },
      type: n.tokenSecretType,
      data: { 'token-id': 5 },
    });
    await secrets.create({
      metadata: { name: 'bootstrap-token-abcdef' },
      type: n.tokenSecretType,
      data: {
        'token-id': b64('abcdef'),
        'token-secret': b64('0123456789abcdef'),
        'usage-bootstrap-signing': b64('true'),
      },
    });
    await cluster.resource(CONFIG_MAPS, n.configMapNamespace).create({
      metadata: { name: n.configMapName },
      data: { [n.configKey]: 'config' },
    });
    cluster.failNext('update', conflict(gr('configmaps'), n.configMapName, 'changed'), {
      resource: 'configmaps',
    });
    const informers = new SharedInformerFactory(cluster);
    const c = new BootstrapSigner({
      client: cluster,
      secrets: informers.forResource(SECRETS),
      configMaps: informers.forResource(CONFIG_MAPS),
      names: n,
      log,
    });
    await running(informers, c, async () => {
      const cm = await waitFor(
        () => cluster.resource(CONFIG_MAPS, n.configMapNamespace).get(n.configMapName),
        (x) =>
          Object.keys((x.data as Record<string, string>) ?? {}).some((k) => k.startsWith(n.signaturePrefix)),
        'signed after a conflict',
      );
      assert.deepEqual(Object.keys(cm.data as Record<string, string>).sort(), [
        `${n.signaturePrefix}abcdef`,
        n.configKey,
      ]);
      assert.ok(cluster.callsOf('update', 'configmaps').length >= 2);
    });
  });

  it('token controller: a Secret update that meets a conflict is retried; odd Secrets are left alone', async () => {
    const cluster = new FakeCluster();
    const names = serviceAccountNames(profile);
    const account = await cluster
      .resource(SERVICE_ACCOUNTS, 'team')
      .create({ metadata: { name: 'app', namespace: 'team' } });
    const secrets = cluster.resource(SECRETS, 'team');
    await secrets.create({
      metadata: { name: 'odd', annotations: null },
      type: names.tokenSecretType,
      data: null,
    } as unknown as ApiObject);
    await secrets.create({
      metadata: { name: 'app-token', annotations: { [names.nameAnnotation]: 'app' } },
      type: names.tokenSecretType,
    });
    cluster.failNext('update', conflict(gr('secrets'), 'app-token', 'changed'), { resource: 'secrets' });
    const informers = new SharedInformerFactory(cluster);
    const c = new TokensController({
      client: cluster,
      serviceAccounts: informers.forResource(SERVICE_ACCOUNTS),
      secrets: informers.forResource(SECRETS),
      generateToken: async (sa, secret) => `token-of-${sa.namespace}/${sa.name}/${sa.uid}/${secret}`,
      rootCA: 'CA',
      names,
      log,
    });
    await running(informers, c, async () => {
      const s = await waitFor(
        () => secrets.get('app-token'),
        (x) => (x.data as Record<string, string> | undefined)?.token !== undefined,
        'the token filled in after a conflict',
      );
      const data = s.data as Record<string, string>;
      assert.equal(
        Buffer.from(data.token, 'base64').toString(),
        `token-of-team/app/${account.metadata?.uid}/app-token`,
      );
      assert.equal(Buffer.from(data['ca.crt'], 'base64').toString(), 'CA');
      assert.equal(cluster.callsOf('update', 'secrets').length, 2);
      const odd = await secrets.get('odd');
      assert.equal(odd.data, null, 'a Secret naming no account is no token of anyone');
    });
  });
});
