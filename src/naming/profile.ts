// The naming profile. Every brand-bearing word the server speaks (API group domains, label and
// annotation prefixes, component names, file names, media types) comes from here, so the spec's
// names and upstream's names are one switch apart.

export type ProfileName = 'spec' | 'upstream';

export interface NamingProfile {
  readonly name: ProfileName;
  /** Domain of API groups: `certificates.<groupDomain>`. */
  readonly groupDomain: string;
  /** Domain of labels, annotations and signer names: `<labelDomain>/deprecated`. */
  readonly labelDomain: string;
  /** Prefix of component and system object names: `<componentPrefix>system`. */
  readonly componentPrefix: string;
  /** The per-node agent's name. */
  readonly nodeAgent: string;
  /** Prefix of environment variables. */
  readonly envPrefix: string;
  /** File name stem of the client configuration file. */
  readonly clientConfig: string;
  readonly protobufMediaType: string;
}

const SPEC: NamingProfile = {
  name: 'spec',
  groupDomain: 'svc.io',
  labelDomain: 'platform.io',
  componentPrefix: 'plat-',
  nodeAgent: 'nodeagent',
  envPrefix: 'PLATFORM_',
  clientConfig: 'platconfig',
  protobufMediaType: 'application/vnd.platform.protobuf',
};

const UPSTREAM: NamingProfile = {
  name: 'upstream',
  groupDomain: 'k8s.io',
  labelDomain: 'kubernetes.io',
  componentPrefix: 'kube-',
  nodeAgent: 'kubelet',
  envPrefix: 'KUBERNETES_',
  clientConfig: 'kubeconfig',
  protobufMediaType: 'application/vnd.kubernetes.protobuf',
};

/**
 * Upstream names that stock clients hard-code. The server accepts these whatever the profile
 * (DESIGN.md, Naming): they are matched, never chosen.
 */
export const UPSTREAM_ALIASES = {
  /** Group of Table and PartialObjectMetadata in Accept headers (kubectl asks for this). */
  metaGroup: 'meta.k8s.io',
  /** Group of aggregated discovery documents in Accept headers. */
  discoveryGroup: 'apidiscovery.k8s.io',
  protobufMediaType: UPSTREAM.protobufMediaType,
  /** Annotation marking the end of initial events on a streaming-list bookmark. */
  initialEventsEndAnnotation: 'k8s.io/initial-events-end',
  /** Where kubectl keeps its last client-side applied configuration. */
  lastAppliedAnnotation: 'kubectl.kubernetes.io/last-applied-configuration',
  /** The revision of a Deployment's ReplicaSet, as kubectl's rollout commands read it. */
  deploymentRevisionAnnotation: 'deployment.kubernetes.io/revision',
} as const;

export function namingProfile(name: ProfileName): NamingProfile {
  return name === 'upstream' ? UPSTREAM : SPEC;
}

/** `certificates` -> `certificates.svc.io` under the spec profile. */
export function groupName(profile: NamingProfile, base: string): string {
  return `${base}.${profile.groupDomain}`;
}

/** `deprecated` -> `platform.io/deprecated` under the spec profile. */
export function labelKey(profile: NamingProfile, name: string): string {
  return `${profile.labelDomain}/${name}`;
}

/** `system` -> `plat-system` under the spec profile. */
export function componentName(profile: NamingProfile, name: string): string {
  return `${profile.componentPrefix}${name}`;
}

/**
 * The annotations that mark the bookmark ending a streaming list's initial events: the profile's
 * own and upstream's, which client-go looks for (once when they coincide).
 */
export function initialEventsEndAnnotations(profile: NamingProfile): string[] {
  const own = `${profile.groupDomain}/initial-events-end`;
  return own === UPSTREAM_ALIASES.initialEventsEndAnnotation
    ? [own]
    : [own, UPSTREAM_ALIASES.initialEventsEndAnnotation];
}
