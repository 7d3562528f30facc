// The --controllers list (Generic.Controllers): which controllers a manager runs. `*` turns on
// every controller that is on by default, `name` turns one on, `-name` turns one off, and the first
// item that names a controller decides for it. Names are kube-controller-manager 1.35's, each with
// the short alias it had before 1.28 (`garbagecollector` for `garbage-collector-controller`); the
// list of known names here is the reference the manager's descriptors are checked against.

import { type FieldError, type FieldPath, goQuote, invalid } from '../../../machinery/field-errors.ts';
import { controllerManagerNames, type NamingProfile, namingProfile } from '../../../naming/index.ts';

export interface KnownController {
  readonly name: string;
  readonly aliases: readonly string[];
  /** Runs only when named (bootstrap-signer, token-cleaner, selinux-warning). */
  readonly disabledByDefault: boolean;
  /** Needs a cloud provider; never started by this manager (upstream: since 1.31, KEP-2395). */
  readonly cloudProvider: boolean;
}

/** [name, aliases, flags]: `d` disabled by default, `c` a cloud-provider controller. */
type Row = readonly [string, readonly string[], ('d' | 'c' | '')?];

const ROWS: readonly Row[] = [
  ['serviceaccount-token-controller', ['serviceaccount-token']],
  ['endpoints-controller', ['endpoint']],
  ['endpointslice-controller', ['endpointslice']],
  ['endpointslice-mirroring-controller', ['endpointslicemirroring']],
  ['replicationcontroller-controller', ['replicationcontroller']],
  ['pod-garbage-collector-controller', ['podgc']],
  ['resourcequota-controller', ['resourcequota']],
  ['namespace-controller', ['namespace']],
  ['serviceaccount-controller', ['serviceaccount']],
  ['garbage-collector-controller', ['garbagecollector']],
  ['daemonset-controller', ['daemonset']],
  ['job-controller', ['job']],
  ['deployment-controller', ['deployment']],
  ['replicaset-controller', ['replicaset']],
  ['horizontal-pod-autoscaler-controller', ['horizontalpodautoscaling']],
  ['disruption-controller', ['disruption']],
  ['statefulset-controller', ['statefulset']],
  ['cronjob-controller', ['cronjob']],
  ['certificatesigningrequest-signing-controller', ['csrsigning']],
  ['certificatesigningrequest-approving-controller', ['csrapproving']],
  ['certificatesigningrequest-cleaner-controller', ['csrcleaner']],
  ['podcertificaterequest-cleaner-controller', []],
  ['ttl-controller', ['ttl']],
  ['bootstrap-signer-controller', ['bootstrapsigner'], 'd'],
  ['token-cleaner-controller', ['tokencleaner'], 'd'],
  ['node-ipam-controller', ['nodeipam']],
  ['node-lifecycle-controller', ['nodelifecycle']],
  ['taint-eviction-controller', []],
  ['service-lb-controller', ['service'], 'c'],
  ['node-route-controller', ['route'], 'c'],
  ['cloud-node-lifecycle-controller', ['cloud-node-lifecycle'], 'c'],
  ['persistentvolume-binder-controller', ['persistentvolume-binder']],
  ['persistentvolume-attach-detach-controller', ['attachdetach']],
  ['persistentvolume-expander-controller', ['persistentvolume-expander']],
  ['clusterrole-aggregation-controller', ['clusterrole-aggregation']],
  ['persistentvolumeclaim-protection-controller', ['pvc-protection']],
  ['persistentvolume-protection-controller', ['pv-protection']],
  ['volumeattributesclass-protection-controller', []],
  ['ttl-after-finished-controller', ['ttl-after-finished']],
  ['root-ca-certificate-publisher-controller', ['root-ca-cert-publisher']],
  ['ephemeral-volume-controller', ['ephemeral-volume']],
  ['storageversion-garbage-collector-controller', ['storage-version-gc']],
  ['resourceclaim-controller', ['resource-claim-controller']],
  ['device-taint-eviction-controller', []],
  ['legacy-serviceaccount-token-cleaner-controller', ['legacy-service-account-token-cleaner']],
  ['validatingadmissionpolicy-status-controller', []],
  ['service-cidr-controller', []],
  ['storage-version-migrator-controller', []],
  ['selinux-warning-controller', [], 'd'],
];

/** Every controller kube-controller-manager 1.35 knows, in its registration order. */
export function knownControllers(profile: NamingProfile = namingProfile('spec')): KnownController[] {
  const out: KnownController[] = ROWS.map(([name, aliases, flags]) => ({
    name,
    aliases,
    disabledByDefault: flags === 'd',
    cloudProvider: flags === 'c',
  }));
  // The one controller whose name carries a brand; its upstream name stays usable as an alias.
  const names = controllerManagerNames(profile);
  const own = names.servingTrustBundlePublisher;
  const upstream = names.upstreamServingTrustBundlePublisher;
  out.splice(out.findIndex((c) => c.name === 'root-ca-certificate-publisher-controller') + 1, 0, {
    name: own,
    aliases: own === upstream ? [] : [upstream],
    disabledByDefault: false,
    cloudProvider: false,
  });
  return out;
}

/** The cloud controller manager's controllers (cloud-provider names), none off by default. */
export function knownCloudControllers(): KnownController[] {
  const rows: Row[] = [
    ['cloud-node-controller', ['cloud-node'], 'c'],
    ['service-lb-controller', ['service'], 'c'],
    ['node-route-controller', ['route'], 'c'],
    ['cloud-node-lifecycle-controller', ['cloud-node-lifecycle'], 'c'],
  ];
  return rows.map(([name, aliases]) => ({ name, aliases, disabledByDefault: false, cloudProvider: true }));
}

/** The canonical names, sorted as upstream's help lists them. */
export function knownControllerNames(profile?: NamingProfile): string[] {
  return knownControllers(profile)
    .map((c) => c.name)
    .sort();
}

/** Controllers that `*` leaves off. */
export function controllersDisabledByDefault(profile?: NamingProfile): string[] {
  return knownControllers(profile)
    .filter((c) => c.disabledByDefault)
    .map((c) => c.name)
    .sort();
}

/** Alias to canonical name. */
export function controllerAliases(profile?: NamingProfile): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of knownControllers(profile)) for (const a of c.aliases) out.set(a, c.name);
  return out;
}

/** The list with every alias replaced by its canonical name, `-` kept (upstream's ApplyTo). */
export function canonicalControllerList(
  list: readonly string[],
  aliases: ReadonlyMap<string, string>,
): string[] {
  return list.map((item) => {
    const off = item.startsWith('-');
    const bare = off ? item.slice(1) : item;
    const name = aliases.get(bare) ?? bare;
    return off ? `-${name}` : name;
  });
}

/** An error per item naming a controller (or webhook) nobody knows, with upstream's message. */
export function validateControllerList(
  list: readonly string[],
  path: FieldPath,
  known: readonly string[],
  aliases: ReadonlyMap<string, string>,
  what: 'controllers' | 'webhooks' = 'controllers',
): FieldError[] {
  const knownSet = new Set(known);
  const errs: FieldError[] = [];
  list.forEach((item, i) => {
    if (item === '*') return;
    const bare = item.startsWith('-') ? item.slice(1) : item;
    if (!knownSet.has(aliases.get(bare) ?? bare)) {
      errs.push(invalid(path.index(i), item, `${goQuote(bare)} is not in the list of known ${what}`));
    }
  });
  return errs;
}

/**
 * Whether `name` runs under `list`: the first item naming it (`name` or `-name`) decides;
 * otherwise it runs when the list has `*` and it is not disabled by default. Aliases in the list
 * and in `name` are resolved first, so `garbagecollector` and `-garbage-collector-controller` name
 * one controller.
 */
export function isControllerEnabled(
  name: string,
  list: readonly string[],
  disabledByDefault: ReadonlySet<string> | readonly string[],
  aliases: ReadonlyMap<string, string> = controllerAliases(),
): boolean {
  const target = aliases.get(name) ?? name;
  let star = false;
  for (const item of canonicalControllerList(list, aliases)) {
    if (item === target) return true;
    if (item === `-${target}`) return false;
    if (item === '*') star = true;
  }
  if (!star) return false;
  const off =
    disabledByDefault instanceof Set ? disabledByDefault : new Set(disabledByDefault as readonly string[]);
  return !off.has(target) && !off.has(name);
}
