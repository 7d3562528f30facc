// The core/v1 Event schema and the pieces the events group's Event shares with it (object
// references, the event source, the series), with upstream's protobuf field numbers.

import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';

const str = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'string',
  description,
  ...wire,
});

/** Definitions both Event shapes use: ObjectReference, EventSource. */
export const EVENT_SHARED_DEFINITIONS: Record<string, SchemaNode> = {
  ObjectReference: {
    type: 'object',
    description: 'Points at another object precisely enough to read or change it.',
    structType: 'atomic',
    properties: {
      kind: str('Kind of the object pointed at.', { proto: 1 }),
      namespace: str('Namespace of the object pointed at.', { proto: 2 }),
      name: str('Name of the object pointed at.', { proto: 3 }),
      uid: str('UID of the object pointed at.', { proto: 4 }),
      apiVersion: str('API version of the object pointed at.', { proto: 5 }),
      resourceVersion: str("The object's resourceVersion this reference was made against, if any.", {
        proto: 6,
      }),
      fieldPath: str(
        'When the reference is to part of the object, a JSON/Go field path to that part, for example spec.containers{name} or desiredState.manifest.containers[2].',
        { proto: 7 },
      ),
    },
  },
  EventSource: {
    type: 'object',
    description: 'Who reported an event.',
    properties: {
      component: str('Component that reported the event.', { proto: 1 }),
      host: str('Node on which the event was reported.', { proto: 2 }),
    },
  },
};

/** An EventSeries; core's fields are optional, the events group's required. */
export function eventSeriesDefinition(requiredFields: boolean): SchemaNode {
  return {
    type: 'object',
    description: 'Repeated occurrences of one event, for something that went on (or goes on) for a while.',
    ...(requiredFields ? { required: ['count', 'lastObservedTime'] } : {}),
    properties: {
      count: {
        type: 'integer',
        format: 'int32',
        description: 'How many times the event had happened by the last heartbeat.',
        proto: 1,
        ...(requiredFields ? { protoKeepZero: true } : {}),
      },
      lastObservedTime: { ref: 'MicroTime', description: 'When the latest occurrence was seen.', proto: 2 },
    },
  };
}

export const coreEventSchema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Event',
  description:
    'A note that something happened in the cluster. Events expire after a while, and their triggers, reasons and messages may change between releases, so treat them as best-effort information rather than a contract.',
  required: ['metadata', 'involvedObject'],
  properties: {
    involvedObject: { ref: 'ObjectReference', description: 'Object the event concerns.', proto: 2 },
    reason: str('Short machine-readable word for why the object entered its current state.', { proto: 3 }),
    message: str('Readable account of what happened.', { proto: 4 }),
    source: {
      ref: 'EventSource',
      description: 'Component that reported the event, named by a short machine-readable string.',
      proto: 5,
    },
    firstTimestamp: {
      ref: 'Time',
      description:
        "When the event was first recorded; the server's receipt time is kept separately in the object's metadata.",
      proto: 6,
    },
    lastTimestamp: {
      ref: 'Time',
      description: 'When the latest occurrence was recorded.',
      proto: 7,
    },
    count: {
      type: 'integer',
      format: 'int32',
      description: 'How many times the event has happened.',
      proto: 8,
    },
    type: str('Normal or Warning; more types may be added later.', { proto: 9 }),
    eventTime: { ref: 'MicroTime', description: 'When the event was first observed.', proto: 10 },
    series: {
      ref: 'EventSeries',
      description: 'Repetition details when the event recurs; absent for a one-off event.',
      proto: 11,
      protoPointer: true,
    },
    action: str('Action that was taken, or that failed, on the object concerned.', { proto: 12 }),
    related: {
      ref: 'ObjectReference',
      description: 'A second object involved in the action, if any.',
      proto: 13,
      protoPointer: true,
    },
    reportingComponent: {
      type: 'string',
      description: 'Controller that emitted the event, such as `<domain>/service-controller`.',
      default: '',
      proto: 14,
      protoKeepZero: true,
    },
    reportingInstance: {
      type: 'string',
      description: 'Which instance of that controller emitted it, such as `<component>-xyzf`.',
      default: '',
      proto: 15,
      protoKeepZero: true,
    },
  },
  definitions: { ...EVENT_SHARED_DEFINITIONS, EventSeries: eventSeriesDefinition(false) },
});
