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
    description:
      'ObjectReference contains enough information to let you inspect or modify the referred object.',
    structType: 'atomic',
    properties: {
      kind: str('Kind of the referent.', { proto: 1 }),
      namespace: str('Namespace of the referent.', { proto: 2 }),
      name: str('Name of the referent.', { proto: 3 }),
      uid: str('UID of the referent.', { proto: 4 }),
      apiVersion: str('API version of the referent.', { proto: 5 }),
      resourceVersion: str('Specific resourceVersion to which this reference is made, if any.', { proto: 6 }),
      fieldPath: str(
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
        { proto: 7 },
      ),
    },
  },
  EventSource: {
    type: 'object',
    description: 'EventSource contains information for an event.',
    properties: {
      component: str('Component from which the event is generated.', { proto: 1 }),
      host: str('Node name on which the event is generated.', { proto: 2 }),
    },
  },
};

/** An EventSeries; core's fields are optional, the events group's required. */
export function eventSeriesDefinition(requiredFields: boolean): SchemaNode {
  return {
    type: 'object',
    description:
      'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.',
    ...(requiredFields ? { required: ['count', 'lastObservedTime'] } : {}),
    properties: {
      count: {
        type: 'integer',
        format: 'int32',
        description: 'Number of occurrences in this series up to the last heartbeat time',
        proto: 1,
        ...(requiredFields ? { protoKeepZero: true } : {}),
      },
      lastObservedTime: { ref: 'MicroTime', description: 'Time of the last occurrence observed', proto: 2 },
    },
  };
}

export const coreEventSchema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Event',
  description:
    'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  required: ['metadata', 'involvedObject'],
  properties: {
    involvedObject: { ref: 'ObjectReference', description: 'The object that this event is about.', proto: 2 },
    reason: str(
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      { proto: 3 },
    ),
    message: str('A human-readable description of the status of this operation.', { proto: 4 }),
    source: {
      ref: 'EventSource',
      description: 'The component reporting this event. Should be a short machine understandable string.',
      proto: 5,
    },
    firstTimestamp: {
      ref: 'Time',
      description: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
      proto: 6,
    },
    lastTimestamp: {
      ref: 'Time',
      description: 'The time at which the most recent occurrence of this event was recorded.',
      proto: 7,
    },
    count: {
      type: 'integer',
      format: 'int32',
      description: 'The number of times this event has occurred.',
      proto: 8,
    },
    type: str('Type of this event (Normal, Warning), new types could be added in the future', { proto: 9 }),
    eventTime: { ref: 'MicroTime', description: 'Time when this Event was first observed.', proto: 10 },
    series: {
      ref: 'EventSeries',
      description: "Data about the Event series this event represents or nil if it's a singleton Event.",
      proto: 11,
      protoPointer: true,
    },
    action: str('What action was taken/failed regarding to the Regarding object.', { proto: 12 }),
    related: {
      ref: 'ObjectReference',
      description: 'Optional secondary object for more complex actions.',
      proto: 13,
      protoPointer: true,
    },
    reportingComponent: {
      type: 'string',
      description: 'Name of the controller that emitted this Event, e.g. `<domain>/service-controller`.',
      default: '',
      proto: 14,
      protoKeepZero: true,
    },
    reportingInstance: {
      type: 'string',
      description: 'ID of the controller instance, e.g. `<component>-xyzf`.',
      default: '',
      proto: 15,
      protoKeepZero: true,
    },
  },
  definitions: { ...EVENT_SHARED_DEFINITIONS, EventSeries: eventSeriesDefinition(false) },
});
