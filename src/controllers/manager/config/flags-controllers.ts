// The flags of kube-controller-manager's per-controller option sets (1.35), each onto its field
// of PlatControllerManagerConfiguration. One row per flag: `name kind Field.path: description`;
// the CSR signer flags whose names carry a brand, and --service-cluster-ip-range (which fills two
// fields), are built in code.

import { CM_FIELD, controllerManagerNames, type NamingProfile } from '../../../naming/index.ts';
import { type ConfigFlag, configFlag, flagFromRow } from './flag-spec.ts';

const ROWS: readonly string[] = [
  'disable-attach-detach-reconcile-sync bool AttachDetachController.DisableAttachDetachReconcilerSync: disable the attach/detach reconciler sync',
  'attach-detach-reconcile-sync-period duration AttachDetachController.ReconcilerSyncLoopPeriod: attach/detach reconciler sync period',
  'disable-force-detach-on-timeout bool AttachDetachController.disableForceDetachOnTimeout: never force-detach after the unmount timeout',
  'cluster-signing-cert-file string CSRSigningController.ClusterSigningCertFile: PEM CA certificate issuing cluster-scoped certificates',
  'cluster-signing-key-file string CSRSigningController.ClusterSigningKeyFile: PEM RSA or ECDSA key signing cluster-scoped certificates',
  'cluster-signing-duration duration CSRSigningController.ClusterSigningDuration: longest lifetime of a signed certificate',
  'concurrent-daemonset-syncs int32 DaemonSetController.ConcurrentDaemonSetSyncs: DaemonSets synced concurrently',
  'concurrent-deployment-syncs int32 DeploymentController.ConcurrentDeploymentSyncs: Deployments synced concurrently',
  'concurrent-statefulset-syncs int32 StatefulSetController.ConcurrentStatefulSetSyncs: StatefulSets synced concurrently',
  'concurrent-endpoint-syncs int32 EndpointController.ConcurrentEndpointSyncs: Endpoints synced concurrently',
  'endpoint-updates-batch-period duration EndpointController.EndpointUpdatesBatchPeriod: batching period of Endpoints updates',
  'concurrent-service-endpoint-syncs int32 EndpointSliceController.ConcurrentServiceEndpointSyncs: Services whose slices sync concurrently (1-50)',
  'max-endpoints-per-slice int32 EndpointSliceController.MaxEndpointsPerSlice: endpoints per EndpointSlice (1-1000)',
  'endpointslice-updates-batch-period duration EndpointSliceController.EndpointUpdatesBatchPeriod: batching period of EndpointSlice updates',
  'mirroring-concurrent-service-endpoint-syncs int32 EndpointSliceMirroringController.MirroringConcurrentServiceEndpointSyncs: mirrored Services synced concurrently (1-50)',
  'mirroring-max-endpoints-per-subset int32 EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset: endpoints per mirrored slice (1-1000)',
  'mirroring-endpointslice-updates-batch-period duration EndpointSliceMirroringController.MirroringEndpointUpdatesBatchPeriod: batching period of mirrored slice updates',
  'concurrent-ephemeralvolume-syncs int32 EphemeralVolumeController.ConcurrentEphemeralVolumeSyncs: ephemeral volumes synced concurrently',
  'enable-garbage-collector bool GarbageCollectorController.EnableGarbageCollector: run the garbage collector (match the API server)',
  'concurrent-gc-syncs int32 GarbageCollectorController.ConcurrentGCSyncs: garbage collector workers',
  'concurrent-horizontal-pod-autoscaler-syncs int32 HPAController.ConcurrentHorizontalPodAutoscalerSyncs: autoscalers synced concurrently',
  'horizontal-pod-autoscaler-sync-period duration HPAController.HorizontalPodAutoscalerSyncPeriod: autoscaler sync period',
  'horizontal-pod-autoscaler-downscale-stabilization duration HPAController.HorizontalPodAutoscalerDownscaleStabilizationWindow: downscale stabilization window',
  'horizontal-pod-autoscaler-tolerance float32 HPAController.HorizontalPodAutoscalerTolerance: ratio change below which nothing scales',
  'horizontal-pod-autoscaler-cpu-initialization-period duration HPAController.HorizontalPodAutoscalerCPUInitializationPeriod: CPU samples skipped after a pod starts',
  'horizontal-pod-autoscaler-initial-readiness-delay duration HPAController.HorizontalPodAutoscalerInitialReadinessDelay: readiness changes treated as initial after start',
  'concurrent-job-syncs int32 JobController.ConcurrentJobSyncs: Jobs synced concurrently',
  'concurrent-cron-job-syncs int32 CronJobController.ConcurrentCronJobSyncs: CronJobs synced concurrently',
  'legacy-service-account-token-clean-up-period duration LegacySATokenCleaner.CleanUpPeriod: unused time after which a legacy token is deleted',
  'namespace-sync-period duration NamespaceController.NamespaceSyncPeriod: namespace resync period',
  'concurrent-namespace-syncs int32 NamespaceController.ConcurrentNamespaceSyncs: namespaces synced concurrently',
  'node-cidr-mask-size int32 NodeIPAMController.NodeCIDRMaskSize: mask size of node CIDRs',
  'node-cidr-mask-size-ipv4 int32 NodeIPAMController.NodeCIDRMaskSizeIPv4: IPv4 node CIDR mask size (dual stack)',
  'node-cidr-mask-size-ipv6 int32 NodeIPAMController.NodeCIDRMaskSizeIPv6: IPv6 node CIDR mask size (dual stack)',
  'node-eviction-rate float32 NodeLifecycleController.NodeEvictionRate: nodes per second evicted in a healthy zone',
  'secondary-node-eviction-rate float32 NodeLifecycleController.SecondaryNodeEvictionRate: nodes per second evicted in an unhealthy zone',
  'node-startup-grace-period duration NodeLifecycleController.NodeStartupGracePeriod: time a starting node may be unresponsive',
  'node-monitor-grace-period duration NodeLifecycleController.NodeMonitorGracePeriod: time a running node may be unresponsive',
  'large-cluster-size-threshold int32 NodeLifecycleController.LargeClusterSizeThreshold: nodes from which a cluster is large for eviction',
  'unhealthy-zone-threshold float32 NodeLifecycleController.UnhealthyZoneThreshold: fraction of NotReady nodes (min 3) making a zone unhealthy',
  'pvclaimbinder-sync-period duration PersistentVolumeBinderController.PVClaimBinderSyncPeriod: volume and claim sync period',
  'enable-hostpath-provisioner bool PersistentVolumeBinderController.VolumeConfiguration.EnableHostPathProvisioning: HostPath provisioning (testing only)',
  'enable-dynamic-provisioning bool PersistentVolumeBinderController.VolumeConfiguration.EnableDynamicProvisioning: dynamic provisioning',
  'flex-volume-plugin-dir string PersistentVolumeBinderController.VolumeConfiguration.FlexVolumePluginDir: FlexVolume plugin directory',
  'pv-recycler-minimum-timeout-nfs int32 PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.MinimumTimeoutNFS: minimum NFS recycler pod deadline (s)',
  'pv-recycler-increment-timeout-nfs int32 PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.IncrementTimeoutNFS: NFS recycler deadline per Gi (s)',
  'pv-recycler-pod-template-filepath-nfs string PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.PodTemplateFilePathNFS: NFS recycler pod template',
  'pv-recycler-minimum-timeout-hostpath int32 PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.MinimumTimeoutHostPath: minimum HostPath recycler pod deadline (s)',
  'pv-recycler-timeout-increment-hostpath int32 PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.IncrementTimeoutHostPath: HostPath recycler deadline per Gi (s)',
  'pv-recycler-pod-template-filepath-hostpath string PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.PodTemplateFilePathHostPath: HostPath recycler pod template',
  'terminated-pod-gc-threshold int32 PodGCController.TerminatedPodGCThreshold: terminated pods kept before collection (<= 0: all)',
  'concurrent-replicaset-syncs int32 ReplicaSetController.ConcurrentRSSyncs: ReplicaSets synced concurrently',
  'concurrent-rc-syncs int32 ReplicationController.ConcurrentRCSyncs: ReplicationControllers synced concurrently',
  'resource-quota-sync-period duration ResourceQuotaController.ResourceQuotaSyncPeriod: quota usage sync period',
  'concurrent-resource-quota-syncs int32 ResourceQuotaController.ConcurrentResourceQuotaSyncs: quotas synced concurrently',
  'service-account-private-key-file string SAController.ServiceAccountKeyFile: PEM key signing legacy service account tokens',
  'concurrent-serviceaccount-token-syncs int32 SAController.ConcurrentSATokenSyncs: token Secrets synced concurrently',
  'root-ca-file string SAController.RootCAFile: CA bundle put in token Secrets and CA ConfigMaps',
  'concurrent-ttl-after-finished-syncs int32 TTLAfterFinishedController.ConcurrentTTLSyncs: TTL-after-finished workers',
  'concurrent-validating-admission-policy-status-syncs int32 ValidatingAdmissionPolicyStatusController.ConcurrentPolicySyncs: policy status workers',
  'concurrent-device-taint-eviction-syncs int32 DeviceTaintEvictionController.ConcurrentSyncs: device taint eviction operations run concurrently',
];

function signerFlags(stem: string, field: string, signer: string): ConfigFlag[] {
  const at = `CSRSigningController.${field}`;
  return [
    configFlag(
      `cluster-signing-${stem}-cert-file`,
      'string',
      `${at}.CertFile`,
      `PEM CA certificate for ${signer}`,
    ),
    configFlag(
      `cluster-signing-${stem}-key-file`,
      'string',
      `${at}.KeyFile`,
      `PEM RSA or ECDSA key for ${signer}`,
    ),
  ];
}

const serviceClusterIPRange: ConfigFlag = {
  ...configFlag(
    'service-cluster-ip-range',
    'string',
    'NodeIPAMController.ServiceCIDR',
    'Service CIDR(s), one per family',
  ),
  parse(v: string) {
    const parts = v.split(',');
    if (parts.length > 2) throw new Error('--service-cluster-ip-range can not contain more than two entries');
    return parts;
  },
  apply(config, value) {
    const [primary, secondary] = value as string[];
    config.NodeIPAMController.ServiceCIDR = primary ?? '';
    config.NodeIPAMController.SecondaryServiceCIDR = secondary ?? '';
  },
};

export function controllerSectionFlags(profile: NamingProfile): ConfigFlag[] {
  const n = controllerManagerNames(profile);
  return [
    ...ROWS.map(flagFromRow),
    ...signerFlags(
      n.flags.nodeAgentServingSigner,
      CM_FIELD.nodeAgentServingSigner,
      n.signers.nodeAgentServing,
    ),
    ...signerFlags(n.flags.nodeAgentClientSigner, CM_FIELD.nodeAgentClientSigner, n.signers.nodeAgentClient),
    ...signerFlags(n.flags.apiServerClientSigner, CM_FIELD.apiServerClientSigner, n.signers.apiServerClient),
    ...signerFlags('legacy-unknown', 'LegacyUnknownSignerConfiguration', n.signers.legacyUnknown),
    serviceClusterIPRange,
  ];
}
