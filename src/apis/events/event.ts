// Event in the events group (`events.<domain>/v1`): the same objects as core/v1 Events, stored in
// that shape and converted on every read and write (KindDefinition.storedAs), as upstream serves
// both from one storage. Writes here are held to the strict rules of upstream's events API.

import type { ApiObject } from '../../machinery/object.ts';
import { nameIsDNSSubdomain } from '../../machinery/validation/names.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';
import { eventStrategy } from '../core/event.ts';
import { eventColumns } from '../core/event-columns.ts';
import { EVENT_SHARED_DEFINITIONS, eventSeriesDefinition } from '../core/event-schema.ts';
import { eventFromCore, eventToCore } from './conversion.ts';

const str = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'string',
  description,
  ...wire,
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const regarding = (e: ApiObject): Obj => (isObj(e.regarding) ? e.regarding : {});

/** The field selectors upstream's events API converts, under their events/v1 names. */
const EVENTS_FIELDS: Readonly<Record<string, (e: ApiObject) => string>> = {
  'regarding.kind': (e) => text(regarding(e).kind),
  'regarding.namespace': (e) => text(regarding(e).namespace),
  'regarding.name': (e) => text(regarding(e).name),
  'regarding.uid': (e) => text(regarding(e).uid),
  'regarding.apiVersion': (e) => text(regarding(e).apiVersion),
  'regarding.resourceVersion': (e) => text(regarding(e).resourceVersion),
  'regarding.fieldPath': (e) => text(regarding(e).fieldPath),
  reason: (e) => text(e.reason),
  reportingController: (e) => text(e.reportingController),
  type: (e) => text(e.type),
};

function schemaFor(group: string) {
  return compileKindSchema({
    group,
    version: 'v1',
    kind: 'Event',
    description:
      'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
    required: ['eventTime'],
    properties: {
      eventTime: {
        ref: 'MicroTime',
        description: 'eventTime is the time when this Event was first observed. It is required.',
        proto: 2,
      },
      series: {
        ref: 'EventSeries',
        description:
          "series is data about the Event series this event represents or nil if it's a singleton Event.",
        proto: 3,
        protoPointer: true,
      },
      reportingController: str('reportingController is the name of the controller that emitted this Event.', {
        proto: 4,
      }),
      reportingInstance: str('reportingInstance is the ID of the controller instance.', { proto: 5 }),
      action: str('action is what action was taken/failed regarding to the regarding object.', { proto: 6 }),
      reason: str('reason is why the action was taken. It is human-readable.', { proto: 7 }),
      regarding: {
        ref: 'ObjectReference',
        description: 'regarding contains the object this Event is about.',
        proto: 8,
      },
      related: {
        ref: 'ObjectReference',
        description: 'related is the optional secondary object for more complex actions.',
        proto: 9,
        protoPointer: true,
      },
      note: str('note is a human-readable description of the status of this operation.', { proto: 10 }),
      type: str('type is the type of this event (Normal, Warning), new types could be added in the future.', {
        proto: 11,
      }),
      deprecatedSource: {
        ref: 'EventSource',
        description:
          'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.',
        proto: 12,
      },
      deprecatedFirstTimestamp: {
        ref: 'Time',
        description:
          'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
        proto: 13,
      },
      deprecatedLastTimestamp: {
        ref: 'Time',
        description:
          'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
        proto: 14,
      },
      deprecatedCount: {
        type: 'integer',
        format: 'int32',
        description:
          'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.',
        proto: 15,
      },
    },
    definitions: { ...EVENT_SHARED_DEFINITIONS, EventSeries: eventSeriesDefinition(true) },
  });
}

export function eventsEventKind(profile: NamingProfile): KindDefinition {
  const group = groupName(profile, 'events');
  const schema = schemaFor(group);
  return {
    resource: {
      group,
      version: 'v1',
      resource: 'events',
      singular: 'event',
      kind: 'Event',
      listKind: 'EventList',
      shortNames: ['ev'],
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: {
      ...eventStrategy(profile, 'events', eventToCore),
      validateName: nameIsDNSSubdomain,
      selectableFields: EVENTS_FIELDS,
    },
    table: eventColumns(eventToCore),
    storedAs: {
      group: '',
      resource: 'events',
      toStored: eventToCore,
      fromStored: (obj) => eventFromCore(obj, `${group}/v1`),
    },
  };
}
