// The informer cache's indexes: the namespace index built in, custom indexes kept current through
// updates and deletes, indexes added to a filled cache, and name clashes refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { Indexer, NAMESPACE_INDEX } from './indexer.ts';
import { objectKey, splitObjectKey } from './keys.ts';

const obj = (ns: string, name: string, labels: Record<string, string> = {}): ApiObject => ({
  metadata: { namespace: ns || undefined, name, labels },
});
const byApp = (o: ApiObject) => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []);
const names = (xs: ApiObject[]) => xs.map((x) => x.metadata?.name).sort();

describe('Indexer', () => {
  it('keys objects as namespace/name (name when cluster-scoped)', () => {
    assert.equal(objectKey(obj('a', 'x')), 'a/x');
    assert.equal(objectKey(obj('', 'n1')), 'n1');
    assert.deepEqual(splitObjectKey('a/x'), { namespace: 'a', name: 'x' });
    assert.deepEqual(splitObjectKey('n1'), { namespace: '', name: 'n1' });
    assert.throws(() => splitObjectKey('a/b/c'), /unexpected key format/);
  });

  it('lists one namespace through the built-in index, and follows updates and deletes', () => {
    const ix = new Indexer({ app: byApp });
    ix.set(obj('a', 'x', { app: 'web' }));
    ix.set(obj('a', 'y', { app: 'db' }));
    ix.set(obj('b', 'z', { app: 'web' }));
    assert.deepEqual(names(ix.list('a')), ['x', 'y']);
    assert.deepEqual(names(ix.byIndex(NAMESPACE_INDEX, 'b')), ['z']);
    assert.deepEqual(names(ix.byIndex('app', 'web')), ['x', 'z']);
    ix.set(obj('a', 'x', { app: 'db' }));
    assert.deepEqual(names(ix.byIndex('app', 'web')), ['z']);
    assert.deepEqual(names(ix.byIndex('app', 'db')), ['x', 'y']);
    assert.equal(ix.delete('a/y')?.metadata?.name, 'y');
    assert.deepEqual(names(ix.byIndex('app', 'db')), ['x']);
    assert.deepEqual(ix.listIndexValues('app').sort(), ['db', 'web']);
    assert.deepEqual(ix.indexKeys('app', 'web'), ['b/z']);
    assert.equal(ix.size, 2);
    assert.deepEqual(ix.keys().sort(), ['a/x', 'b/z']);
  });

  it('indexes what it already holds when an index is added, and refuses a name in use', () => {
    const ix = new Indexer();
    ix.set(obj('a', 'x', { app: 'web' }));
    ix.addIndexers({ app: byApp });
    assert.deepEqual(names(ix.byIndex('app', 'web')), ['x']);
    assert.throws(() => ix.addIndexers({ app: byApp }), /indexer conflict: app/);
    assert.throws(() => ix.byIndex('nope', 'v'), /Index with name nope does not exist/);
  });

  it('leaves an object out of an index whose function throws, and says so', () => {
    const ix = new Indexer({
      bad: () => {
        throw new Error('boom');
      },
    });
    const seen: string[] = [];
    ix.onIndexError = (name, key) => seen.push(`${name} ${key}`);
    ix.set(obj('a', 'x'));
    assert.deepEqual(ix.byIndex('bad', 'anything'), []);
    assert.deepEqual(seen, ['bad a/x']);
    assert.equal(ix.get('a/x')?.metadata?.name, 'x');
  });
});
