// Upstream's defaults for each controller's section (pkg/controller/*/config/v1alpha1 defaulters
// and kube-controller-manager's flag defaults, 1.35) and for the three root kinds. Applied to what a
// file held (or to nothing, for a manager started from flags alone), they give a complete
// configuration; zero counts as unset where upstream's defaulter says so (see defaults-generic.ts).

import type { NamingProfile } from '../../../naming/index.ts';
import { CM_FIELD, controllerManagerNames } from '../../../naming/index.ts';
import {
  type DeepPartial,
  defaultCloudShared,
  defaultGeneric,
  defaultLeaderMigrationConfiguration,
  dur,
  keep,
  num,
  str,
} from './defaults-generic.ts';
import type { CloudControllerManagerConfiguration } from './types-cloud.ts';
import type { CSRSigningConfiguration, PlatControllerManagerConfiguration } from './types-controllers.ts';
import type { LeaderMigrationConfiguration } from './types-generic.ts';

export type { DeepPartial } from './defaults-generic.ts';

function signer(s: DeepPartial<CSRSigningConfiguration> | undefined): CSRSigningConfiguration {
  return { CertFile: s?.CertFile ?? '', KeyFile: s?.KeyFile ?? '' };
}

/** A complete PlatControllerManagerConfiguration from a partial one (empty: all defaults). */
export function defaultPlatControllerManagerConfiguration(
  c: DeepPartial<PlatControllerManagerConfiguration> = {},
  profile: NamingProfile,
): PlatControllerManagerConfiguration {
  const names = controllerManagerNames(profile);
  const csr = c.CSRSigningController;
  const hpa = c.HPAController;
  const nl = c.NodeLifecycleController;
  const pv = c.PersistentVolumeBinderController;
  const vol = pv?.VolumeConfiguration;
  const rec = vol?.PersistentVolumeRecyclerConfiguration;
  const ipam = c.NodeIPAMController;
  const gc = c.GarbageCollectorController;
  return {
    Generic: defaultGeneric(c.Generic, profile),
    [CM_FIELD.cloudShared]: defaultCloudShared(c[CM_FIELD.cloudShared], profile),
    AttachDetachController: {
      DisableAttachDetachReconcilerSync: c.AttachDetachController?.DisableAttachDetachReconcilerSync ?? false,
      ReconcilerSyncLoopPeriod: dur(c.AttachDetachController?.ReconcilerSyncLoopPeriod, '1m0s'),
      disableForceDetachOnTimeout: c.AttachDetachController?.disableForceDetachOnTimeout ?? false,
    },
    CSRSigningController: {
      ClusterSigningCertFile: csr?.ClusterSigningCertFile ?? '',
      ClusterSigningKeyFile: csr?.ClusterSigningKeyFile ?? '',
      [CM_FIELD.nodeAgentServingSigner]: signer(csr?.[CM_FIELD.nodeAgentServingSigner]),
      [CM_FIELD.nodeAgentClientSigner]: signer(csr?.[CM_FIELD.nodeAgentClientSigner]),
      [CM_FIELD.apiServerClientSigner]: signer(csr?.[CM_FIELD.apiServerClientSigner]),
      LegacyUnknownSignerConfiguration: signer(csr?.LegacyUnknownSignerConfiguration),
      ClusterSigningDuration: dur(csr?.ClusterSigningDuration, '8760h0m0s'),
    },
    DaemonSetController: {
      ConcurrentDaemonSetSyncs: num(c.DaemonSetController?.ConcurrentDaemonSetSyncs, 2),
    },
    DeploymentController: {
      ConcurrentDeploymentSyncs: num(c.DeploymentController?.ConcurrentDeploymentSyncs, 5),
    },
    StatefulSetController: {
      ConcurrentStatefulSetSyncs: num(c.StatefulSetController?.ConcurrentStatefulSetSyncs, 5),
    },
    DeprecatedController: {},
    EndpointController: {
      ConcurrentEndpointSyncs: num(c.EndpointController?.ConcurrentEndpointSyncs, 5),
      EndpointUpdatesBatchPeriod: c.EndpointController?.EndpointUpdatesBatchPeriod ?? '0s',
    },
    EndpointSliceController: {
      ConcurrentServiceEndpointSyncs: num(c.EndpointSliceController?.ConcurrentServiceEndpointSyncs, 5),
      MaxEndpointsPerSlice: num(c.EndpointSliceController?.MaxEndpointsPerSlice, 100),
      EndpointUpdatesBatchPeriod: c.EndpointSliceController?.EndpointUpdatesBatchPeriod ?? '0s',
    },
    EndpointSliceMirroringController: {
      MirroringConcurrentServiceEndpointSyncs: num(
        c.EndpointSliceMirroringController?.MirroringConcurrentServiceEndpointSyncs,
        5,
      ),
      MirroringMaxEndpointsPerSubset: num(
        c.EndpointSliceMirroringController?.MirroringMaxEndpointsPerSubset,
        1000,
      ),
      MirroringEndpointUpdatesBatchPeriod:
        c.EndpointSliceMirroringController?.MirroringEndpointUpdatesBatchPeriod ?? '0s',
    },
    EphemeralVolumeController: {
      ConcurrentEphemeralVolumeSyncs: num(c.EphemeralVolumeController?.ConcurrentEphemeralVolumeSyncs, 5),
    },
    GarbageCollectorController: {
      EnableGarbageCollector: keep(gc?.EnableGarbageCollector, true),
      ConcurrentGCSyncs: num(gc?.ConcurrentGCSyncs, 20),
      // Events are never owners or dependents worth tracking, in either of their groups.
      GCIgnoredResources:
        gc?.GCIgnoredResources === undefined
          ? [
              { Group: '', Resource: 'events' },
              { Group: names.eventsGroup, Resource: 'events' },
            ]
          : gc.GCIgnoredResources.map((r) => ({ Group: r?.Group ?? '', Resource: r?.Resource ?? '' })),
    },
    HPAController: {
      ConcurrentHorizontalPodAutoscalerSyncs: num(hpa?.ConcurrentHorizontalPodAutoscalerSyncs, 5),
      HorizontalPodAutoscalerSyncPeriod: dur(hpa?.HorizontalPodAutoscalerSyncPeriod, '15s'),
      HorizontalPodAutoscalerDownscaleStabilizationWindow: dur(
        hpa?.HorizontalPodAutoscalerDownscaleStabilizationWindow,
        '5m0s',
      ),
      HorizontalPodAutoscalerTolerance: num(hpa?.HorizontalPodAutoscalerTolerance, 0.1),
      HorizontalPodAutoscalerCPUInitializationPeriod: dur(
        hpa?.HorizontalPodAutoscalerCPUInitializationPeriod,
        '5m0s',
      ),
      HorizontalPodAutoscalerInitialReadinessDelay: dur(
        hpa?.HorizontalPodAutoscalerInitialReadinessDelay,
        '30s',
      ),
    },
    JobController: { ConcurrentJobSyncs: num(c.JobController?.ConcurrentJobSyncs, 5) },
    CronJobController: { ConcurrentCronJobSyncs: num(c.CronJobController?.ConcurrentCronJobSyncs, 5) },
    LegacySATokenCleaner: { CleanUpPeriod: dur(c.LegacySATokenCleaner?.CleanUpPeriod, '8760h0m0s') },
    NamespaceController: {
      NamespaceSyncPeriod: dur(c.NamespaceController?.NamespaceSyncPeriod, '5m0s'),
      ConcurrentNamespaceSyncs: num(c.NamespaceController?.ConcurrentNamespaceSyncs, 10),
    },
    // Mask sizes stay 0: the IPAM controller picks 24 (IPv4) and 64 (IPv6) when it starts.
    NodeIPAMController: {
      ServiceCIDR: ipam?.ServiceCIDR ?? '',
      SecondaryServiceCIDR: ipam?.SecondaryServiceCIDR ?? '',
      NodeCIDRMaskSize: ipam?.NodeCIDRMaskSize ?? 0,
      NodeCIDRMaskSizeIPv4: ipam?.NodeCIDRMaskSizeIPv4 ?? 0,
      NodeCIDRMaskSizeIPv6: ipam?.NodeCIDRMaskSizeIPv6 ?? 0,
    },
    NodeLifecycleController: {
      NodeEvictionRate: keep(nl?.NodeEvictionRate, 0.1),
      SecondaryNodeEvictionRate: keep(nl?.SecondaryNodeEvictionRate, 0.01),
      NodeStartupGracePeriod: dur(nl?.NodeStartupGracePeriod, '1m0s'),
      NodeMonitorGracePeriod: dur(nl?.NodeMonitorGracePeriod, '50s'),
      PodEvictionTimeout: dur(nl?.PodEvictionTimeout, '5m0s'),
      LargeClusterSizeThreshold: keep(nl?.LargeClusterSizeThreshold, 50),
      UnhealthyZoneThreshold: keep(nl?.UnhealthyZoneThreshold, 0.55),
    },
    PersistentVolumeBinderController: {
      PVClaimBinderSyncPeriod: dur(pv?.PVClaimBinderSyncPeriod, '15s'),
      VolumeConfiguration: {
        EnableHostPathProvisioning: keep(vol?.EnableHostPathProvisioning, false),
        EnableDynamicProvisioning: keep(vol?.EnableDynamicProvisioning, true),
        PersistentVolumeRecyclerConfiguration: {
          MaximumRetry: num(rec?.MaximumRetry, 3),
          MinimumTimeoutNFS: num(rec?.MinimumTimeoutNFS, 300),
          PodTemplateFilePathNFS: rec?.PodTemplateFilePathNFS ?? '',
          IncrementTimeoutNFS: num(rec?.IncrementTimeoutNFS, 30),
          PodTemplateFilePathHostPath: rec?.PodTemplateFilePathHostPath ?? '',
          MinimumTimeoutHostPath: num(rec?.MinimumTimeoutHostPath, 60),
          IncrementTimeoutHostPath: num(rec?.IncrementTimeoutHostPath, 30),
        },
        FlexVolumePluginDir: str(vol?.FlexVolumePluginDir, names.flexVolumePluginDir),
      },
    },
    PodGCController: { TerminatedPodGCThreshold: num(c.PodGCController?.TerminatedPodGCThreshold, 12500) },
    ReplicaSetController: { ConcurrentRSSyncs: num(c.ReplicaSetController?.ConcurrentRSSyncs, 5) },
    ReplicationController: { ConcurrentRCSyncs: num(c.ReplicationController?.ConcurrentRCSyncs, 5) },
    ResourceQuotaController: {
      ResourceQuotaSyncPeriod: dur(c.ResourceQuotaController?.ResourceQuotaSyncPeriod, '5m0s'),
      ConcurrentResourceQuotaSyncs: num(c.ResourceQuotaController?.ConcurrentResourceQuotaSyncs, 5),
    },
    SAController: {
      ServiceAccountKeyFile: c.SAController?.ServiceAccountKeyFile ?? '',
      ConcurrentSATokenSyncs: num(c.SAController?.ConcurrentSATokenSyncs, 5),
      RootCAFile: c.SAController?.RootCAFile ?? '',
    },
    ServiceController: { ConcurrentServiceSyncs: num(c.ServiceController?.ConcurrentServiceSyncs, 1) },
    TTLAfterFinishedController: {
      ConcurrentTTLSyncs: num(c.TTLAfterFinishedController?.ConcurrentTTLSyncs, 5),
    },
    ValidatingAdmissionPolicyStatusController: {
      ConcurrentPolicySyncs: num(c.ValidatingAdmissionPolicyStatusController?.ConcurrentPolicySyncs, 5),
    },
    DeviceTaintEvictionController: {
      ConcurrentSyncs: num(c.DeviceTaintEvictionController?.ConcurrentSyncs, 10),
    },
  };
}

/** A complete CloudControllerManagerConfiguration from a partial one. */
export function defaultCloudControllerManagerConfiguration(
  c: DeepPartial<CloudControllerManagerConfiguration> = {},
  profile: NamingProfile,
): CloudControllerManagerConfiguration {
  return {
    Generic: defaultGeneric(c.Generic, profile),
    [CM_FIELD.cloudShared]: defaultCloudShared(c[CM_FIELD.cloudShared], profile),
    NodeController: { ConcurrentNodeSyncs: num(c.NodeController?.ConcurrentNodeSyncs, 1) },
    ServiceController: { ConcurrentServiceSyncs: num(c.ServiceController?.ConcurrentServiceSyncs, 1) },
    NodeStatusUpdateFrequency: dur(c.NodeStatusUpdateFrequency, '5m0s'),
    Webhook: { Webhooks: [...((c.Webhook?.Webhooks ?? []) as string[])] },
  };
}

/** LeaderMigrationConfiguration has no defaulter upstream: absent fields are empty. */
export function defaultLeaderMigrationFile(
  c: DeepPartial<LeaderMigrationConfiguration> = {},
): LeaderMigrationConfiguration {
  return defaultLeaderMigrationConfiguration(c);
}
