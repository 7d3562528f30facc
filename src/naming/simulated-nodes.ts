// Names the simulated node agents and their scheduler speak: the node-lease namespace, the
// well-known node labels, the reasons and messages of the node conditions (upstream's
// `KubeletReady`, `kubelet is posting ready status`), the NodeSystemInfo field that carries the
// agent's version, the annotation a user sets to make a simulated container exit, and the users
// the scheduler and the agents authenticate as.

import { nodeLeaseNamespace } from './node-agents.ts';
import { NODE_AGENT_VERSION_FIELD, NODE_PROXY_VERSION_FIELD } from './node-wire-fields.ts';
import { componentName, labelKey, type NamingProfile } from './profile.ts';

export interface NodeConditionWords {
  readonly reason: string;
  readonly message: string;
}

export interface SimulatedNodeNames {
  /** Namespace of the per-node heartbeat Leases. */
  readonly nodeLeaseNamespace: string;
  readonly hostnameLabel: string;
  readonly osLabel: string;
  readonly archLabel: string;
  /** The beta labels upstream's agent still sets beside the GA ones. */
  readonly betaOsLabel: string;
  readonly betaArchLabel: string;
  /** Condition words of a healthy node. */
  readonly ready: NodeConditionWords;
  readonly memoryPressure: NodeConditionWords;
  readonly diskPressure: NodeConditionWords;
  readonly pidPressure: NodeConditionWords;
  /**
   * NodeSystemInfo's fields holding the agent's and the proxy's versions: wire names, upstream's
   * under every profile, as the Node schema serves them and stock clients read them.
   */
  readonly versionField: string;
  readonly proxyVersionField: string;
  /** Set on a Pod whose restartPolicy lets it complete: its containers exit with that code. */
  readonly simulatedExitCodeAnnotation: string;
  /** The scheduler's user, bound to its ClusterRole by the bootstrap policy. */
  readonly schedulerUser: string;
  /** The taint an unschedulable Node is treated as having: a Pod tolerating it may go there. */
  readonly unschedulableTaint: string;
  /** The name Pods give to be placed by the default scheduler. */
  readonly defaultSchedulerName: string;
  /** A node agent's user is `<nodeUserPrefix><node name>`, in group nodesGroup. */
  readonly nodeUserPrefix: string;
  readonly nodesGroup: string;
}

function capital(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
}

export function simulatedNodeNames(profile: NamingProfile): SimulatedNodeNames {
  const agent = profile.nodeAgent;
  const Agent = capital(agent);
  return {
    nodeLeaseNamespace: nodeLeaseNamespace(profile),
    hostnameLabel: labelKey(profile, 'hostname'),
    osLabel: labelKey(profile, 'os'),
    archLabel: labelKey(profile, 'arch'),
    betaOsLabel: `beta.${labelKey(profile, 'os')}`,
    betaArchLabel: `beta.${labelKey(profile, 'arch')}`,
    ready: { reason: `${Agent}Ready`, message: `${agent} is posting ready status` },
    memoryPressure: {
      reason: `${Agent}HasSufficientMemory`,
      message: `${agent} has sufficient memory available`,
    },
    diskPressure: { reason: `${Agent}HasNoDiskPressure`, message: `${agent} has no disk pressure` },
    pidPressure: { reason: `${Agent}HasSufficientPID`, message: `${agent} has sufficient PID available` },
    versionField: NODE_AGENT_VERSION_FIELD,
    proxyVersionField: NODE_PROXY_VERSION_FIELD,
    simulatedExitCodeAnnotation: labelKey(profile, 'simulated-exit-code'),
    schedulerUser: `system:${componentName(profile, 'scheduler')}`,
    unschedulableTaint: `node.${profile.labelDomain}/unschedulable`,
    defaultSchedulerName: 'default-scheduler',
    nodeUserPrefix: 'system:node:',
    nodesGroup: 'system:nodes',
  };
}
