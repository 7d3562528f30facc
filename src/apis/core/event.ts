// Event (core/v1, `events`, short name `ev`): the stored shape of every Event, also served in the
// events group (src/apis/events/). Created or replaced by PUT, never held by a status; expired by
// the server after --event-ttl (server/event-expiry.ts). Field selectors as upstream's.

import type { ApiObject } from '../../machinery/object.ts';
import { validatePathSegmentName } from '../../machinery/validation/names.ts';
import { componentName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import type { Strategy } from '../../registry/strategy.ts';
import { eventColumns } from './event-columns.ts';
import { coreEventSchema } from './event-schema.ts';
import { type EventApi, validateEventCreate, validateEventUpdate } from './event-validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const ref = (e: ApiObject): Obj => (isObj(e.involvedObject) ? e.involvedObject : {});

/** The fields a core/v1 Event is selected by, read from that shape. */
export const CORE_EVENT_FIELDS: Readonly<Record<string, (e: ApiObject) => string>> = {
  'involvedObject.kind': (e) => str(ref(e).kind),
  'involvedObject.namespace': (e) => str(ref(e).namespace),
  'involvedObject.name': (e) => str(ref(e).name),
  'involvedObject.uid': (e) => str(ref(e).uid),
  'involvedObject.apiVersion': (e) => str(ref(e).apiVersion),
  'involvedObject.resourceVersion': (e) => str(ref(e).resourceVersion),
  'involvedObject.fieldPath': (e) => str(ref(e).fieldPath),
  reason: (e) => str(e.reason),
  reportingComponent: (e) => str(e.reportingComponent),
  source: (e) => str(isObj(e.source) ? e.source.component : '') || str(e.reportingComponent),
  type: (e) => str(e.type),
};

/** The strategy of an Event written through `api`; `toCore` maps a body to the stored shape first. */
export function eventStrategy(
  profile: NamingProfile,
  api: EventApi,
  toCore: (obj: ApiObject) => ApiObject = (o) => o,
): Omit<Strategy, 'validateName' | 'selectableFields'> {
  const system = componentName(profile, 'system');
  return {
    namespaced: true,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    tracksGeneration: false,
    hasStatus: false,
    returnDeletedObject: false,
    validate: (obj) => validateEventCreate(toCore(obj), api, system),
    validateUpdate: (obj, old) => validateEventUpdate(toCore(obj), toCore(old), api, system),
  };
}

export function eventKind(profile: NamingProfile): KindDefinition {
  return {
    resource: {
      group: '',
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
    schema: coreEventSchema,
    strategy: {
      ...eventStrategy(profile, 'core'),
      // Names of core Events are only checked as path segments, as upstream's generic checks do.
      validateName: validatePathSegmentName,
      selectableFields: CORE_EVENT_FIELDS,
    },
    table: eventColumns(),
  };
}
