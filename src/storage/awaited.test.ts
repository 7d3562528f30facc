// Awaited storage work: counted from its start until its end is called, once however often it is
// called, and several at once are counted apart.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { storageWorkAwaited, storageWorkBegins } from './awaited.ts';

it('counts each piece of work until its end, once', () => {
  assert.equal(storageWorkAwaited(), false);
  const a = storageWorkBegins();
  const b = storageWorkBegins();
  assert.equal(storageWorkAwaited(), true);
  a();
  a();
  assert.equal(storageWorkAwaited(), true, 'a second end of the same work does not end another');
  b();
  assert.equal(storageWorkAwaited(), false);
});
