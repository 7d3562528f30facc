// The words of the default policy that carry a brand, asked of the naming profile once, so the rule
// lists in this folder read like upstream's and say nothing of a domain. Upstream's policy names
// groups `<base>.k8s.io`, components `kube-<name>` (role, user, lease and service account names
// alike), the node agent `kubelet` and signers `kubernetes.io/<name>`; here each becomes the
// profile's `<base>.<group domain>`, `<component prefix><name>`, node agent and label domain. Under
// the upstream profile every name is exactly upstream's. Rules name canonical groups only: the
// upstream-named aliases resolve to these before authorization.

import { componentName, groupName, labelKey, type NamingProfile } from '../../../naming/profile.ts';

/** One rule of a role, as rbac.authorization/v1 PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  apiGroup?: string;
  namespace?: string;
}

export interface PolicyNames {
  readonly profile: NamingProfile;
  /** `<base>.<group domain>` for upstream's `<base>.k8s.io` groups. */
  group(base: string): string;
  /** `<component prefix><name>`: upstream's `kube-<name>`. */
  component(name: string): string;
  /** The node agent's name: upstream's `kubelet`. */
  readonly nodeAgent: string;
  /** `<label domain>/<name>`: upstream's `kubernetes.io/<name>` signers. */
  signer(name: string): string;
  /** The system namespace (upstream `kube-system`) and the public one (`kube-public`). */
  readonly systemNamespace: string;
  readonly publicNamespace: string;
  /** The RBAC API group. */
  readonly rbacGroup: string;
  /** `<label domain>/bootstrapping`, valued `rbac-defaults` on every default object. */
  readonly bootstrappingLabel: string;
  /** `rbac.authorization.<label domain>/autoupdate`: "false" stops the reconciliation. */
  readonly autoupdateAnnotation: string;
  /** `<rbac group>/aggregate-to-<name>`: the labels admin, edit and view aggregate by. */
  aggregateLabel(name: 'admin' | 'edit' | 'view'): string;
}

export const BOOTSTRAPPING_VALUE = 'rbac-defaults';

export function policyNames(profile: NamingProfile): PolicyNames {
  const rbacGroup = groupName(profile, 'rbac.authorization');
  return {
    profile,
    group: (base) => groupName(profile, base),
    component: (name) => componentName(profile, name),
    nodeAgent: profile.nodeAgent,
    signer: (name) => labelKey(profile, name),
    systemNamespace: componentName(profile, 'system'),
    publicNamespace: componentName(profile, 'public'),
    rbacGroup,
    bootstrappingLabel: labelKey(profile, 'bootstrapping'),
    autoupdateAnnotation: `rbac.authorization.${profile.labelDomain}/autoupdate`,
    aggregateLabel: (name) => `${rbacGroup}/aggregate-to-${name}`,
  };
}

/** A rule over resources: `r(verbs, groups, resources)`, optionally restricted to names. */
export function rule(
  verbs: readonly string[],
  apiGroups: readonly string[],
  resources: readonly string[],
  resourceNames?: readonly string[],
): PolicyRule {
  const out: PolicyRule = { verbs: sorted(verbs), apiGroups: [...apiGroups], resources: sorted(resources) };
  if (resourceNames !== undefined) out.resourceNames = sorted(resourceNames);
  return out;
}

/** A rule over non-resource URLs. */
export function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(nonResourceURLs) };
}

/** Upstream's rule builder sorts all but the groups; stored rules compare equal to theirs. */
function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

export const READ = ['get', 'list', 'watch'] as const;
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;

export const user = (name: string, rbacGroup: string): Subject => ({
  kind: 'User',
  apiGroup: rbacGroup,
  name,
});
export const group = (name: string, rbacGroup: string): Subject => ({
  kind: 'Group',
  apiGroup: rbacGroup,
  name,
});
export const serviceAccount = (namespace: string, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

/** Upstream's events rule: the core and the events groups, written by most components. */
export function eventsRule(n: PolicyNames): PolicyRule {
  return rule(['create', 'update', 'patch'], ['', n.group('events')], ['events']);
}
