// Names that concern node agents and what they may write about themselves: the mirror-Pod
// annotation, the node-lease namespace, the label domain reserved for the cluster's own node
// restrictions, and the label keys and domains a node agent may set on its own Node (upstream's
// well-known node-agent labels, each under the profile's label domain).

import { componentName, labelKey, type NamingProfile } from './profile.ts';

/** The annotation that marks a Pod a node agent mirrors from a static manifest. */
export function mirrorPodAnnotation(profile: NamingProfile): string {
  return labelKey(profile, 'config.mirror');
}

/** The namespace holding each node's heartbeat Lease. */
export function nodeLeaseNamespace(profile: NamingProfile): string {
  return componentName(profile, 'node-lease');
}

/** Labels under this domain (or a subdomain) are for administrators only, never a node agent. */
export function nodeRestrictionLabelDomain(profile: NamingProfile): string {
  return `node-restriction.${profile.labelDomain}`;
}

export interface NodeAgentLabels {
  /** Exact keys a node agent may set on its own Node. */
  keys: ReadonlySet<string>;
  /** Domains (and their subdomains) whose keys a node agent may set. */
  domains: readonly string[];
  /** Domains (and their subdomains) reserved to the platform: other keys under them are refused. */
  reserved: readonly string[];
}

const cache = new Map<NamingProfile, NodeAgentLabels>();

export function nodeAgentLabels(profile: NamingProfile): NodeAgentLabels {
  const hit = cache.get(profile);
  if (hit !== undefined) return hit;
  const d = profile.labelDomain;
  const out: NodeAgentLabels = {
    keys: new Set([
      `${d}/hostname`,
      `topology.${d}/zone`,
      `topology.${d}/region`,
      `failure-domain.beta.${d}/zone`,
      `failure-domain.beta.${d}/region`,
      `beta.${d}/instance-type`,
      `node.${d}/instance-type`,
      `${d}/os`,
      `${d}/arch`,
      `beta.${d}/os`,
      `beta.${d}/arch`,
    ]),
    domains: [`${profile.nodeAgent}.${d}`, `node.${d}`],
    reserved: [d, profile.groupDomain],
  };
  cache.set(profile, out);
  return out;
}
