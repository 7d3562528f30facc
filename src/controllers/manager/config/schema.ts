// The shape of each configuration kind as its files spell it, for the strict decoder: every field's
// name in the file, the key it takes in memory and its type. Built per profile because five field
// names carry a brand: a file in the upstream group spells them as kube-controller-manager does
// (`KubeCloudShared`, `kubeconfig`), and decodes into the same canonical keys.

import type { ControllerManagerBrandFields } from '../../../naming/index.ts';
import { CM_FIELD } from '../../../naming/index.ts';

export type Scalar = 'string' | 'bool' | 'int32' | 'float32' | 'float64' | 'duration';

export interface ObjectShape {
  /** By the name in the file: the in-memory key and the field's shape. */
  readonly fields: ReadonlyMap<string, { readonly key: string; readonly shape: Shape }>;
}

export type Shape = Scalar | { readonly list: Shape } | ObjectShape;

type Entries = Record<string, Shape | readonly [key: string, shape: Shape]>;

/** An object shape; an entry given as [key, shape] is read from its name in the file into `key`. */
function obj(entries: Entries): ObjectShape {
  const fields = new Map<string, { key: string; shape: Shape }>();
  for (const [name, e] of Object.entries(entries)) {
    fields.set(name, Array.isArray(e) ? { key: e[0], shape: e[1] } : { key: name, shape: e as Shape });
  }
  return { fields };
}

const list = (shape: Shape): Shape => ({ list: shape });

function clientConnection(f: ControllerManagerBrandFields): ObjectShape {
  return obj({
    [f.clientConfig]: [CM_FIELD.clientConfig, 'string'],
    acceptContentTypes: 'string',
    contentType: 'string',
    qps: 'float32',
    burst: 'int32',
  });
}

const leaderElection = obj({
  leaderElect: 'bool',
  leaseDuration: 'duration',
  renewDeadline: 'duration',
  retryPeriod: 'duration',
  resourceLock: 'string',
  resourceName: 'string',
  resourceNamespace: 'string',
});

/** LeaderMigrationConfiguration's fields (its file adds apiVersion and kind). */
export const leaderMigrationFields: Entries = {
  leaderName: 'string',
  resourceLock: 'string',
  controllerLeaders: list(obj({ name: 'string', component: 'string' })),
};

function generic(f: ControllerManagerBrandFields): ObjectShape {
  return obj({
    Port: 'int32',
    Address: 'string',
    MinResyncPeriod: 'duration',
    ClientConnection: clientConnection(f),
    ControllerStartInterval: 'duration',
    LeaderElection: leaderElection,
    Controllers: list('string'),
    Debugging: obj({ enableProfiling: 'bool', enableContentionProfiling: 'bool' }),
    LeaderMigrationEnabled: 'bool',
    LeaderMigration: obj(leaderMigrationFields),
  });
}

const cloudShared = obj({
  CloudProvider: obj({ Name: 'string', CloudConfigFile: 'string' }),
  ExternalCloudVolumePlugin: 'string',
  UseServiceAccountCredentials: 'bool',
  AllowUntaggedCloud: 'bool',
  RouteReconciliationPeriod: 'duration',
  NodeMonitorPeriod: 'duration',
  ClusterName: 'string',
  ClusterCIDR: 'string',
  AllocateNodeCIDRs: 'bool',
  CIDRAllocatorType: 'string',
  ConfigureCloudRoutes: 'bool',
  NodeSyncPeriod: 'duration',
});

const one = (field: string, shape: Scalar = 'int32') => obj({ [field]: shape });
const signer = obj({ CertFile: 'string', KeyFile: 'string' });
const typeMeta: Entries = { apiVersion: 'string', kind: 'string' };

/** PlatControllerManagerConfiguration (upstream KubeControllerManagerConfiguration). */
export function managerShape(f: ControllerManagerBrandFields): ObjectShape {
  return obj({
    ...typeMeta,
    Generic: generic(f),
    [f.cloudShared]: [CM_FIELD.cloudShared, cloudShared],
    AttachDetachController: obj({
      DisableAttachDetachReconcilerSync: 'bool',
      ReconcilerSyncLoopPeriod: 'duration',
      disableForceDetachOnTimeout: 'bool',
    }),
    CSRSigningController: obj({
      ClusterSigningCertFile: 'string',
      ClusterSigningKeyFile: 'string',
      [f.nodeAgentServingSigner]: [CM_FIELD.nodeAgentServingSigner, signer],
      [f.nodeAgentClientSigner]: [CM_FIELD.nodeAgentClientSigner, signer],
      [f.apiServerClientSigner]: [CM_FIELD.apiServerClientSigner, signer],
      LegacyUnknownSignerConfiguration: signer,
      ClusterSigningDuration: 'duration',
    }),
    DaemonSetController: one('ConcurrentDaemonSetSyncs'),
    DeploymentController: one('ConcurrentDeploymentSyncs'),
    StatefulSetController: one('ConcurrentStatefulSetSyncs'),
    DeprecatedController: obj({}),
    EndpointController: obj({ ConcurrentEndpointSyncs: 'int32', EndpointUpdatesBatchPeriod: 'duration' }),
    EndpointSliceController: obj({
      ConcurrentServiceEndpointSyncs: 'int32',
      MaxEndpointsPerSlice: 'int32',
      EndpointUpdatesBatchPeriod: 'duration',
    }),
    EndpointSliceMirroringController: obj({
      MirroringConcurrentServiceEndpointSyncs: 'int32',
      MirroringMaxEndpointsPerSubset: 'int32',
      MirroringEndpointUpdatesBatchPeriod: 'duration',
    }),
    EphemeralVolumeController: one('ConcurrentEphemeralVolumeSyncs'),
    GarbageCollectorController: obj({
      EnableGarbageCollector: 'bool',
      ConcurrentGCSyncs: 'int32',
      GCIgnoredResources: list(obj({ Group: 'string', Resource: 'string' })),
    }),
    HPAController: obj({
      ConcurrentHorizontalPodAutoscalerSyncs: 'int32',
      HorizontalPodAutoscalerSyncPeriod: 'duration',
      HorizontalPodAutoscalerDownscaleStabilizationWindow: 'duration',
      HorizontalPodAutoscalerTolerance: 'float64',
      HorizontalPodAutoscalerCPUInitializationPeriod: 'duration',
      HorizontalPodAutoscalerInitialReadinessDelay: 'duration',
    }),
    JobController: one('ConcurrentJobSyncs'),
    CronJobController: one('ConcurrentCronJobSyncs'),
    LegacySATokenCleaner: one('CleanUpPeriod', 'duration'),
    NamespaceController: obj({ NamespaceSyncPeriod: 'duration', ConcurrentNamespaceSyncs: 'int32' }),
    NodeIPAMController: obj({
      ServiceCIDR: 'string',
      SecondaryServiceCIDR: 'string',
      NodeCIDRMaskSize: 'int32',
      NodeCIDRMaskSizeIPv4: 'int32',
      NodeCIDRMaskSizeIPv6: 'int32',
    }),
    NodeLifecycleController: obj({
      NodeEvictionRate: 'float32',
      SecondaryNodeEvictionRate: 'float32',
      NodeStartupGracePeriod: 'duration',
      NodeMonitorGracePeriod: 'duration',
      PodEvictionTimeout: 'duration',
      LargeClusterSizeThreshold: 'int32',
      UnhealthyZoneThreshold: 'float32',
    }),
    PersistentVolumeBinderController: obj({
      PVClaimBinderSyncPeriod: 'duration',
      VolumeConfiguration: obj({
        EnableHostPathProvisioning: 'bool',
        EnableDynamicProvisioning: 'bool',
        PersistentVolumeRecyclerConfiguration: obj({
          MaximumRetry: 'int32',
          MinimumTimeoutNFS: 'int32',
          PodTemplateFilePathNFS: 'string',
          IncrementTimeoutNFS: 'int32',
          PodTemplateFilePathHostPath: 'string',
          MinimumTimeoutHostPath: 'int32',
          IncrementTimeoutHostPath: 'int32',
        }),
        FlexVolumePluginDir: 'string',
      }),
    }),
    PodGCController: one('TerminatedPodGCThreshold'),
    ReplicaSetController: one('ConcurrentRSSyncs'),
    ReplicationController: one('ConcurrentRCSyncs'),
    ResourceQuotaController: obj({
      ResourceQuotaSyncPeriod: 'duration',
      ConcurrentResourceQuotaSyncs: 'int32',
    }),
    SAController: obj({
      ServiceAccountKeyFile: 'string',
      ConcurrentSATokenSyncs: 'int32',
      RootCAFile: 'string',
    }),
    ServiceController: one('ConcurrentServiceSyncs'),
    TTLAfterFinishedController: one('ConcurrentTTLSyncs'),
    ValidatingAdmissionPolicyStatusController: one('ConcurrentPolicySyncs'),
    DeviceTaintEvictionController: one('ConcurrentSyncs'),
  });
}

/** CloudControllerManagerConfiguration. */
export function cloudManagerShape(f: ControllerManagerBrandFields): ObjectShape {
  return obj({
    ...typeMeta,
    Generic: generic(f),
    [f.cloudShared]: [CM_FIELD.cloudShared, cloudShared],
    NodeController: one('ConcurrentNodeSyncs'),
    ServiceController: one('ConcurrentServiceSyncs'),
    NodeStatusUpdateFrequency: 'duration',
    Webhook: obj({ Webhooks: list('string') }),
  });
}

/** LeaderMigrationConfiguration as a file of its own. */
export const leaderMigrationShape: ObjectShape = obj({ ...typeMeta, ...leaderMigrationFields });
