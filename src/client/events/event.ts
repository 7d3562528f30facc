// The core v1 Event an event recorder writes, and how one is built for an object: the reference to
// the involved object, the source (component and host), the reporting controller and instance, and
// the timestamps of the legacy count-based series.

import type { ApiObject } from '../../machinery/object.ts';

export type EventType = 'Normal' | 'Warning';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface CoreEvent extends ApiObject {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string; [field: string]: unknown };
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type: EventType;
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

/** A time as metav1.Time writes it: RFC 3339 to the second. */
export function wireTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The reference to `obj`, or undefined when it lacks the kind or name an Event must name. */
export function referenceTo(obj: ApiObject): ObjectReference | undefined {
  const meta = obj.metadata;
  if (!obj.kind || !obj.apiVersion || !meta?.name) return undefined;
  const ref: ObjectReference = { kind: obj.kind };
  if (meta.namespace) ref.namespace = meta.namespace;
  ref.name = meta.name;
  if (meta.uid) ref.uid = meta.uid;
  ref.apiVersion = obj.apiVersion;
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  return ref;
}

export interface EventSource {
  component: string;
  host?: string;
}

/** A new Event (count 1) about the referenced object, in its namespace or `default`. */
export function makeEvent(
  ref: ObjectReference,
  source: EventSource,
  type: EventType,
  reason: string,
  message: string,
  name: string,
  ms: number,
): CoreEvent {
  const t = wireTime(ms);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ref.namespace || 'default' },
    involvedObject: ref,
    reason,
    message,
    source: source.host
      ? { component: source.component, host: source.host }
      : { component: source.component },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
    type,
    eventTime: null,
    reportingComponent: source.component,
    reportingInstance: source.host ?? '',
  };
}
