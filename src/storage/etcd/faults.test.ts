import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import etcd3 from 'etcd3';
import { classifyFailure, isUnreachable, MemberAnsweredError, MemberUnreachableError } from './faults.ts';

// The client library re-types gRPC errors and keeps the status code only in the message.
const unavailable = (detail: string) => new etcd3.GRPCUnavailableError(`14 UNAVAILABLE: ${detail}`);

describe('etcd failure kinds', () => {
  it('a request that never reached a member, or that a member refused before proposing, is unsent', () => {
    for (const err of [
      new MemberUnreachableError('127.0.0.1:2379'),
      unavailable('No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379'),
      new MemberAnsweredError(unavailable('etcdserver: no leader')),
      new etcd3.GRPCUnknownError('2 UNKNOWN: raft proposal dropped'),
      new etcd3.GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: etcdserver: too many requests'),
    ]) {
      assert.equal(classifyFailure(err), 'unsent', err.message);
    }
  });

  it('a timeout or a connection lost while waiting is ambiguous', () => {
    for (const err of [
      new MemberAnsweredError(unavailable('etcdserver: request timed out')),
      unavailable('etcdserver: request timed out, possibly due to previous leader failure'),
      unavailable('Connection dropped'),
      new etcd3.GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded'),
    ]) {
      assert.equal(classifyFailure(err), 'ambiguous', err.message);
    }
  });

  it('answers about the request itself are final', () => {
    for (const err of [
      new etcd3.GRPCOutOfRangeError(
        '11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted',
      ),
      new etcd3.GRPCInvalidArgumentError('3 INVALID_ARGUMENT: etcdserver: key is not provided'),
      new Error('something else'),
    ]) {
      assert.equal(classifyFailure(err), 'final', err.message);
    }
  });

  it('only a member that did not answer counts as unreachable', () => {
    assert.equal(isUnreachable(unavailable('No connection established')), true);
    assert.equal(isUnreachable(unavailable('Connection dropped')), true);
    assert.equal(isUnreachable(unavailable('etcdserver: request timed out')), false);
    assert.equal(isUnreachable(new MemberAnsweredError(unavailable('etcdserver: no leader'))), false);
  });
});
