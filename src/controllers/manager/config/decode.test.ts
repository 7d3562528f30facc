import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../../machinery/field-errors.ts';
import { controllerManagerNames, namingProfile } from '../../../naming/index.ts';
import {
  ConfigurationError,
  decodeCloudControllerManagerConfiguration,
  decodeLeaderMigrationConfiguration,
  decodePlatControllerManagerConfiguration,
} from './decode.ts';

const spec = controllerManagerNames(namingProfile('spec'));
const upstream = controllerManagerNames(namingProfile('upstream'));
const header = `apiVersion: ${spec.managerGroup}/v1alpha1\nkind: ${spec.managerKind}\n`;

/** The field errors of a decode that must fail, rendered. */
function errorsOf(text: string): string[] {
  try {
    decodePlatControllerManagerConfiguration(text);
  } catch (err) {
    assert.ok(err instanceof ConfigurationError, String(err));
    return err.errors.length > 0 ? err.errors.map(errorString) : [err.message];
  }
  assert.fail('decoded without error');
}

describe('decoding PlatControllerManagerConfiguration', () => {
  it('reads YAML, rewrites durations in Go form and defaults the rest', () => {
    const c = decodePlatControllerManagerConfiguration(
      `${header}Generic:\n  Controllers: ["*", "-garbagecollector"]\n  LeaderElection:\n    leaseDuration: 90s\n` +
        'JobController:\n  ConcurrentJobSyncs: 7\nPlatCloudShared:\n  ClusterCIDR: 10.0.0.0/16\n',
    );
    assert.deepEqual(c.Generic.Controllers, ['*', '-garbagecollector']);
    assert.equal(c.Generic.LeaderElection.leaseDuration, '1m30s');
    assert.equal(c.Generic.LeaderElection.renewDeadline, '10s');
    assert.equal(c.JobController.ConcurrentJobSyncs, 7);
    assert.equal(c.PlatCloudShared.ClusterCIDR, '10.0.0.0/16');
    assert.equal(c.DaemonSetController.ConcurrentDaemonSetSyncs, 2);
    assert.equal('apiVersion' in c, false);
  });

  it('reads JSON', () => {
    const c = decodePlatControllerManagerConfiguration(
      JSON.stringify({
        apiVersion: `${spec.managerGroup}/v1alpha1`,
        kind: spec.managerKind,
        Generic: { ClientConnection: { platconfig: '/etc/admin.platconfig', qps: 5.5 } },
        NodeLifecycleController: { UnhealthyZoneThreshold: 0.7 },
      }),
    );
    assert.equal(c.Generic.ClientConnection.platconfig, '/etc/admin.platconfig');
    assert.equal(c.Generic.ClientConnection.qps, 5.5);
    assert.equal(c.NodeLifecycleController.UnhealthyZoneThreshold, 0.7);
  });

  it("accepts upstream's group with upstream's brand-bearing field names", () => {
    const c = decodePlatControllerManagerConfiguration(
      `apiVersion: ${upstream.managerGroup}/v1alpha1\nkind: ${upstream.managerKind}\n` +
        `${upstream.fields.cloudShared}:\n  ClusterName: prod\nGeneric:\n  ClientConnection:\n    ${upstream.fields.clientConfig}: /k\n` +
        `CSRSigningController:\n  ${upstream.fields.nodeAgentServingSigner}:\n    CertFile: /c\n`,
    );
    assert.equal(c.PlatCloudShared.ClusterName, 'prod');
    assert.equal(c.Generic.ClientConnection.platconfig, '/k');
    assert.equal(c.CSRSigningController.NodeagentServingSignerConfiguration.CertFile, '/c');
    // The spec's field names are unknown in an upstream-named file.
    assert.deepEqual(
      errorsOf(
        `apiVersion: ${upstream.managerGroup}/v1alpha1\nkind: ${upstream.managerKind}\n${spec.fields.cloudShared}: {}\n`,
      ),
      [`${spec.fields.cloudShared}: Forbidden: unknown field`],
    );
  });

  it('reports unknown fields, wrong types and repeated keys, all at once, with their paths', () => {
    assert.deepEqual(
      errorsOf(
        `${header}Generic:\n  Port: 1\n  Port: 2\n  Bogus: true\n  LeaderElection:\n    leaseDuration: soon\n` +
          '    leaderElect: "yes"\nJobController: {ConcurrentJobSyncs: 1.5}\nHPAController: {HorizontalPodAutoscalerTolerance: x}\n' +
          'GarbageCollectorController:\n  GCIgnoredResources: [{Group: "", Resource: events, Verb: get}]\n' +
          'generic: {}\n',
      ),
      [
        'Generic.Port: Forbidden: duplicate field',
        'Generic.Bogus: Forbidden: unknown field',
        'Generic.LeaderElection.leaseDuration: Invalid value: "soon": time: invalid duration "soon"',
        'Generic.LeaderElection.leaderElect: Invalid value: "yes": json: cannot unmarshal string into Go value of type bool',
        'JobController.ConcurrentJobSyncs: Invalid value: 1.5: json: cannot unmarshal number 1.5 into Go value of type int32',
        'HPAController.HorizontalPodAutoscalerTolerance: Invalid value: "x": json: cannot unmarshal string into Go value of type float64',
        'GarbageCollectorController.GCIgnoredResources[0].Verb: Forbidden: unknown field',
        'generic: Forbidden: unknown field',
      ],
    );
    const json = JSON.stringify({
      apiVersion: `${spec.managerGroup}/v1alpha1`,
      Generic: { Controllers: '*' },
    });
    // Repeats come first (they are found while reading), then the shape's errors in document order.
    assert.deepEqual(
      errorsOf(`${json.slice(0, -1)}, "kind": "${spec.managerKind}", "kind": "${spec.managerKind}"}`),
      [
        'kind: Forbidden: duplicate field',
        'Generic.Controllers: Invalid value: "*": json: cannot unmarshal string into Go value of type []string',
      ],
    );
    assert.deepEqual(errorsOf(`${header}NodeIPAMController: {NodeCIDRMaskSize: 3000000000}\n`), [
      'NodeIPAMController.NodeCIDRMaskSize: Invalid value: 3000000000: json: cannot unmarshal number 3000000000 into Go value of type int32',
    ]);
  });

  it('treats null as absent', () => {
    const c = decodePlatControllerManagerConfiguration(
      `${header}JobController: null\nGeneric:\n  Controllers: null\n`,
    );
    assert.equal(c.JobController.ConcurrentJobSyncs, 5);
    assert.deepEqual(c.Generic.Controllers, ['*']);
  });

  it('refuses other kinds, versions and groups, empty text and bad syntax', () => {
    assert.deepEqual(errorsOf(''), ['empty config data']);
    assert.deepEqual(errorsOf(`apiVersion: ${spec.managerGroup}/v1beta1\nkind: ${spec.managerKind}\n`), [
      `no kind "${spec.managerKind}" is registered for version "${spec.managerGroup}/v1beta1"`,
    ]);
    assert.deepEqual(errorsOf(`apiVersion: ${spec.managerGroup}/v1alpha1\nkind: ${upstream.managerKind}\n`), [
      `no kind "${upstream.managerKind}" is registered for version "${spec.managerGroup}/v1alpha1"`,
    ]);
    assert.match(errorsOf(`apiVersion: ${spec.managerGroup}/v1alpha1\n`)[0], /^Object 'Kind' is missing in /);
    assert.match(errorsOf('a: [1, 2\n')[0], /^yaml: /);
    assert.match(errorsOf('{"apiVersion": ')[0], /^json: /);
    assert.deepEqual(errorsOf('- 1\n'), ["couldn't get version/kind; json parse error: not an object"]);
  });

  it('stops alias expansion bombs', () => {
    let text = 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n';
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      text += `${next}: &${next} [${Array(10).fill(`*${prev}`).join(',')}]\n`;
    }
    assert.match(errorsOf(text)[0], /excessive aliasing/);
  });
});

describe('decoding the other kinds', () => {
  it('reads CloudControllerManagerConfiguration', () => {
    const c = decodeCloudControllerManagerConfiguration(
      `apiVersion: ${spec.cloudManagerGroup}/v1alpha1\nkind: CloudControllerManagerConfiguration\n` +
        'NodeStatusUpdateFrequency: 1m\nWebhook:\n  Webhooks: ["*"]\nPlatCloudShared:\n  CloudProvider: {Name: fake}\n',
    );
    assert.equal(c.NodeStatusUpdateFrequency, '1m0s');
    assert.deepEqual(c.Webhook.Webhooks, ['*']);
    assert.equal(c.PlatCloudShared.CloudProvider.Name, 'fake');
    assert.equal(c.NodeController.ConcurrentNodeSyncs, 1);
  });

  it('reads LeaderMigrationConfiguration at each of its versions', () => {
    for (const v of ['v1alpha1', 'v1beta1', 'v1']) {
      const m = decodeLeaderMigrationConfiguration(
        `apiVersion: ${spec.leaderMigrationGroup}/${v}\nkind: LeaderMigrationConfiguration\nleaderName: m\n` +
          'resourceLock: leases\ncontrollerLeaders:\n- {name: route-controller, component: "*"}\n',
      );
      assert.deepEqual(m, {
        leaderName: 'm',
        resourceLock: 'leases',
        controllerLeaders: [{ name: 'route-controller', component: '*' }],
      });
    }
    assert.throws(
      () =>
        decodeLeaderMigrationConfiguration(
          `apiVersion: ${upstream.leaderMigrationGroup}/v1\nkind: LeaderMigrationConfiguration\nleaderName: 1\n`,
        ),
      /leaderName: Invalid value: 1: json: cannot unmarshal number into Go value of type string/,
    );
  });
});
