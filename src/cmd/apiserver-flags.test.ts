import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentName, namingProfile } from '../naming/profile.ts';
import { FlagError, parseApiserverFlags } from './apiserver-flags.ts';

const parse = (...argv: string[]) =>
  parseApiserverFlags(argv, componentName(namingProfile('spec'), 'apiserver'));

describe('apiserver flags', () => {
  it('defaults match kube-apiserver where the flag exists', () => {
    const o = parse();
    assert.equal(o.securePort, 6443);
    assert.equal(o.bindAddress, '127.0.0.1');
    assert.equal(o.dataDir, './platform-data');
    assert.equal(o.storageBackend, 'sqlite');
    assert.equal(o.etcdPrefix, '/registry');
    assert.equal(o.anonymousAuth, true);
    assert.equal(o.watchCache, true);
    assert.equal(o.compactionIntervalMs, 300_000);
    assert.equal(o.minRequestTimeoutSeconds, 1800);
    // Not upstream's AlwaysAllow: until RBAC, anonymous requests reach only public documents.
    assert.equal(o.authorizationModes, undefined);
    assert.equal(o.livezGracePeriodMs, 0);
    assert.equal(o.shutdownDelayMs, 0);
    assert.equal(o.naming, 'spec');
  });

  it('reads every flag in both --flag=value and --flag value forms', () => {
    const o = parse(
      '--secure-port=8443',
      '--bind-address',
      '127.0.0.1',
      '--data-dir=/tmp/d',
      '--storage-backend=etcd3',
      '--etcd-servers=http://127.0.0.1:2379,http://127.0.0.1:2380',
      '--etcd-prefix=/x',
      '--tls-cert-file=c.pem',
      '--tls-private-key-file=k.pem',
      '--client-ca-file=ca.pem',
      '--token-auth-file=t.csv',
      '--anonymous-auth=false',
      '--watch-cache=false',
      '--etcd-compaction-interval=30s',
      '--min-request-timeout=60',
      '--authorization-mode=AlwaysDeny,AlwaysAllow',
      '--feature-gates=A=true,B=false',
      '--livez-grace-period=1m30s',
      '--shutdown-delay-duration=2s',
      '--naming=upstream',
    );
    assert.equal(o.securePort, 8443);
    assert.equal(o.dataDir, '/tmp/d');
    assert.deepEqual(o.etcdServers, ['http://127.0.0.1:2379', 'http://127.0.0.1:2380']);
    assert.equal(o.anonymousAuth, false);
    assert.equal(o.watchCache, false);
    assert.equal(o.compactionIntervalMs, 30_000);
    assert.equal(o.minRequestTimeoutSeconds, 60);
    assert.deepEqual(o.authorizationModes, ['AlwaysDeny', 'AlwaysAllow']);
    assert.deepEqual(o.featureGates, { A: true, B: false });
    assert.equal(o.livezGracePeriodMs, 90_000);
    assert.equal(o.shutdownDelayMs, 2000);
    assert.equal(o.naming, 'upstream');
  });

  it('an unknown flag or a bad value is a FlagError saying what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['--nope'], /^unknown flag: --nope$/],
      [['--data-dir'], /^flag needs an argument: --data-dir$/],
      [['--secure-port=abc'], /port number/],
      [['--secure-port=70000'], /port number/],
      [['--anonymous-auth=maybe'], /invalid syntax/],
      [['--authorization-mode=RBAC2'], /not a valid mode/],
      [['--livez-grace-period=soon'], /invalid duration/],
      [['--storage-backend=mysql'], /sqlite.*etcd3/],
      [['--storage-backend=etcd3'], /--etcd-servers must be specified/],
      [['--naming=other'], /spec.*upstream/],
      [['--feature-gates=A'], /missing bool value/],
      [['--tls-cert-file=c.pem'], /must be given together/],
      [['stray'], /does not take any arguments, got \["stray"\]/],
      [['--show-hidden-metrics-for-version=1.33'], /must be omitted or have the value '1\.34'/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => parse(...argv),
        (err: unknown) => err instanceof FlagError && message.test(err.message),
        argv.join(' '),
      );
    }
  });
});
