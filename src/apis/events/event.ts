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
      'A note that something happened in the cluster, usually a change of state. Events expire after a while, and their triggers, reasons and messages may change between releases, so treat them as best-effort information rather than a contract.',
    required: ['eventTime'],
    properties: {
      eventTime: {
        ref: 'MicroTime',
        description: 'Required. When the event was first observed.',
        proto: 2,
      },
      series: {
        ref: 'EventSeries',
        description: 'Repetition details when the event recurs; absent for a one-off event.',
        proto: 3,
        protoPointer: true,
      },
      reportingController: str(
        'Controller that emitted the event, such as `<domain>/service-controller`; required for new events.',
        {
          proto: 4,
        },
      ),
      reportingInstance: str(
        'Which instance of that controller emitted it, such as `<component>-xyzf`; required for new events, at most 128 characters.',
        { proto: 5 },
      ),
      action: str(
        'Machine-readable action taken, or that failed, on the object concerned; required for new events, at most 128 characters.',
        { proto: 6 },
      ),
      reason: str('Why the action was taken; required for new events, at most 128 characters.', { proto: 7 }),
      regarding: {
        ref: 'ObjectReference',
        description: 'Object the event concerns.',
        proto: 8,
      },
      related: {
        ref: 'ObjectReference',
        description: 'A second object involved in the action, if any.',
        proto: 9,
        protoPointer: true,
      },
      note: str('Readable account of what happened, at most 1kB.', { proto: 10 }),
      type: str('Normal or Warning; more types may be added later. Required for new events.', {
        proto: 11,
      }),
      deprecatedSource: {
        ref: 'EventSource',
        description: 'Deprecated: kept so core/v1 Events convert without loss (their source).',
        proto: 12,
      },
      deprecatedFirstTimestamp: {
        ref: 'Time',
        description: 'Deprecated: kept so core/v1 Events convert without loss (their firstTimestamp).',
        proto: 13,
      },
      deprecatedLastTimestamp: {
        ref: 'Time',
        description: 'Deprecated: kept so core/v1 Events convert without loss (their lastTimestamp).',
        proto: 14,
      },
      deprecatedCount: {
        type: 'integer',
        format: 'int32',
        description: 'Deprecated: kept so core/v1 Events convert without loss (their count).',
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
