import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../../machinery/field-errors.ts';
import { namingProfile } from '../../../naming/index.ts';
import {
  type DeepPartial,
  defaultCloudControllerManagerConfiguration,
  defaultPlatControllerManagerConfiguration,
} from './defaults.ts';
import type { PlatControllerManagerConfiguration } from './types-controllers.ts';
import {
  validateCloudControllerManagerConfiguration,
  validateLeaderMigrationConfiguration,
  validatePlatControllerManagerConfiguration,
} from './validate.ts';

const spec = namingProfile('spec');

function errors(partial: DeepPartial<PlatControllerManagerConfiguration>): string[] {
  const c = defaultPlatControllerManagerConfiguration(partial, spec);
  return validatePlatControllerManagerConfiguration(c, spec).map(errorString);
}

describe('validating PlatControllerManagerConfiguration', () => {
  it('accepts the defaults', () => {
    assert.deepEqual(errors({}), []);
  });

  it('checks --controllers items against the known names and aliases', () => {
    assert.deepEqual(
      errors({ Generic: { Controllers: ['*', 'garbagecollector', '-job-controller', 'bogus', '-nope'] } }),
      [
        'Generic.Controllers[3]: Invalid value: "bogus": "bogus" is not in the list of known controllers',
        'Generic.Controllers[4]: Invalid value: "-nope": "nope" is not in the list of known controllers',
      ],
    );
  });

  it('checks leader election when it is on', () => {
    const le = (l: DeepPartial<PlatControllerManagerConfiguration['Generic']['LeaderElection']>) =>
      errors({ Generic: { LeaderElection: l } });
    assert.deepEqual(le({ resourceLock: 'endpoints' }), [
      'Generic.LeaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"',
    ]);
    assert.deepEqual(le({ leaseDuration: '5s', renewDeadline: '10s' }), [
      'Generic.LeaderElection.leaseDuration: Invalid value: "10s": must be greater than or equal to `RenewDeadline`',
    ]);
    assert.deepEqual(le({ leaseDuration: '10s', renewDeadline: '10s' }), []);
    assert.deepEqual(le({ leaseDuration: '-1s', renewDeadline: '-2s', retryPeriod: '-1s' }), [
      'Generic.LeaderElection.leaseDuration: Invalid value: "-1s": must be greater than zero',
      'Generic.LeaderElection.renewDeadline: Invalid value: "-2s": must be greater than zero',
      'Generic.LeaderElection.retryPeriod: Invalid value: "-1s": must be greater than zero',
    ]);
    assert.deepEqual(le({ renewDeadline: '2s', retryPeriod: '2s' }), [
      'Generic.LeaderElection.renewDeadline: Invalid value: "2s": must be greater than retryPeriod*JitterFactor',
    ]);
    assert.deepEqual(le({ leaderElect: false, resourceLock: 'endpoints', leaseDuration: '1s' }), []);
    // A configuration built in code may hold text that is no duration.
    assert.deepEqual(le({ leaseDuration: 'soon' }), [
      'Generic.LeaderElection.leaseDuration: Invalid value: "soon": time: invalid duration "soon"',
    ]);
  });

  it('checks the client connection and leader migration', () => {
    assert.deepEqual(errors({ Generic: { ClientConnection: { burst: -1 } } }), [
      'Generic.ClientConnection.burst: Invalid value: -1: must be non-negative',
    ]);
    assert.deepEqual(
      errors({
        Generic: {
          LeaderMigrationEnabled: true,
          LeaderMigration: { resourceLock: 'configmaps', controllerLeaders: [{ name: 'x' }] },
        },
      }),
      [
        'Generic.LeaderMigration.leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration',
        `Generic.LeaderMigration.resourceLock: Invalid value: "configmaps": resource Lock must be one of 'leases' or 'endpoints'`,
        'Generic.LeaderMigration.controllerLeaders[0].component: Required value',
      ],
    );
    assert.deepEqual(
      validateLeaderMigrationConfiguration({
        leaderName: 'm',
        resourceLock: 'endpoints',
        controllerLeaders: [{ name: '', component: '*' }],
      }).map(errorString),
      ['controllerLeaders[0].name: Required value'],
    );
  });

  it('checks concurrency with upstream messages', () => {
    assert.deepEqual(
      errors({
        DaemonSetController: { ConcurrentDaemonSetSyncs: -1 },
        StatefulSetController: { ConcurrentStatefulSetSyncs: -2 },
        JobController: { ConcurrentJobSyncs: -1 },
        CronJobController: { ConcurrentCronJobSyncs: -1 },
        HPAController: { ConcurrentHorizontalPodAutoscalerSyncs: -1 },
        EphemeralVolumeController: { ConcurrentEphemeralVolumeSyncs: -1 },
        ValidatingAdmissionPolicyStatusController: { ConcurrentPolicySyncs: -3 },
        DeviceTaintEvictionController: { ConcurrentSyncs: -4 },
      }),
      [
        'DaemonSetController.ConcurrentDaemonSetSyncs: Invalid value: -1: concurrent-daemonset-syncs must be greater than 0, but got -1',
        'StatefulSetController.ConcurrentStatefulSetSyncs: Invalid value: -2: concurrent-statefulset-syncs must be greater than 0, but got -2',
        'EphemeralVolumeController.ConcurrentEphemeralVolumeSyncs: Invalid value: -1: concurrent-ephemeralvolume-syncs must be greater than 0, but got -1',
        'HPAController.ConcurrentHorizontalPodAutoscalerSyncs: Invalid value: -1: concurrent-horizontal-pod-autoscaler-syncs must be greater than 0, but got -1',
        'JobController.ConcurrentJobSyncs: Invalid value: -1: concurrent-job-syncs must be greater than 0, but got -1',
        'CronJobController.ConcurrentCronJobSyncs: Invalid value: -1: concurrent-cron-job-syncs must be greater than 0, but got -1',
        'ValidatingAdmissionPolicyStatusController.ConcurrentPolicySyncs: Invalid value: -3: must be positive, got -3',
        'DeviceTaintEvictionController.ConcurrentSyncs: Invalid value: -4: concurrent-device-taint-eviction-syncs must be greater than zero, got -4',
      ],
    );
  });

  it('checks the endpoint slice ranges', () => {
    assert.deepEqual(
      errors({
        EndpointSliceController: { ConcurrentServiceEndpointSyncs: 51, MaxEndpointsPerSlice: 1001 },
        EndpointSliceMirroringController: {
          MirroringConcurrentServiceEndpointSyncs: -1,
          MirroringMaxEndpointsPerSubset: -1,
        },
      }),
      [
        'EndpointSliceController.ConcurrentServiceEndpointSyncs: Invalid value: 51: concurrent-service-endpoint-syncs must not be more than 50, but got 51',
        'EndpointSliceController.MaxEndpointsPerSlice: Invalid value: 1001: max-endpoints-per-slice must not be more than 1000, but got 1001',
        'EndpointSliceMirroringController.MirroringConcurrentServiceEndpointSyncs: Invalid value: -1: mirroring-concurrent-service-endpoint-syncs must not be less than 1, but got -1',
        'EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset: Invalid value: -1: mirroring-max-endpoints-per-subset must not be less than 1, but got -1',
      ],
    );
  });

  it('checks the CSR signer files and ClusterSigningDuration', () => {
    assert.deepEqual(
      errors({
        CSRSigningController: {
          ClusterSigningCertFile: '/ca.crt',
          ClusterSigningKeyFile: '/ca.key',
          NodeagentServingSignerConfiguration: { CertFile: '/s.crt' },
          LegacyUnknownSignerConfiguration: { KeyFile: '/l.key' },
          ClusterSigningDuration: '-1h',
        },
      }).map((e) => e.replace(/Invalid value: \{[^}]*\}/, 'Invalid value: {...}')),
      [
        `CSRSigningController.NodeagentServingSignerConfiguration: Invalid value: {...}: "cluster-signing-${spec.nodeAgent}-serving": cannot specify cert without key`,
        'CSRSigningController.LegacyUnknownSignerConfiguration: Invalid value: {...}: "cluster-signing-legacy-unknown": cannot specify key without cert',
        'CSRSigningController.ClusterSigningCertFile: Invalid value: "/ca.crt": cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
        'CSRSigningController.ClusterSigningDuration: Invalid value: "-1h": must be greater than zero',
      ],
    );
    assert.deepEqual(
      errors({
        CSRSigningController: { ClusterSigningCertFile: '/ca.crt', ClusterSigningKeyFile: '/ca.key' },
      }),
      [],
    );
  });

  it('checks the service CIDRs are two families', () => {
    assert.deepEqual(
      errors({ NodeIPAMController: { ServiceCIDR: '10.0.0.0/16', SecondaryServiceCIDR: 'fd00::/108' } }),
      [],
    );
    assert.deepEqual(
      errors({ NodeIPAMController: { ServiceCIDR: '10.0.0.0/16', SecondaryServiceCIDR: '10.1.0.0/16' } }),
      [
        'NodeIPAMController.SecondaryServiceCIDR: Invalid value: "10.1.0.0/16": serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)',
      ],
    );
    assert.deepEqual(errors({ NodeIPAMController: { ServiceCIDR: '10.0.0.0/33' } }), [
      'NodeIPAMController.ServiceCIDR: Invalid value: "10.0.0.0/33": must be a valid CIDR',
    ]);
  });

  it('checks cluster CIDRs and mask sizes when node CIDRs are allocated', () => {
    const ipam = (
      cidr: string,
      masks: DeepPartial<PlatControllerManagerConfiguration['NodeIPAMController']>,
    ) =>
      errors({ PlatCloudShared: { AllocateNodeCIDRs: true, ClusterCIDR: cidr }, NodeIPAMController: masks });
    assert.deepEqual(ipam('10.0.0.0/8', {}), []);
    assert.deepEqual(ipam('10.0.0.0/8,fd00::/48', { NodeCIDRMaskSize: 24 }), [
      'NodeIPAMController.NodeCIDRMaskSize: Invalid value: 24: usage of --node-cidr-mask-size is not allowed with dual-stack clusters',
    ]);
    assert.deepEqual(ipam('10.0.0.0/8,10.1.0.0/16', {}), [
      'PlatCloudShared.ClusterCIDR: Invalid value: "10.0.0.0/8,10.1.0.0/16": len of ClusterCIDRs==2 and they are not configured as dual stack (at least one from each IPFamily',
    ]);
    assert.deepEqual(ipam('fd00::/48', { NodeCIDRMaskSizeIPv4: 24 }), [
      'NodeIPAMController.NodeCIDRMaskSizeIPv4: Invalid value: 24: usage of --node-cidr-mask-size-ipv4 is not allowed for a single-stack IPv6 cluster',
    ]);
    assert.deepEqual(ipam('bogus', {}), [
      'PlatCloudShared.ClusterCIDR: Invalid value: "bogus": invalid CIDR address: bogus',
    ]);
  });
});

describe('validating CloudControllerManagerConfiguration', () => {
  it('needs a cloud provider, positive node syncs and known webhooks and controllers', () => {
    const c = defaultCloudControllerManagerConfiguration(
      {
        NodeController: { ConcurrentNodeSyncs: -1 },
        Webhook: { Webhooks: ['*', 'w1', '-w2'] },
        Generic: { Controllers: ['service', 'x'] },
      },
      spec,
    );
    assert.deepEqual(validateCloudControllerManagerConfiguration(c, ['w1']).map(errorString), [
      'Generic.Controllers[1]: Invalid value: "x": "x" is not in the list of known controllers',
      'NodeController.ConcurrentNodeSyncs: Invalid value: -1: concurrent-node-syncs must be a positive number',
      'Webhook.Webhooks[2]: Invalid value: "-w2": "w2" is not in the list of known webhooks',
      'PlatCloudShared.CloudProvider.Name: Invalid value: "": --cloud-provider cannot be empty',
    ]);
  });
});
