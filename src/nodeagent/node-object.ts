// The Node a simulated agent registers and the status it reports: well-known labels under the
// profile's label domain, capacity and allocatable, a loopback InternalIP and its hostname, the
// agent's NodeSystemInfo, and the four conditions upstream's agent sets (memory, disk and PID
// pressure False, Ready True). Conditions keep their transition time while their status holds;
// heartbeat times move with each report.

import { createHash, randomUUID } from 'node:crypto';
import { release } from 'node:os';
import type { NamingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { API_MAJOR, API_MINOR } from '../server/version.ts';
import { type Condition, type Node, rfc3339, type Taint } from './objects.ts';

/** What one simulated node offers; every quantity as the API writes it. */
export interface NodeResources {
  cpu: string;
  memory: string;
  pods: string;
  ephemeralStorage: string;
}

export const DEFAULT_NODE_RESOURCES: NodeResources = {
  cpu: '4',
  memory: '16Gi',
  // Upstream's default --max-pods.
  pods: '110',
  ephemeralStorage: '100Gi',
};

export interface SimulatedNode {
  name: string;
  /** Position among the simulated nodes: decides its address and its Pods' addresses. */
  index: number;
  profile: NamingProfile;
  resources: NodeResources;
  labels: Record<string, string>;
  taints: Taint[];
  /** Stays the same while the agent runs, as a boot does. */
  bootID: string;
}

export function simulatedNode(
  name: string,
  index: number,
  profile: NamingProfile,
  opts: { resources?: Partial<NodeResources>; labels?: Record<string, string>; taints?: Taint[] } = {},
): SimulatedNode {
  return {
    name,
    index,
    profile,
    resources: { ...DEFAULT_NODE_RESOURCES, ...opts.resources },
    labels: opts.labels ?? {},
    taints: opts.taints ?? [],
    bootID: randomUUID(),
  };
}

/** The version the agent reports, the API level the server serves. */
export function agentVersion(): string {
  return `v${API_MAJOR}.${API_MINOR}.0`;
}

function arch(): string {
  return process.arch === 'x64' ? 'amd64' : process.arch;
}

/** A dotted IPv4 address from a 32-bit number. */
export function ipv4(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

/** Node i is 127.0.0.(i+2) (and on into 127.0.1.x past 253 nodes): loopback, never routed. */
export function nodeAddress(index: number): string {
  return ipv4(((127 << 24) >>> 0) + index + 2);
}

/** The /24 node i's Pods take their addresses from: 10.244.i.0/24 (then 10.245.x past 255 nodes). */
export function podSubnet(index: number): { base: number; cidr: string } {
  const base = ((10 << 24) >>> 0) + ((244 + (index >>> 8)) << 16) + ((index & 255) << 8);
  return { base, cidr: `${ipv4(base)}/24` };
}

function hex(input: string, chars: number): string {
  return createHash('sha256').update(input).digest('hex').slice(0, chars);
}

function uuidFrom(input: string): string {
  const h = hex(input, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The labels upstream's agent puts on its Node, then the caller's. */
export function nodeLabels(node: SimulatedNode): Record<string, string> {
  const n = simulatedNodeNames(node.profile);
  return {
    [n.betaArchLabel]: arch(),
    [n.betaOsLabel]: 'linux',
    [n.archLabel]: arch(),
    [n.hostnameLabel]: node.name,
    [n.osLabel]: 'linux',
    ...node.labels,
  };
}

function resourceList(r: NodeResources): Record<string, string> {
  return {
    cpu: r.cpu,
    'ephemeral-storage': r.ephemeralStorage,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: r.memory,
    pods: r.pods,
  };
}

function desiredConditions(node: SimulatedNode): Condition[] {
  const n = simulatedNodeNames(node.profile);
  return [
    { type: 'MemoryPressure', status: 'False', ...n.memoryPressure },
    { type: 'DiskPressure', status: 'False', ...n.diskPressure },
    { type: 'PIDPressure', status: 'False', ...n.pidPressure },
    { type: 'Ready', status: 'True', ...n.ready },
  ];
}

/**
 * The status to report at `now`: each condition keeps the transition time it had in `previous`
 * while its status is unchanged.
 */
export function nodeStatus(
  node: SimulatedNode,
  now: number,
  previous?: Node['status'],
): NonNullable<Node['status']> {
  const n = simulatedNodeNames(node.profile);
  const at = rfc3339(now);
  const before = new Map((previous?.conditions ?? []).map((c) => [c.type, c]));
  const conditions = desiredConditions(node).map((c) => {
    const old = before.get(c.type);
    const transition =
      old !== undefined && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : at;
    return { ...c, lastHeartbeatTime: at, lastTransitionTime: transition };
  });
  const resources = resourceList(node.resources);
  return {
    capacity: resources,
    allocatable: { ...resources },
    conditions,
    addresses: [
      { type: 'InternalIP', address: nodeAddress(node.index) },
      { type: 'Hostname', address: node.name },
    ],
    nodeInfo: {
      machineID: hex(`machine/${node.name}`, 32),
      systemUUID: uuidFrom(`system/${node.name}`),
      bootID: node.bootID,
      kernelVersion: release(),
      osImage: 'Simulated node',
      containerRuntimeVersion: `simulated://${agentVersion().slice(1)}`,
      [n.versionField]: agentVersion(),
      // Deprecated upstream and left empty by its agent.
      [n.proxyVersionField]: '',
      operatingSystem: 'linux',
      architecture: arch(),
    },
  };
}

/** The Node to register. */
export function nodeObject(node: SimulatedNode, now: number): Node {
  const { cidr } = podSubnet(node.index);
  const spec: NonNullable<Node['spec']> = { podCIDR: cidr, podCIDRs: [cidr] };
  if (node.taints.length > 0) spec.taints = node.taints;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: node.name, labels: nodeLabels(node) },
    spec,
    status: nodeStatus(node, now),
  };
}

/** JSON with object keys sorted, so two equal values compare equal whatever their key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/**
 * Whether a report would change more than the heartbeat times (upstream's nodeStatusHasChanged),
 * looking only at the fields the agent reports: the server may add others.
 */
export function nodeStatusChanged(current: Node['status'], desired: NonNullable<Node['status']>): boolean {
  const beats = (cs: unknown) =>
    Array.isArray(cs) ? cs.map(({ lastHeartbeatTime: _h, ...c }: Condition) => c) : cs;
  for (const [key, want] of Object.entries(desired)) {
    const have = current?.[key];
    if (key === 'conditions') {
      if (canonical(beats(have)) !== canonical(beats(want))) return true;
    } else if (canonical(have) !== canonical(want)) return true;
  }
  return false;
}
