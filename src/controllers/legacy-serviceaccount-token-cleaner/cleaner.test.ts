// The legacy token cleaner: against an in-process server through the real client and informers
// (with a clock moved past the clean-up period) an auto-generated, unused token is first labelled
// invalid since today and deleted one period later, while recently used and hand-made ones stay; no
// run before tracking has lasted a period or without the tracking record. The server serves no Pods
// yet, so on the in-memory cluster: a token a Pod mounts stays, and a delete that meets a conflict
// decides again on the Secret as it now is.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Discovery } from '../../client/discovery.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeClock } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { conflict } from '../../machinery/status.ts';
import { controllerObjectNames } from '../../naming/controller-objects.ts';
import { componentName, namingProfile } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { CONFIG_MAPS, PODS, SECRETS, SERVICE_ACCOUNTS } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import {
  LegacyTokenCleaner,
  type LegacyTokenCleanerOptions,
  legacyServiceAccountTokenCleanerDescriptor,
  podsServed,
  utcDay,
} from './index.ts';

const DAY = 24 * 3600_000;
const PERIOD = 365 * DAY;
const spec = namingProfile('spec');
const sa = serviceAccountNames(spec);
const SYSTEM = componentName(spec, 'system');
const names: LegacyTokenCleanerOptions['names'] = {
  ...sa,
  systemNamespace: SYSTEM,
  trackingConfigMap: controllerObjectNames(spec).legacyTokenTrackingConfigMap,
  trackingKey: 'since',
};
const log = { info() {}, error() {} };

function token(name: string, labels: Record<string, string> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default', annotations: { [sa.nameAnnotation]: 'app' }, labels },
    type: sa.tokenSecretType,
  };
}

function trackingConfigMap(since: string): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: names.trackingConfigMap, namespace: SYSTEM },
    data: { since },
  };
}

describe('legacy service account token cleaner (server)', () => {
  let h: ControllerHarness;
  let clock: FakeClock;
  let cleaner: LegacyTokenCleaner;
  const secrets = () => h.client.resource(SECRETS, 'default');

  before(async () => {
    h = await startControllerHarness();
    clock = new FakeClock(Date.now() + 400 * DAY);
    await h.client.resource(CONFIG_MAPS, SYSTEM).create(trackingConfigMap('2020-01-01'));
    await h.client.resource(SERVICE_ACCOUNTS, 'default').create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'app' },
      secrets: [{ name: 'app-token' }, { name: 'mounted-token' }, { name: 'used-token' }],
    });
    await secrets().create(token('app-token'));
    await secrets().create(token('mounted-token'));
    await secrets().create(token('used-token', { [sa.legacyLastUsedLabel]: utcDay(clock.now()) }));
    await secrets().create(token('manual-token'));
    const opts = {
      client: h.client,
      serviceAccounts: h.informers.forResource(SERVICE_ACCOUNTS),
      secrets: h.informers.forResource(SECRETS),
      names,
      cleanUpPeriodMs: PERIOD,
      log,
      clock,
    };
    cleaner = new LegacyTokenCleaner(opts);
    h.informers.start();
    await h.informers.waitForSync();
  });
  after(async () => h?.stop());

  it('is named as upstream, sees that Pods are served, and refuses a period that is not positive', async () => {
    assert.equal(await podsServed({ client: h.client }), true);
    assert.equal(await podsServed({ client: h.client, discovery: new Discovery(h.client) }), true);
    assert.equal(
      legacyServiceAccountTokenCleanerDescriptor.name,
      'legacy-serviceaccount-token-cleaner-controller',
    );
    assert.deepEqual(legacyServiceAccountTokenCleanerDescriptor.aliases, [
      'legacy-serviceaccount-token-cleaner',
    ]);
    assert.equal(
      legacyServiceAccountTokenCleanerDescriptor.serviceAccountName,
      'legacy-service-account-token-cleaner',
    );
    await assert.rejects(
      legacyServiceAccountTokenCleanerDescriptor.start(
        h.context({ LegacySATokenCleaner: { CleanUpPeriod: '0s' } }),
      ),
      /^Error: invalid CleanUpPeriod: 0s$/,
    );
  });

  it('labels an unused auto-generated token first, then deletes it a period later', async () => {
    const first = await cleaner.evaluate();
    assert.deepEqual(first.labelled.sort(), ['default/app-token', 'default/mounted-token']);
    assert.deepEqual(first.deleted, []);
    const labelled = await secrets().get('app-token');
    assert.equal(labelled.metadata?.labels?.[sa.legacyInvalidSinceLabel], utcDay(clock.now()));
    const cache = h.informers.forResource(SECRETS).lister;
    // Both labels must have reached the cache, or the next pass would label the other again.
    await waitUntil(
      () =>
        ['default/app-token', 'default/mounted-token'].every(
          (k) => cache.get(k)?.metadata?.labels?.[sa.legacyInvalidSinceLabel] !== undefined,
        ),
      'both labels cached',
    );
    assert.deepEqual(await cleaner.evaluate(), { labelled: [], deleted: [] });
    clock.step(PERIOD + DAY);
    const later = await cleaner.evaluate();
    assert.deepEqual(later.deleted.sort(), ['default/app-token', 'default/mounted-token']);
    assert.deepEqual(later.labelled, ['default/used-token'], 'its last use is now a period ago');
    const left = (await secrets().list()).items.map((s) => s.metadata?.name).sort();
    assert.deepEqual(left, ['manual-token', 'used-token']);
  });

  it('does nothing until tracking has lasted a period, or without the tracking record', async () => {
    const recent = new LegacyTokenCleaner({
      client: h.client,
      serviceAccounts: h.informers.forResource(SERVICE_ACCOUNTS),
      secrets: h.informers.forResource(SECRETS),
      names: { ...names, trackingConfigMap: 'recent-tracking' },
      cleanUpPeriodMs: PERIOD,
      log,
      clock,
    });
    assert.match((await recent.evaluate()).skipped ?? '', /configmaps "recent-tracking" not found/);
    await h.client.resource(CONFIG_MAPS, SYSTEM).create({
      ...trackingConfigMap(utcDay(clock.now() - 10 * DAY)),
      metadata: { name: 'recent-tracking' },
    });
    assert.equal((await recent.evaluate()).skipped, 'not tracked for a full clean-up period yet');
  });
});

describe('legacy service account token cleaner (conflicts)', () => {
  it('keeps a token a Pod mounts, and decides again on the current Secret when a delete meets a conflict', async () => {
    const cluster = new FakeCluster();
    const now = Date.UTC(2030, 0, 1);
    await cluster.resource(CONFIG_MAPS, SYSTEM).create(trackingConfigMap('2020-01-01'));
    await cluster.resource(SERVICE_ACCOUNTS, 'default').create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'app', namespace: 'default', uid: 'u1' },
      secrets: [{ name: 'app-token' }, { name: 'mounted-token' }],
    });
    await cluster
      .resource(SECRETS, 'default')
      .create(token('app-token', { [sa.legacyInvalidSinceLabel]: '2020-01-01' }));
    await cluster
      .resource(SECRETS, 'default')
      .create(token('mounted-token', { [sa.legacyInvalidSinceLabel]: '2020-01-01' }));
    await cluster.resource(PODS, 'default').create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user', namespace: 'default' },
      spec: {
        containers: [{ name: 'c', image: 'busybox', envFrom: [{ secretRef: { name: 'mounted-token' } }] }],
      },
    });
    const informers = new SharedInformerFactory(cluster);
    const cleaner = new LegacyTokenCleaner({
      client: cluster,
      serviceAccounts: informers.forResource(SERVICE_ACCOUNTS),
      secrets: informers.forResource(SECRETS),
      pods: informers.forResource(PODS),
      names,
      cleanUpPeriodMs: PERIOD,
      log,
      clock: new FakeClock(now),
    });
    informers.start();
    try {
      await informers.waitForSync();
      cluster.failNext('delete', conflict({ group: '', resource: 'secrets' }, 'app-token', 'changed'));
      const report = await cleaner.evaluate();
      assert.deepEqual(report.deleted, ['default/app-token']);
      assert.equal(cluster.callsOf('delete', 'secrets').length, 2);
      assert.equal(cluster.callsOf('get', 'secrets').length, 1, 're-read once after the conflict');
      await assert.rejects(cluster.resource(SECRETS, 'default').get('app-token'), /not found/);
      await cluster.resource(SECRETS, 'default').get('mounted-token');
    } finally {
      informers.stop();
    }
  });
});
