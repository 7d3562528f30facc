import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusOf } from '../machinery/status.ts';
import {
  CompactedError,
  InvalidContinueError,
  KeyExistsError,
  KeyNotFoundError,
  ResourceVersionConflictError,
  TooLargeResourceVersionError,
  UnavailableError,
} from '../storage/errors.ts';
import { fromStorageError } from './storage-errors.ts';

const gr = { resource: 'configmaps' };
const status = (err: unknown) => statusOf(fromStorageError(err, gr, 'x'));

describe('storage errors as Status', () => {
  it('missing, existing and conflicting keys', () => {
    assert.deepEqual(
      [status(new KeyNotFoundError('/k')).code, status(new KeyNotFoundError('/k')).message],
      [404, 'configmaps "x" not found'],
    );
    assert.deepEqual(
      [status(new KeyExistsError('/k')).code, status(new KeyExistsError('/k')).reason],
      [409, 'AlreadyExists'],
    );
    const c = status(
      new ResourceVersionConflictError(
        '/k',
        'Precondition failed: UID in precondition: a, UID in object meta: b',
      ),
    );
    assert.equal(c.code, 409);
    assert.equal(
      c.message,
      'Operation cannot be fulfilled on configmaps "x": Precondition failed: UID in precondition: a, UID in object meta: b',
    );
  });

  it('compacted revisions are 410 Expired, with the continue wording for tokens', () => {
    const plain = status(new CompactedError('/k', 5, 9));
    assert.deepEqual(
      [plain.code, plain.reason, plain.message],
      [410, 'Expired', 'too old resource version: 5 (9)'],
    );
    assert.match(
      status(new CompactedError('/k', 5, 9, true)).message ?? '',
      /^The provided continue parameter is too old/,
    );
  });

  it('future revisions are 504 with a retry, bad tokens 400, an unreachable store 503', () => {
    const big = status(new TooLargeResourceVersionError('/k', 100, 7));
    assert.equal(big.code, 504);
    assert.equal(big.details?.retryAfterSeconds, 1);
    assert.match(big.message ?? '', /Too large resource version: 100, current: 7/);
    assert.equal(status(new InvalidContinueError('continue key is not valid: x')).code, 400);
    assert.equal(status(new UnavailableError('down')).code, 503);
  });

  it('other errors pass through untouched', () => {
    const e = new Error('other');
    assert.equal(fromStorageError(e, gr, 'x'), e);
  });
});
