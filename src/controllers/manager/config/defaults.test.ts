import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../../naming/index.ts';
import {
  defaultCloudControllerManagerConfiguration,
  defaultLeaderMigrationFile,
  defaultPlatControllerManagerConfiguration,
} from './defaults.ts';
import { formatDuration } from './go-duration.ts';

const spec = namingProfile('spec');
const upstream = namingProfile('upstream');

describe('controller manager defaults (kube-controller-manager 1.35)', () => {
  const c = defaultPlatControllerManagerConfiguration({}, spec);

  it('fills the generic section as upstream', () => {
    assert.deepEqual(c.Generic, {
      Port: 0,
      Address: '0.0.0.0',
      MinResyncPeriod: '12h0m0s',
      ClientConnection: {
        platconfig: '',
        acceptContentTypes: '',
        contentType: spec.protobufMediaType,
        qps: 20,
        burst: 30,
      },
      ControllerStartInterval: '0s',
      LeaderElection: {
        leaderElect: true,
        leaseDuration: '15s',
        renewDeadline: '10s',
        retryPeriod: '2s',
        resourceLock: 'leases',
        resourceName: `${spec.componentPrefix}controller-manager`,
        resourceNamespace: `${spec.componentPrefix}system`,
      },
      Controllers: ['*'],
      Debugging: { enableProfiling: true, enableContentionProfiling: false },
      LeaderMigrationEnabled: false,
      LeaderMigration: { leaderName: '', resourceLock: '', controllerLeaders: [] },
    });
  });

  it('fills the cloud-shared section', () => {
    const s = c.PlatCloudShared;
    assert.equal(s.NodeMonitorPeriod, '5s');
    assert.equal(s.RouteReconciliationPeriod, '10s');
    assert.equal(s.ConfigureCloudRoutes, true);
    assert.equal(s.AllocateNodeCIDRs, false);
    assert.equal(s.CIDRAllocatorType, 'RangeAllocator');
    assert.equal(s.ClusterName, spec.labelDomain.split('.')[0]);
    assert.equal(
      defaultPlatControllerManagerConfiguration({}, upstream).PlatCloudShared.ClusterName,
      'kubernetes',
    );
  });

  it("fills every controller's section with upstream's values", () => {
    assert.deepEqual(c.AttachDetachController, {
      DisableAttachDetachReconcilerSync: false,
      ReconcilerSyncLoopPeriod: '1m0s',
      disableForceDetachOnTimeout: false,
    });
    assert.equal(c.CSRSigningController.ClusterSigningDuration, '8760h0m0s');
    assert.equal(c.CSRSigningController.ClusterSigningCertFile, '');
    assert.equal(c.DaemonSetController.ConcurrentDaemonSetSyncs, 2);
    assert.equal(c.DeploymentController.ConcurrentDeploymentSyncs, 5);
    assert.equal(c.StatefulSetController.ConcurrentStatefulSetSyncs, 5);
    assert.deepEqual(c.EndpointController, { ConcurrentEndpointSyncs: 5, EndpointUpdatesBatchPeriod: '0s' });
    assert.deepEqual(c.EndpointSliceController, {
      ConcurrentServiceEndpointSyncs: 5,
      MaxEndpointsPerSlice: 100,
      EndpointUpdatesBatchPeriod: '0s',
    });
    assert.deepEqual(c.EndpointSliceMirroringController, {
      MirroringConcurrentServiceEndpointSyncs: 5,
      MirroringMaxEndpointsPerSubset: 1000,
      MirroringEndpointUpdatesBatchPeriod: '0s',
    });
    assert.equal(c.EphemeralVolumeController.ConcurrentEphemeralVolumeSyncs, 5);
    assert.deepEqual(c.GarbageCollectorController, {
      EnableGarbageCollector: true,
      ConcurrentGCSyncs: 20,
      GCIgnoredResources: [
        { Group: '', Resource: 'events' },
        { Group: `events.${spec.groupDomain}`, Resource: 'events' },
      ],
    });
    assert.deepEqual(c.HPAController, {
      ConcurrentHorizontalPodAutoscalerSyncs: 5,
      HorizontalPodAutoscalerSyncPeriod: '15s',
      HorizontalPodAutoscalerDownscaleStabilizationWindow: '5m0s',
      HorizontalPodAutoscalerTolerance: 0.1,
      HorizontalPodAutoscalerCPUInitializationPeriod: '5m0s',
      HorizontalPodAutoscalerInitialReadinessDelay: '30s',
    });
    assert.equal(c.JobController.ConcurrentJobSyncs, 5);
    assert.equal(c.CronJobController.ConcurrentCronJobSyncs, 5);
    assert.equal(c.LegacySATokenCleaner.CleanUpPeriod, '8760h0m0s');
    assert.deepEqual(c.NamespaceController, { NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 10 });
    assert.deepEqual(c.NodeIPAMController, {
      ServiceCIDR: '',
      SecondaryServiceCIDR: '',
      NodeCIDRMaskSize: 0,
      NodeCIDRMaskSizeIPv4: 0,
      NodeCIDRMaskSizeIPv6: 0,
    });
    assert.deepEqual(c.NodeLifecycleController, {
      NodeEvictionRate: 0.1,
      SecondaryNodeEvictionRate: 0.01,
      NodeStartupGracePeriod: '1m0s',
      NodeMonitorGracePeriod: '50s',
      PodEvictionTimeout: '5m0s',
      LargeClusterSizeThreshold: 50,
      UnhealthyZoneThreshold: 0.55,
    });
    const pv = c.PersistentVolumeBinderController;
    assert.equal(pv.PVClaimBinderSyncPeriod, '15s');
    assert.equal(pv.VolumeConfiguration.EnableDynamicProvisioning, true);
    assert.equal(pv.VolumeConfiguration.EnableHostPathProvisioning, false);
    assert.deepEqual(pv.VolumeConfiguration.PersistentVolumeRecyclerConfiguration, {
      MaximumRetry: 3,
      MinimumTimeoutNFS: 300,
      PodTemplateFilePathNFS: '',
      IncrementTimeoutNFS: 30,
      PodTemplateFilePathHostPath: '',
      MinimumTimeoutHostPath: 60,
      IncrementTimeoutHostPath: 30,
    });
    assert.equal(
      defaultPlatControllerManagerConfiguration({}, upstream).PersistentVolumeBinderController
        .VolumeConfiguration.FlexVolumePluginDir,
      '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/',
    );
    assert.equal(c.PodGCController.TerminatedPodGCThreshold, 12500);
    assert.equal(c.ReplicaSetController.ConcurrentRSSyncs, 5);
    assert.equal(c.ReplicationController.ConcurrentRCSyncs, 5);
    assert.deepEqual(c.ResourceQuotaController, {
      ResourceQuotaSyncPeriod: '5m0s',
      ConcurrentResourceQuotaSyncs: 5,
    });
    assert.deepEqual(c.SAController, {
      ServiceAccountKeyFile: '',
      ConcurrentSATokenSyncs: 5,
      RootCAFile: '',
    });
    assert.equal(c.ServiceController.ConcurrentServiceSyncs, 1);
    assert.equal(c.TTLAfterFinishedController.ConcurrentTTLSyncs, 5);
    assert.equal(c.ValidatingAdmissionPolicyStatusController.ConcurrentPolicySyncs, 5);
    assert.equal(c.DeviceTaintEvictionController.ConcurrentSyncs, 10);
    assert.deepEqual(c.DeprecatedController, {});
  });

  it('treats zero as unset where upstream does, and keeps explicit pointer values', () => {
    const d = defaultPlatControllerManagerConfiguration(
      {
        GarbageCollectorController: {
          ConcurrentGCSyncs: 0,
          EnableGarbageCollector: false,
          GCIgnoredResources: [],
        },
        Generic: { LeaderElection: { leaderElect: false, leaseDuration: '0s' }, Controllers: [] },
        NodeLifecycleController: { SecondaryNodeEvictionRate: 0 },
        PlatCloudShared: { ConfigureCloudRoutes: false },
      },
      spec,
    );
    assert.equal(d.GarbageCollectorController.ConcurrentGCSyncs, 20);
    assert.equal(d.GarbageCollectorController.EnableGarbageCollector, false);
    assert.deepEqual(d.GarbageCollectorController.GCIgnoredResources, []);
    assert.equal(d.Generic.LeaderElection.leaderElect, false);
    assert.equal(d.Generic.LeaderElection.leaseDuration, '15s');
    assert.deepEqual(d.Generic.Controllers, ['*']);
    assert.equal(d.NodeLifecycleController.SecondaryNodeEvictionRate, 0);
    assert.equal(d.PlatCloudShared.ConfigureCloudRoutes, false);
  });

  it('uses the built-in leader migration when enabled without one', () => {
    const d = defaultPlatControllerManagerConfiguration({ Generic: { LeaderMigrationEnabled: true } }, spec);
    assert.equal(d.Generic.LeaderMigration.leaderName, 'cloud-provider-extraction-migration');
    assert.equal(d.Generic.LeaderMigration.resourceLock, 'leases');
    assert.deepEqual(
      d.Generic.LeaderMigration.controllerLeaders.map((l) => `${l.name}@${l.component}`),
      ['route-controller@*', 'service-controller@*', 'cloud-node-lifecycle-controller@*'],
    );
  });

  it('fills the cloud controller manager and leader migration kinds', () => {
    const ccm = defaultCloudControllerManagerConfiguration({}, spec);
    assert.equal(ccm.NodeStatusUpdateFrequency, '5m0s');
    assert.equal(ccm.NodeController.ConcurrentNodeSyncs, 1);
    assert.equal(ccm.ServiceController.ConcurrentServiceSyncs, 1);
    assert.deepEqual(ccm.Webhook.Webhooks, []);
    assert.equal(ccm.Generic.ClientConnection.qps, 20);
    assert.equal(ccm.Generic.ClientConnection.burst, 30);
    assert.deepEqual(defaultLeaderMigrationFile({}), {
      leaderName: '',
      resourceLock: '',
      controllerLeaders: [],
    });
  });

  it("writes durations in Go's form", () => {
    assert.deepEqual([0, 1500, 90_000, 3_600_000, 1, 1.5, 0.002, -180_000, 0.0001].map(formatDuration), [
      '0s',
      '1.5s',
      '1m30s',
      '1h0m0s',
      '1ms',
      '1.5ms',
      '2µs',
      '-3m0s',
      '100ns',
    ]);
  });
});
