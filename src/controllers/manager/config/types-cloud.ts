// The cloud-provider side of the configuration (cloud-provider config/v1alpha1): the section both
// managers share about the cluster and its cloud, the cloud controller manager's own controllers
// and webhooks, and CloudControllerManagerConfiguration itself. Upstream names, untagged Go fields.

import { CM_FIELD } from '../../../naming/index.ts';
import type { Duration } from './go-duration.ts';
import type { GenericControllerManagerConfiguration } from './types-generic.ts';

export interface CloudProviderConfiguration {
  Name: string;
  CloudConfigFile: string;
}

/** Upstream KubeCloudSharedConfiguration. */
export interface PlatCloudSharedConfiguration {
  CloudProvider: CloudProviderConfiguration;
  ExternalCloudVolumePlugin: string;
  UseServiceAccountCredentials: boolean;
  AllowUntaggedCloud: boolean;
  RouteReconciliationPeriod: Duration;
  NodeMonitorPeriod: Duration;
  ClusterName: string;
  ClusterCIDR: string;
  AllocateNodeCIDRs: boolean;
  ConfigureCloudRoutes: boolean;
  CIDRAllocatorType: string;
  NodeSyncPeriod: Duration;
}

export interface NodeControllerConfiguration {
  ConcurrentNodeSyncs: number;
}

export interface ServiceControllerConfiguration {
  ConcurrentServiceSyncs: number;
}

export interface WebhookConfiguration {
  /** `*`, `name`, `-name` as for Controllers. */
  Webhooks: string[];
}

export interface CloudControllerManagerConfiguration {
  Generic: GenericControllerManagerConfiguration;
  [CM_FIELD.cloudShared]: PlatCloudSharedConfiguration;
  NodeController: NodeControllerConfiguration;
  ServiceController: ServiceControllerConfiguration;
  NodeStatusUpdateFrequency: Duration;
  Webhook: WebhookConfiguration;
}
