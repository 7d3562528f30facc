// How the system controllers read API failures and their configuration sections.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alreadyExists, conflict, notFound } from '../machinery/status.ts';
import {
  configSection,
  durationField,
  hasStatusCause,
  intField,
  isAlreadyExists,
  isConflict,
  isNotFound,
  keyOf,
  stringMap,
} from './controller-support.ts';

const gr = { group: '', resource: 'secrets' };

describe('controller support', () => {
  it('tells failures apart by their Status', () => {
    assert.ok(isNotFound(notFound(gr, 'x')));
    assert.ok(isConflict(conflict(gr, 'x', 'changed')));
    assert.ok(!isConflict(alreadyExists(gr, 'x')));
    assert.ok(isAlreadyExists(alreadyExists(gr, 'x')));
    assert.ok(!isNotFound(new Error('socket hang up')));
    assert.ok(!isNotFound(null));
    const terminating = Object.assign(new Error('terminating'), {
      status: { code: 403, details: { causes: [{ reason: 'NamespaceTerminating' }] } },
    });
    assert.ok(hasStatusCause(terminating, 'NamespaceTerminating'));
    assert.ok(!hasStatusCause(notFound(gr, 'x'), 'NamespaceTerminating'));
  });

  it('reads configuration sections and fields leniently', () => {
    assert.deepEqual(configSection({ SAController: { RootCAFile: 'x' } }, 'SAController'), {
      RootCAFile: 'x',
    });
    assert.deepEqual(configSection(null, 'SAController'), {});
    assert.deepEqual(configSection({ SAController: 5 }, 'SAController'), {});
    assert.equal(durationField('8760h0m0s', 1), 8760 * 3600_000);
    assert.equal(durationField({ Duration: '1m' }, 1), 60_000);
    assert.equal(durationField(250, 1), 250);
    assert.equal(durationField('soon', 7), 7);
    assert.equal(durationField(undefined, 7), 7);
    assert.equal(intField(3, 5), 3);
    assert.equal(intField(0, 5), 5);
    assert.equal(intField('3', 5), 5);
  });

  it('keys and maps objects without trusting their shape', () => {
    assert.equal(keyOf({ metadata: { namespace: 'a', name: 'b' } }), 'a/b');
    assert.equal(keyOf({ metadata: { name: 'b' } }), 'b');
    assert.deepEqual(stringMap({ a: 'x', b: 5, c: null }), { a: 'x' });
    assert.deepEqual(stringMap(['x']), {});
  });
});
