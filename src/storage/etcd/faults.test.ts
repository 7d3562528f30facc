import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUnreachable, MemberUnreachableError } from './client.ts';
import { classifyFailure } from './faults.ts';
import { GrpcError } from './grpc.ts';

const unavailable = (detail: string) => new GrpcError(14, detail);

describe('etcd failure kinds', () => {
  it('a request that never reached a member, or that a member refused before proposing, is unsent', () => {
    for (const err of [
      new MemberUnreachableError('127.0.0.1:2379'),
      unavailable('No connection established: connect ECONNREFUSED 127.0.0.1:2379'),
      unavailable('etcdserver: no leader'),
      new GrpcError(2, 'raft proposal dropped'),
      new GrpcError(8, 'etcdserver: too many requests'),
    ]) {
      assert.equal(classifyFailure(err), 'unsent', err.message);
    }
  });

  it('a timeout or a connection lost while waiting is ambiguous', () => {
    for (const err of [
      unavailable('etcdserver: request timed out'),
      unavailable('etcdserver: request timed out, possibly due to previous leader failure'),
      unavailable('Connection dropped: keepalive ping not answered'),
      new GrpcError(4, 'Deadline exceeded'),
    ]) {
      assert.equal(classifyFailure(err), 'ambiguous', err.message);
    }
  });

  it('answers about the request itself are final', () => {
    for (const err of [
      new GrpcError(11, 'etcdserver: mvcc: required revision has been compacted'),
      new GrpcError(3, 'etcdserver: key is not provided'),
      new Error('something else'),
    ]) {
      assert.equal(classifyFailure(err), 'final', err.message);
    }
  });

  it('a code kept only in the message still counts', () => {
    assert.equal(classifyFailure(new Error('14 UNAVAILABLE: Connection dropped')), 'ambiguous');
  });

  it('only a member that did not answer counts as unreachable', () => {
    assert.equal(isUnreachable(unavailable('No connection established')), true);
    assert.equal(isUnreachable(unavailable('Connection dropped')), true);
    assert.equal(isUnreachable(unavailable('etcdserver: request timed out')), false);
    assert.equal(isUnreachable(unavailable('etcdserver: no leader')), false);
  });
});
