// Simulated nodes, for users who test controllers without a cluster: node agents that register
// Nodes, heartbeat through Leases and run the Pods bound to them (status through the `status`
// subresource, readiness, graceful deletion, completion on request), and the minimal scheduler that
// binds pending Pods to them. They reach the API only through client/; names come from naming/,
// shapes and helpers from machinery/, the reported version from server/version.ts (as client/
// does), and the certificates they authenticate with from server/pki/generate.ts.

export { NodeAgent, type NodeAgentOptions } from './agent.ts';
export { DEFAULT_HEARTBEAT_TIMING, type HeartbeatTiming, NodeHeartbeat } from './heartbeat.ts';
export {
  type CertificateAuthority,
  type ClientCertificate,
  nodeClientCertificate,
  schedulerClientCertificate,
} from './node-certificate.ts';
export { DEFAULT_NODE_RESOURCES, type NodeResources } from './node-object.ts';
export { Scheduler, type SchedulerOptions } from './scheduler.ts';
export {
  type SimulatedNodesHandle,
  type SimulatedNodesOptions,
  startSimulatedNodes,
} from './simulated-nodes.ts';
