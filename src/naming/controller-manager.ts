// The brand words inside the controller manager's configuration files and flags: the groups of
// its configuration kinds, the kind names, the few field names that carry a brand (the cloud-shared
// section, the client configuration path, three CSR signer sections), the flags whose upstream
// names carry one, and the defaults that name a component (lease name, system namespace, cluster
// name, FlexVolume directory). Upstream's words come from the upstream profile, so a file written
// for kube-controller-manager reads under its own group name.

import { type NamingProfile, namingProfile } from './profile.ts';

/** The configuration's field names that carry a brand, under one profile. */
export interface ControllerManagerBrandFields {
  readonly cloudShared: string;
  readonly clientConfig: string;
  readonly nodeAgentServingSigner: string;
  readonly nodeAgentClientSigner: string;
  readonly apiServerClientSigner: string;
}

/**
 * The canonical (spec) spelling of those fields: the keys of the in-memory configuration, whatever
 * profile a file was written in. Literal types, so TypeScript interfaces can use them as keys.
 */
export const CM_FIELD = {
  cloudShared: 'PlatCloudShared',
  clientConfig: 'platconfig',
  nodeAgentServingSigner: 'NodeagentServingSignerConfiguration',
  nodeAgentClientSigner: 'NodeagentClientSignerConfiguration',
  apiServerClientSigner: 'PlatAPIServerClientSignerConfiguration',
} as const satisfies ControllerManagerBrandFields;

const UPSTREAM_CM_FIELD: ControllerManagerBrandFields = {
  cloudShared: 'KubeCloudShared',
  clientConfig: 'kubeconfig',
  nodeAgentServingSigner: 'KubeletServingSignerConfiguration',
  nodeAgentClientSigner: 'KubeletClientSignerConfiguration',
  apiServerClientSigner: 'KubeAPIServerClientSignerConfiguration',
};

export interface ControllerManagerNames {
  /** `platcontrollermanager.config.svc.io` (upstream `kubecontrollermanager.config.k8s.io`). */
  readonly managerGroup: string;
  readonly managerKind: string;
  readonly cloudManagerGroup: string;
  readonly cloudManagerKind: string;
  /** Group of LeaderMigrationConfiguration: `controllermanager.config.<domain>`. */
  readonly leaderMigrationGroup: string;
  readonly fields: ControllerManagerBrandFields;
  /** Name of the manager's lease and of its component: `plat-controller-manager`. */
  readonly managerComponent: string;
  /** The namespace of system objects (the lease lives there): `plat-system`. */
  readonly systemNamespace: string;
  /** Default instance prefix of the cluster (upstream `kubernetes`). */
  readonly defaultClusterName: string;
  /** Default FlexVolume plugin directory on a node. */
  readonly flexVolumePluginDir: string;
  /** Group of events.<domain>/v1 Events, ignored by the garbage collector by default. */
  readonly eventsGroup: string;
  /** The controller publishing the API server's serving CA as a ClusterTrustBundle. */
  readonly servingTrustBundlePublisher: string;
  /** The same controller's upstream name, accepted on --controllers as an alias. */
  readonly upstreamServingTrustBundlePublisher: string;
  /** Flag words with a brand: `plat-api-qps` (upstream `kube-api-qps`), and the signer flags. */
  readonly flags: {
    readonly apiQps: string;
    readonly apiBurst: string;
    readonly apiContentType: string;
    readonly clientConfig: string;
    /** `cluster-signing-<x>-cert-file`: the x of each brand-bearing signer. */
    readonly nodeAgentServingSigner: string;
    readonly nodeAgentClientSigner: string;
    readonly apiServerClientSigner: string;
  };
  /** Signer names as the messages and flag help say them. */
  readonly signers: {
    readonly nodeAgentServing: string;
    readonly nodeAgentClient: string;
    readonly apiServerClient: string;
    readonly legacyUnknown: string;
  };
}

function stem(profile: NamingProfile): string {
  return profile.componentPrefix.replace(/-$/, '');
}

function capital(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
}

export function controllerManagerNames(profile: NamingProfile): ControllerManagerNames {
  const brand = stem(profile);
  const domainStem = profile.labelDomain.replace(/\.[^.]*$/, '');
  const upstream = profile.name === 'upstream';
  const publisher = 'apiserver-serving-clustertrustbundle-publisher-controller';
  return {
    managerGroup: `${brand}controllermanager.config.${profile.groupDomain}`,
    managerKind: `${capital(brand)}ControllerManagerConfiguration`,
    cloudManagerGroup: `cloudcontrollermanager.config.${profile.groupDomain}`,
    cloudManagerKind: 'CloudControllerManagerConfiguration',
    leaderMigrationGroup: `controllermanager.config.${profile.groupDomain}`,
    fields: upstream ? UPSTREAM_CM_FIELD : CM_FIELD,
    managerComponent: `${profile.componentPrefix}controller-manager`,
    systemNamespace: `${profile.componentPrefix}system`,
    defaultClusterName: domainStem,
    flexVolumePluginDir: `/usr/libexec/${domainStem}/${profile.nodeAgent}-plugins/volume/exec/`,
    eventsGroup: `events.${profile.groupDomain}`,
    servingTrustBundlePublisher: `${profile.componentPrefix}${publisher}`,
    upstreamServingTrustBundlePublisher: `${namingProfile('upstream').componentPrefix}${publisher}`,
    flags: {
      apiQps: `${brand}-api-qps`,
      apiBurst: `${brand}-api-burst`,
      apiContentType: `${brand}-api-content-type`,
      clientConfig: profile.clientConfig,
      nodeAgentServingSigner: `${profile.nodeAgent}-serving`,
      nodeAgentClientSigner: `${profile.nodeAgent}-client`,
      apiServerClientSigner: `${profile.componentPrefix}apiserver-client`,
    },
    signers: {
      nodeAgentServing: `${profile.labelDomain}/${profile.nodeAgent}-serving`,
      nodeAgentClient: `${profile.labelDomain}/${profile.componentPrefix}apiserver-client-${profile.nodeAgent}`,
      apiServerClient: `${profile.labelDomain}/${profile.componentPrefix}apiserver-client`,
      legacyUnknown: `${profile.labelDomain}/legacy-unknown`,
    },
  };
}
