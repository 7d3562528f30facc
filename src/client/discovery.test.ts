// Discovery against a server: the aggregated documents and the legacy ones give the same resources;
// the preferred version, scope, verbs and subresources are read; the cache holds until refresh().

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../server/testing/index.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { Discovery } from './discovery.ts';
import { RestClient } from './rest-client.ts';

describe('discovery', () => {
  let t: TestApiServer;
  let client: RestClient;
  before(async () => {
    t = await startTestApiServer();
    client = new RestClient(restOptionsFromPlatconfig(t.server.adminConfigPath));
  });
  after(async () => {
    client?.close();
    await t?.stop();
  });

  const summary = (r: { group: string; version: string; resource: string }) =>
    `${r.group}/${r.version}/${r.resource}`;

  it('reads resources with scope, verbs and subresources, the same from either kind of document', async () => {
    const aggregated = await new Discovery(client).all();
    const legacy = await new Discovery(client, { legacyOnly: true }).all();
    assert.deepEqual(aggregated.failed, {});
    assert.deepEqual(legacy.failed, {});
    assert.deepEqual(aggregated.resources.map(summary).sort(), legacy.resources.map(summary).sort());

    for (const result of [aggregated, legacy]) {
      const find = (g: string, r: string) => result.resources.find((x) => x.group === g && x.resource === r);
      const cm = find('', 'configmaps');
      assert.deepEqual(
        [cm?.version, cm?.kind, cm?.namespaced, cm?.preferred, cm?.subresources, cm?.shortNames],
        ['v1', 'ConfigMap', true, true, [], ['cm']],
      );
      assert.ok(cm?.verbs.includes('deletecollection'));
      const ns = find('', 'namespaces');
      assert.equal(ns?.namespaced, false);
      assert.deepEqual(ns?.subresources.sort(), ['finalize', 'status']);
      const deployments = find('apps', 'deployments');
      assert.ok(deployments?.subresources.includes('scale'));
    }
  });

  it('selects the listable, watchable, deletable resources and caches until refresh()', async () => {
    const d = new Discovery(client);
    const deletable = await d.withVerbs(['list', 'watch', 'delete']);
    const names = deletable.map(summary);
    assert.ok(names.includes('/v1/configmaps'));
    assert.ok(names.includes('apps/v1/deployments'));
    // Reviews are create-only.
    assert.ok(!deletable.some((r) => r.resource === 'selfsubjectreviews'));
    assert.equal(await d.all(), await d.all());
    const before = d.all();
    d.refresh();
    assert.notEqual(d.all(), before);
    assert.equal((await d.find('', 'configmaps'))?.kind, 'ConfigMap');
    assert.equal(await d.find('', 'nothings'), undefined);
  });
});
