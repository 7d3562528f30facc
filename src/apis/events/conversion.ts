// Conversion between the events group's Event (events/v1) and the stored core/v1 Event: field
// renames only (regarding/involvedObject, note/message, deprecatedSource/source, the deprecated
// timestamps and count, reportingController/reportingComponent), so either shape round-trips.

import type { ApiObject } from '../../machinery/object.ts';

/** events/v1 name to core/v1 name; every other field keeps its name. */
const RENAMES: readonly [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

const TO_CORE = new Map(RENAMES);
const FROM_CORE = new Map(RENAMES.map(([a, b]) => [b, a]));

function renamed(obj: ApiObject, names: ReadonlyMap<string, string>, apiVersion: string): ApiObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[names.get(k) ?? k] = v;
  if (obj.apiVersion !== undefined) out.apiVersion = apiVersion;
  return out as ApiObject;
}

/** An events/v1 Event in the stored core/v1 shape. */
export function eventToCore(obj: ApiObject): ApiObject {
  return renamed(obj, TO_CORE, 'v1');
}

/** A stored core/v1 Event in the events group's shape (`apiVersion` given as `<group>/v1`). */
export function eventFromCore(obj: ApiObject, apiVersion: string): ApiObject {
  return renamed(obj, FROM_CORE, apiVersion);
}
