// startSimulatedNodes: N simulated nodes (`<prefix>-0` .. `<prefix>-N-1`), each with its heartbeat
// (Node registration, Lease renewal, status reports) and its agent (the Pods bound to it), plus the
// minimal scheduler that binds pending Pods to them. Each agent and the scheduler reach the API
// with a client of their own: given by the caller, or made here from an address and the server's
// client CA, each with its own certificate (`system:node:<name>` in `system:nodes`; the scheduler's
// user), so the server authenticates and authorizes them as it would real ones. Each agent and the
// scheduler record their Events (events.ts) through a recorder of their own on that client.

import type { ApiClient, Clock } from '../client/api.ts';
import { StaticCredentialSource } from '../client/credentials.ts';
import type { EventBroadcaster } from '../client/events/recorder.ts';
import { RestClient, type RestClientOptions } from '../client/rest-client.ts';
import { type NamingProfile, namingProfile } from '../naming/profile.ts';
import { NodeAgent } from './agent.ts';
import { nodeAgentRecorder, PodEvents, schedulerRecorder } from './events.ts';
import { type HeartbeatTiming, NodeHeartbeat } from './heartbeat.ts';
import {
  type CertificateAuthority,
  type ClientCertificate,
  nodeClientCertificate,
  schedulerClientCertificate,
} from './node-certificate.ts';
import { type NodeResources, simulatedNode } from './node-object.ts';
import type { Taint } from './objects.ts';
import { Scheduler } from './scheduler.ts';

export interface SimulatedNodesOptions {
  count: number;
  /** Nodes are `<namePrefix>-<i>` (default `node`). */
  namePrefix?: string;
  profile?: NamingProfile;
  /** Each node agent's client. Without it, `connection` and `clientCA` make one per node. */
  clientFor?: (nodeName: string) => ApiClient;
  /** The server's address and trust; credentials are replaced by each agent's own certificate. */
  connection?: Omit<RestClientOptions, 'credentials'>;
  /** Signs each agent's (and the scheduler's) client certificate. */
  clientCA?: CertificateAuthority;
  /**
   * The scheduler: false for none; its client, or (the default) one made from connection and
   * clientCA when they are given.
   */
  scheduler?: false | { client?: ApiClient };
  resources?: Partial<NodeResources>;
  labels?: Record<string, string>;
  taints?: Taint[];
  clock?: Clock;
  timing?: Partial<HeartbeatTiming>;
  stopDelayMs?: number;
  /**
   * Whether the call waits until every Node is registered (default true). Registration is retried
   * until it succeeds either way; failures go to onError.
   */
  waitForRegistration?: boolean;
  onError?(err: unknown, who: string): void;
}

export interface SimulatedNodesHandle {
  readonly nodeNames: readonly string[];
  readonly agents: readonly NodeAgent[];
  readonly heartbeats: readonly NodeHeartbeat[];
  readonly scheduler: Scheduler | undefined;
  /** Stops the scheduler, then every agent and heartbeat, and closes the clients made here. */
  stop(): Promise<void>;
}

function clientWith(connection: Omit<RestClientOptions, 'credentials'>, cert: ClientCertificate): RestClient {
  return new RestClient({
    ...connection,
    credentials: new StaticCredentialSource({
      clientCertificatePem: cert.certPem,
      clientKeyPem: cert.keyPem,
    }),
  });
}

export async function startSimulatedNodes(options: SimulatedNodesOptions): Promise<SimulatedNodesHandle> {
  const profile = options.profile ?? namingProfile('spec');
  const prefix = options.namePrefix ?? 'node';
  const count = Math.max(0, Math.trunc(options.count));
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const made: RestClient[] = [];
  const { connection, clientCA } = options;
  const canIssue = connection !== undefined && clientCA !== undefined;
  if (options.clientFor === undefined && count > 0 && !canIssue)
    throw new Error('simulated nodes need clientFor, or connection and clientCA to issue their certificates');

  const clientFor = async (name: string): Promise<ApiClient> => {
    if (options.clientFor !== undefined) return options.clientFor(name);
    const c = clientWith(
      connection as RestClientOptions,
      await nodeClientCertificate(clientCA as CertificateAuthority, name, profile),
    );
    made.push(c);
    return c;
  };
  let schedulerClient: ApiClient | undefined;
  if (options.scheduler !== false) {
    schedulerClient = options.scheduler?.client;
    if (schedulerClient === undefined && canIssue) {
      const c = clientWith(connection, await schedulerClientCertificate(clientCA, profile));
      made.push(c);
      schedulerClient = c;
    }
  }

  const heartbeats: NodeHeartbeat[] = [];
  const agents: NodeAgent[] = [];
  const recorders: EventBroadcaster[] = [];
  let scheduler: Scheduler | undefined;
  const stop = async () => {
    await scheduler?.stop();
    for (const h of heartbeats) h.stop();
    await Promise.all(agents.map((a) => a.stop()));
    // What is queued is sent before the clients close.
    await Promise.all(recorders.map((r) => r.stop()));
    for (const c of made) c.close();
  };
  try {
    await Promise.all(
      names.map(async (name, index) => {
        const client = await clientFor(name);
        const node = simulatedNode(name, index, profile, {
          resources: options.resources,
          labels: options.labels,
          taints: options.taints,
        });
        const onError = (err: unknown) => options.onError?.(err, name);
        const heartbeat = new NodeHeartbeat({
          client,
          node,
          clock: options.clock,
          timing: options.timing,
          onError,
        });
        heartbeats.push(heartbeat);
        const registered = heartbeat.start();
        if (options.waitForRegistration ?? true) await registered;
        const recorder = nodeAgentRecorder(client, profile, name, (m) => onError(new Error(m)));
        recorders.push(recorder);
        const agent = new NodeAgent({
          client,
          node,
          events: new PodEvents(recorder),
          clock: options.clock,
          stopDelayMs: options.stopDelayMs,
          onError,
        });
        agents.push(agent);
        agent.start();
      }),
    );
    if (schedulerClient !== undefined) {
      const recorder = schedulerRecorder(schedulerClient, profile, (m) =>
        options.onError?.(new Error(m), 'scheduler'),
      );
      recorders.push(recorder);
      scheduler = new Scheduler({
        client: schedulerClient,
        profile,
        recorder,
        clock: options.clock,
        onError: (err) => options.onError?.(err, 'scheduler'),
      });
      scheduler.start();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    nodeNames: names,
    agents,
    heartbeats,
    get scheduler() {
      return scheduler;
    },
    stop() {
      stopping ??= stop();
      return stopping;
    },
  };
}
