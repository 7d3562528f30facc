// A shared informer over the REST client against a server started in-process: it fills its cache
// with a streaming list when the server offers them (and with a paged list when WatchList is off),
// then follows creates, updates and deletes through its watch.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { startTestApiServer, type TestApiServer, waitUntil } from '../../server/testing/index.ts';
import { restOptionsFromPlatconfig } from '../config.ts';
import { RestClient } from '../rest-client.ts';
import { SharedIndexInformer } from './shared-informer.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string, data: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

for (const watchList of [true, false]) {
  describe(`informer against a server (WatchList ${watchList ? 'on' : 'off'})`, () => {
    let t: TestApiServer;
    let client: RestClient;
    before(async () => {
      t = await startTestApiServer({ featureGates: { WatchList: watchList } });
      client = new RestClient(restOptionsFromPlatconfig(t.server.adminConfigPath));
    });
    after(async () => {
      client?.close();
      await t?.stop();
    });

    it('syncs, then follows adds, updates and deletes', async () => {
      const ns = client.resource(CM, 'default');
      await ns.create(cm('before-1'));
      await ns.create(cm('before-2'));
      const errors: unknown[] = [];
      const informer = new SharedIndexInformer(client.resource(CM, 'default'), {
        onError: (e) => errors.push(e),
      });
      const seen: string[] = [];
      informer.addEventHandler({
        add: (o, initial) => seen.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`),
        update: (_o, n) => seen.push(`update ${n.metadata?.name} ${JSON.stringify(n.data ?? {})}`),
        delete: (o) => seen.push(`delete ${o.metadata?.name}`),
      });
      informer.start();
      await informer.waitForSync();
      const names = informer.lister
        .list('default')
        .map((o) => o.metadata?.name)
        .filter((n) => n?.startsWith('before-'))
        .sort();
      assert.deepEqual(names, ['before-1', 'before-2']);
      assert.notEqual(informer.lastSyncResourceVersion(), '');
      assert.equal(informer.usesStreamingLists(), watchList);
      await ns.create(cm('later'));
      const b1 = await ns.get('before-1');
      await ns.update({ ...b1, data: { k: 'v' } });
      await ns.delete('before-2');
      await waitUntil(() => seen.includes('delete before-2'), 'the delete to reach the handler');
      const mine = seen.filter((s) => /before-|later/.test(s));
      assert.deepEqual(mine, [
        ...mine.slice(0, 2),
        'add later',
        'update before-1 {"k":"v"}',
        'delete before-2',
      ]);
      assert.deepEqual(mine.slice(0, 2).sort(), ['add before-1 initial', 'add before-2 initial']);
      assert.equal(informer.lister.get('default/before-2'), undefined);
      assert.deepEqual(informer.lister.get('default/before-1')?.data, { k: 'v' });
      informer.stop();
      await informer.whenStopped();
      assert.deepEqual(errors, []);
    });
  });
}
