// What each part of a Deployment's sync is given: the client it writes with, the event recorder,
// the annotation names of the naming profile, time, the feature gate it honours, the ReplicaSet
// cache (for a name a create found taken), and a way to look at the Deployment again later.

import type { ApiClient, Clock, Lister } from '../../client/api.ts';
import type { EventRecorder } from '../../client/events/index.ts';
import type { DeploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import type { ControllerLogger } from '../controller.ts';
import { apiTime, type Deployment, type ReplicaSet } from './types.ts';

export interface SyncContext {
  client: ApiClient;
  recorder: EventRecorder;
  names: DeploymentAnnotationNames;
  clock: Clock;
  /** Feature gate DeploymentReplicaSetTerminatingReplicas: report status.terminatingReplicas. */
  terminatingReplicas: boolean;
  replicaSets: Lister<ReplicaSet>;
  log: ControllerLogger;
  /** Syncs the Deployment again after `ms` (the progress deadline's check). */
  enqueueAfter(d: Deployment, ms: number): void;
  /** Syncs the Deployment again after the queue's backoff. */
  enqueueRateLimited(d: Deployment): void;
}

/** The sync's "now" as the API writes times. */
export function nowOf(ctx: Pick<SyncContext, 'clock'>): string {
  return apiTime(ctx.clock.now());
}
