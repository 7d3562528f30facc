import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FlagSpec, parseFlagsGiven } from '../../../cmd/flag-parser.ts';
import { controllerManagerNames, namingProfile } from '../../../naming/index.ts';
import { decodePlatControllerManagerConfiguration } from './decode.ts';
import { defaultPlatControllerManagerConfiguration } from './defaults.ts';
import { applyFlags, controllerManagerFlags } from './flags.ts';

const spec = namingProfile('spec');
const names = controllerManagerNames(spec);
const flags = controllerManagerFlags(spec);
// The flag table is what the command-line parser takes, as it is.
const specs: readonly FlagSpec[] = flags;

function parse(argv: string[]) {
  return parseFlagsGiven(argv, 'controller-manager', specs);
}

describe('controller manager flags', () => {
  it('has one spec per name, each setting a field or read by the program', () => {
    const names = flags.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    const base = defaultPlatControllerManagerConfiguration({}, spec) as unknown as Record<string, unknown>;
    for (const f of flags) {
      if (f.field === undefined) continue;
      let at: unknown = base;
      for (const k of f.field) {
        assert.ok(
          typeof at === 'object' && at !== null && k in at,
          `${f.name}: no field ${f.field.join('.')}`,
        );
        at = (at as Record<string, unknown>)[k];
      }
    }
  });

  it("spells brand-bearing flags in the profile's words", () => {
    const own = controllerManagerFlags(spec).map((f) => f.name);
    const upstream = controllerManagerFlags(namingProfile('upstream')).map((f) => f.name);
    const stem = spec.componentPrefix;
    for (const n of [`${stem}api-qps`, `${stem}api-burst`, `${stem}api-content-type`, spec.clientConfig]) {
      assert.ok(own.includes(n), n);
    }
    assert.ok(own.includes(`cluster-signing-${spec.nodeAgent}-serving-cert-file`));
    assert.ok(own.includes(`cluster-signing-${stem}apiserver-client-key-file`));
    for (const n of [
      'kube-api-qps',
      'kube-api-burst',
      'kubeconfig',
      'cluster-signing-kubelet-client-cert-file',
    ]) {
      assert.ok(upstream.includes(n), n);
      assert.ok(!own.includes(n), n);
    }
  });

  it('overrides the file only with flags given', () => {
    const file = decodePlatControllerManagerConfiguration(
      `apiVersion: ${names.managerGroup}/v1alpha1\nkind: ${names.managerKind}\n` +
        'Generic:\n  LeaderElection: {leaseDuration: 30s, renewDeadline: 20s}\nJobController: {ConcurrentJobSyncs: 9}\n' +
        'DaemonSetController: {ConcurrentDaemonSetSyncs: 4}\n',
      spec,
    );
    const c = applyFlags(
      file,
      parse([
        '--leader-elect=false',
        '--leader-elect-lease-duration=45s',
        '--controllers=*,-garbagecollector',
        '--controllers=tokencleaner',
        `--${spec.componentPrefix}api-qps=7.5`,
        `--${spec.clientConfig}=/admin.conf`,
        '--concurrent-job-syncs',
        '3',
        '--use-service-account-credentials',
        '--root-ca-file=/ca.crt',
        '--service-account-private-key-file=/sa.key',
        '--node-monitor-grace-period=1m',
        '--min-resync-period=8h',
        '--cluster-signing-duration=24h',
        '--service-cluster-ip-range=10.0.0.0/16,fd00::/108',
      ]),
      flags,
    );
    assert.equal(c.Generic.LeaderElection.leaderElect, false);
    assert.equal(c.Generic.LeaderElection.leaseDuration, '45s');
    assert.equal(c.Generic.LeaderElection.renewDeadline, '20s');
    assert.deepEqual(c.Generic.Controllers, ['*', '-garbagecollector', 'tokencleaner']);
    assert.equal(c.Generic.ClientConnection.qps, 7.5);
    assert.equal(c.Generic.ClientConnection.platconfig, '/admin.conf');
    assert.equal(c.JobController.ConcurrentJobSyncs, 3);
    assert.equal(c.DaemonSetController.ConcurrentDaemonSetSyncs, 4);
    assert.equal(c.PlatCloudShared.UseServiceAccountCredentials, true);
    assert.equal(c.SAController.RootCAFile, '/ca.crt');
    assert.equal(c.SAController.ServiceAccountKeyFile, '/sa.key');
    assert.equal(c.NodeLifecycleController.NodeMonitorGracePeriod, '1m0s');
    assert.equal(c.Generic.MinResyncPeriod, '8h0m0s');
    assert.equal(c.CSRSigningController.ClusterSigningDuration, '24h0m0s');
    assert.equal(c.NodeIPAMController.ServiceCIDR, '10.0.0.0/16');
    assert.equal(c.NodeIPAMController.SecondaryServiceCIDR, 'fd00::/108');
  });

  it('turns on the built-in leader migration with --enable-leader-migration', () => {
    const c = applyFlags(
      defaultPlatControllerManagerConfiguration({}, spec),
      parse(['--enable-leader-migration']),
      flags,
    );
    assert.equal(c.Generic.LeaderMigrationEnabled, true);
    assert.equal(c.Generic.LeaderMigration.leaderName, 'cloud-provider-extraction-migration');
  });

  it('refuses malformed values with Go-style messages', () => {
    assert.throws(
      () => parse(['--concurrent-gc-syncs=many']),
      /strconv.ParseInt: parsing "many": invalid syntax/,
    );
    assert.throws(() => parse(['--concurrent-gc-syncs=3000000000']), /value out of range/);
    assert.throws(() => parse(['--leader-elect-retry-period=soon']), /time: invalid duration "soon"/);
    assert.throws(
      () => parse(['--node-eviction-rate=fast']),
      /strconv.ParseFloat: parsing "fast": invalid syntax/,
    );
    assert.throws(() => parse(['--leader-elect=maybe']), /strconv.ParseBool/);
    assert.throws(
      () => parse(['--service-cluster-ip-range=10.0.0.0/16,fd00::/108,10.1.0.0/16']),
      /--service-cluster-ip-range can not contain more than two entries/,
    );
    assert.throws(() => parse(['--kube-api-qps=5']), /unknown flag: --kube-api-qps/);
  });
});
