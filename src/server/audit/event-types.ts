// The audit Event as upstream's audit group (v1) defines it: what the pipeline builds per stage
// and what every backend writes (one JSON object per line in the log, an EventList per webhook
// batch). Field names are upstream's; apiVersion follows the naming profile.

import type { AuditLevel, AuditStage } from './policy-types.ts';

export interface AuditUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  /** '' (omitted) for the core group. */
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The response's Status as upstream records it: the code always, the rest for failures. */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: AuditLevel;
  /** A UUID, also sent to the client as the `Audit-ID` response header. */
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  /** The request's verb as authorization sees it (get, list, watch, create, ...). */
  verb: string;
  user: AuditUserInfo;
  impersonatedUser?: AuditUserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  /** At Request level and above, for writes: the object as sent. */
  requestObject?: unknown;
  /** At RequestResponse level: the object as answered. */
  responseObject?: unknown;
  /** RFC 3339 with microseconds. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * Where events go. A batch backend only queues (one that cannot keep up drops events and counts
 * them, as upstream's does); a blocking one writes before answering: a file at once, a webhook
 * with a promise that settles once the receiver has answered (the request waits for it, as
 * upstream's blocking modes make it wait). The answer is false when an event was not accepted.
 */
export type Accepted = boolean | Promise<boolean>;

/** Whether every answer accepted: synchronous when every answer is. */
export function allAccepted(answers: readonly Accepted[]): Accepted {
  let sync = true;
  for (const a of answers) {
    if (a instanceof Promise) return Promise.all(answers).then((all) => all.every(Boolean));
    sync = a && sync;
  }
  return sync;
}

export interface AuditBackend {
  processEvents(...events: AuditEvent[]): Accepted;
  /** Flushes what is buffered (within the backend's own bounds) and releases files and sockets. */
  shutdown(): Promise<void>;
  /** For messages and metric labels: `log`, `webhook`, or a union's names. */
  readonly name: string;
}
