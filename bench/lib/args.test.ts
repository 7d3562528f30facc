import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBenchArgs, UsageError } from './args.ts';

describe('parseBenchArgs', () => {
  it('defaults to both backends, full size', () => {
    assert.deepEqual(parseBenchArgs(['storage']), {
      scenarios: ['storage'],
      backends: ['sqlite', 'etcd3'],
      quick: false,
      help: false,
      protocol: 'http1',
      encoding: 'json',
    });
  });

  it('takes the watch encoding, and refuses an unknown one', () => {
    assert.equal(parseBenchArgs(['watch', '--encoding', 'protobuf']).encoding, 'protobuf');
    assert.throws(
      () => parseBenchArgs(['watch', '--encoding', 'xml']),
      /--encoding must be json or protobuf/,
    );
  });

  it('narrows to one backend and accepts several scenarios', () => {
    const args = parseBenchArgs(['storage', 'get', '--backend', 'etcd3']);
    assert.deepEqual(args.scenarios, ['storage', 'get']);
    assert.deepEqual(args.backends, ['etcd3']);
    assert.deepEqual(parseBenchArgs(['storage', '--backend=sqlite']).backends, ['sqlite']);
    assert.deepEqual(parseBenchArgs(['storage', '--backend', 'both']).backends, ['sqlite', 'etcd3']);
  });

  it('takes quick mode from the flag or from BENCH_QUICK', () => {
    assert.equal(parseBenchArgs(['storage', '--quick']).quick, true);
    assert.equal(parseBenchArgs(['storage'], { BENCH_QUICK: '1' }).quick, true);
    assert.equal(parseBenchArgs(['storage'], { BENCH_QUICK: '0' }).quick, false);
  });

  it('takes a kubeconfig, a protocol and a server pid', () => {
    const args = parseBenchArgs(['get', '--kubeconfig', '/k', '--protocol=http2', '--server-pid', '42']);
    assert.equal(args.kubeconfig, '/k');
    assert.equal(args.protocol, 'http2');
    assert.equal(args.serverPid, 42);
    assert.throws(() => parseBenchArgs(['get', '--protocol', 'spdy']), UsageError);
  });

  it('rejects unknown backends and flags as usage errors', () => {
    assert.throws(() => parseBenchArgs(['storage', '--backend', 'mysql']), UsageError);
    assert.throws(() => parseBenchArgs(['storage', '--fast']), UsageError);
  });

  it('takes --auth as a list of kinds or all, for the get scenario only', () => {
    assert.deepEqual(parseBenchArgs(['get', '--auth', 'sa-token,cert']).auth, ['sa-token', 'cert']);
    assert.deepEqual(parseBenchArgs(['get', '--auth=all']).auth, [
      'cert',
      'static-token',
      'sa-token',
      'oidc-token',
    ]);
    assert.equal(parseBenchArgs(['get']).auth, undefined);
    assert.throws(() => parseBenchArgs(['get', '--auth', 'cert,password']), /--auth takes .* not 'password'/);
    assert.throws(() => parseBenchArgs(['get', 'create', '--auth', 'cert']), /get scenario only/);
  });
});
