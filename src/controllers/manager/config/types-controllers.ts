// One configuration section per controller of the controller manager (the types of
// kube-controller-manager config/v1alpha1 at 1.35, upstream's names), and the manager's root type
// that holds them. Counts are int32, rates float32, the HPA tolerance float64; Go's untagged field
// names are the JSON names, except attach/detach's `disableForceDetachOnTimeout` tag.

import { CM_FIELD } from '../../../naming/index.ts';
import type { Duration } from './go-duration.ts';
import type { PlatCloudSharedConfiguration, ServiceControllerConfiguration } from './types-cloud.ts';
import type { GenericControllerManagerConfiguration } from './types-generic.ts';

export interface AttachDetachControllerConfiguration {
  DisableAttachDetachReconcilerSync: boolean;
  ReconcilerSyncLoopPeriod: Duration;
  disableForceDetachOnTimeout: boolean;
}

/** A signer's CA: a PEM X.509 certificate and its RSA or ECDSA key. */
export interface CSRSigningConfiguration {
  CertFile: string;
  KeyFile: string;
}

export interface CSRSigningControllerConfiguration {
  ClusterSigningCertFile: string;
  ClusterSigningKeyFile: string;
  [CM_FIELD.nodeAgentServingSigner]: CSRSigningConfiguration;
  [CM_FIELD.nodeAgentClientSigner]: CSRSigningConfiguration;
  [CM_FIELD.apiServerClientSigner]: CSRSigningConfiguration;
  LegacyUnknownSignerConfiguration: CSRSigningConfiguration;
  /** Longest lifetime of an issued certificate; requests may ask shorter. */
  ClusterSigningDuration: Duration;
}

export interface DaemonSetControllerConfiguration {
  ConcurrentDaemonSetSyncs: number;
}
export interface DeploymentControllerConfiguration {
  ConcurrentDeploymentSyncs: number;
}
export interface StatefulSetControllerConfiguration {
  ConcurrentStatefulSetSyncs: number;
}
/** Kept for flags upstream deprecated; it has no fields left. */
export type DeprecatedControllerConfiguration = Record<string, never>;

export interface EndpointControllerConfiguration {
  ConcurrentEndpointSyncs: number;
  EndpointUpdatesBatchPeriod: Duration;
}
export interface EndpointSliceControllerConfiguration {
  ConcurrentServiceEndpointSyncs: number;
  MaxEndpointsPerSlice: number;
  EndpointUpdatesBatchPeriod: Duration;
}
export interface EndpointSliceMirroringControllerConfiguration {
  MirroringConcurrentServiceEndpointSyncs: number;
  MirroringMaxEndpointsPerSubset: number;
  /** 0 means each Endpoints change updates its slices at once. */
  MirroringEndpointUpdatesBatchPeriod: Duration;
}
export interface EphemeralVolumeControllerConfiguration {
  ConcurrentEphemeralVolumeSyncs: number;
}

export interface GroupResource {
  Group: string;
  Resource: string;
}
export interface GarbageCollectorControllerConfiguration {
  /** Must match the API server's setting. */
  EnableGarbageCollector: boolean;
  ConcurrentGCSyncs: number;
  GCIgnoredResources: GroupResource[];
}

export interface HPAControllerConfiguration {
  ConcurrentHorizontalPodAutoscalerSyncs: number;
  HorizontalPodAutoscalerSyncPeriod: Duration;
  HorizontalPodAutoscalerDownscaleStabilizationWindow: Duration;
  HorizontalPodAutoscalerTolerance: number;
  HorizontalPodAutoscalerCPUInitializationPeriod: Duration;
  HorizontalPodAutoscalerInitialReadinessDelay: Duration;
}
export interface JobControllerConfiguration {
  ConcurrentJobSyncs: number;
}
export interface CronJobControllerConfiguration {
  ConcurrentCronJobSyncs: number;
}
export interface LegacySATokenCleanerConfiguration {
  /** How long an auto-generated token may go unused before it is deleted. */
  CleanUpPeriod: Duration;
}
export interface NamespaceControllerConfiguration {
  NamespaceSyncPeriod: Duration;
  ConcurrentNamespaceSyncs: number;
}
export interface NodeIPAMControllerConfiguration {
  ServiceCIDR: string;
  /** Of the other IP family than ServiceCIDR. */
  SecondaryServiceCIDR: string;
  NodeCIDRMaskSize: number;
  NodeCIDRMaskSizeIPv4: number;
  NodeCIDRMaskSizeIPv6: number;
}
export interface NodeLifecycleControllerConfiguration {
  /** Nodes per second. */
  NodeEvictionRate: number;
  /** Nodes per second once a zone is unhealthy; 0 in clusters up to LargeClusterSizeThreshold. */
  SecondaryNodeEvictionRate: number;
  NodeStartupGracePeriod: Duration;
  NodeMonitorGracePeriod: Duration;
  PodEvictionTimeout: Duration;
  LargeClusterSizeThreshold: number;
  /** Fraction of NotReady nodes (at least 3) that makes a zone unhealthy. */
  UnhealthyZoneThreshold: number;
}

export interface PersistentVolumeRecyclerConfiguration {
  MaximumRetry: number;
  MinimumTimeoutNFS: number;
  PodTemplateFilePathNFS: string;
  IncrementTimeoutNFS: number;
  PodTemplateFilePathHostPath: string;
  MinimumTimeoutHostPath: number;
  IncrementTimeoutHostPath: number;
}
export interface VolumeConfiguration {
  /** Testing only. */
  EnableHostPathProvisioning: boolean;
  EnableDynamicProvisioning: boolean;
  PersistentVolumeRecyclerConfiguration: PersistentVolumeRecyclerConfiguration;
  FlexVolumePluginDir: string;
}
export interface PersistentVolumeBinderControllerConfiguration {
  PVClaimBinderSyncPeriod: Duration;
  VolumeConfiguration: VolumeConfiguration;
}
export interface PodGCControllerConfiguration {
  /** 0 or less: terminated pods are never collected. */
  TerminatedPodGCThreshold: number;
}
export interface ReplicaSetControllerConfiguration {
  ConcurrentRSSyncs: number;
}
export interface ReplicationControllerConfiguration {
  ConcurrentRCSyncs: number;
}
export interface ResourceQuotaControllerConfiguration {
  ResourceQuotaSyncPeriod: Duration;
  ConcurrentResourceQuotaSyncs: number;
}
export interface SAControllerConfiguration {
  /** PEM RSA key that signs legacy service account tokens. */
  ServiceAccountKeyFile: string;
  ConcurrentSATokenSyncs: number;
  /** PEM CA bundle put into token Secrets and the root CA ConfigMaps. */
  RootCAFile: string;
}
export interface TTLAfterFinishedControllerConfiguration {
  ConcurrentTTLSyncs: number;
}
export interface ValidatingAdmissionPolicyStatusControllerConfiguration {
  ConcurrentPolicySyncs: number;
}
export interface DeviceTaintEvictionControllerConfiguration {
  ConcurrentSyncs: number;
}

/** The controller manager's whole configuration (upstream KubeControllerManagerConfiguration). */
export interface PlatControllerManagerConfiguration {
  Generic: GenericControllerManagerConfiguration;
  [CM_FIELD.cloudShared]: PlatCloudSharedConfiguration;
  AttachDetachController: AttachDetachControllerConfiguration;
  CSRSigningController: CSRSigningControllerConfiguration;
  DaemonSetController: DaemonSetControllerConfiguration;
  DeploymentController: DeploymentControllerConfiguration;
  StatefulSetController: StatefulSetControllerConfiguration;
  DeprecatedController: DeprecatedControllerConfiguration;
  EndpointController: EndpointControllerConfiguration;
  EndpointSliceController: EndpointSliceControllerConfiguration;
  EndpointSliceMirroringController: EndpointSliceMirroringControllerConfiguration;
  EphemeralVolumeController: EphemeralVolumeControllerConfiguration;
  GarbageCollectorController: GarbageCollectorControllerConfiguration;
  HPAController: HPAControllerConfiguration;
  JobController: JobControllerConfiguration;
  CronJobController: CronJobControllerConfiguration;
  LegacySATokenCleaner: LegacySATokenCleanerConfiguration;
  NamespaceController: NamespaceControllerConfiguration;
  NodeIPAMController: NodeIPAMControllerConfiguration;
  NodeLifecycleController: NodeLifecycleControllerConfiguration;
  PersistentVolumeBinderController: PersistentVolumeBinderControllerConfiguration;
  PodGCController: PodGCControllerConfiguration;
  ReplicaSetController: ReplicaSetControllerConfiguration;
  ReplicationController: ReplicationControllerConfiguration;
  ResourceQuotaController: ResourceQuotaControllerConfiguration;
  SAController: SAControllerConfiguration;
  ServiceController: ServiceControllerConfiguration;
  TTLAfterFinishedController: TTLAfterFinishedControllerConfiguration;
  ValidatingAdmissionPolicyStatusController: ValidatingAdmissionPolicyStatusControllerConfiguration;
  DeviceTaintEvictionController: DeviceTaintEvictionControllerConfiguration;
}
