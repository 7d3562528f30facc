// The columns of `kubectl get events` as upstream's printer builds them from a core/v1 Event:
// last seen (the series' last observation, else lastTimestamp, else the first sighting), type,
// reason, the involved object as `kind/name`, the message; with `-o wide` the sub-object, source,
// first seen, count and name.

import type { TableColumn } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { humanDuration, NAME_COLUMN } from '../printing.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Time since a timestamp, `<unknown>` when it is unset or unreadable. */
function since(ts: unknown, now: number): string {
  if (typeof ts !== 'string' || ts === '') return '<unknown>';
  const t = Date.parse(ts);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

function firstSeen(e: ApiObject, now: number): string {
  return str(e.firstTimestamp) === '' ? since(e.eventTime, now) : since(e.firstTimestamp, now);
}

function lastSeen(e: ApiObject, now: number): string {
  if (isObj(e.series)) return since(e.series.lastObservedTime, now);
  return str(e.lastTimestamp) === '' ? firstSeen(e, now) : since(e.lastTimestamp, now);
}

function count(e: ApiObject): number {
  if (isObj(e.series)) return typeof e.series.count === 'number' ? e.series.count : 0;
  // Events of the newer API set no count for a single occurrence.
  return typeof e.count === 'number' && e.count !== 0 ? e.count : 1;
}

function target(e: ApiObject): string {
  const ref = isObj(e.involvedObject) ? e.involvedObject : {};
  const kind = str(ref.kind).toLowerCase();
  return str(ref.name) === '' ? kind : `${kind}/${str(ref.name)}`;
}

function source(e: ApiObject): string {
  const src = isObj(e.source) ? e.source : {};
  const component = str(src.component) || str(e.reportingComponent);
  const instance = str(src.host) || str(e.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

/** The columns over core/v1 Events; `toCore` maps another shape first (the events group's). */
export function eventColumns(toCore: (obj: ApiObject) => ApiObject = (o) => o): TableColumn[] {
  const col = (
    name: string,
    description: string,
    cell: (e: ApiObject) => unknown,
    extra: Partial<TableColumn> = {},
  ): TableColumn => ({ name, type: 'string', description, cell: (obj) => cell(toCore(obj)), ...extra });
  return [
    col('Last Seen', 'When the event was last recorded.', (e) => lastSeen(e, Date.now())),
    col('Type', 'The event type, such as Normal or Warning; more types may come.', (e) => str(e.type)),
    col('Reason', 'A short machine-readable word for why the object reached its current status.', (e) =>
      str(e.reason),
    ),
    col('Object', 'The object the event concerns.', target),
    col(
      'Subobject',
      'The part of the object concerned, as a field path such as desiredState.manifest.containers[2], when not the whole object.',
      (e) => str(isObj(e.involvedObject) ? e.involvedObject.fieldPath : ''),
      { priority: 1 },
    ),
    col('Source', 'The component that reported the event, as a short machine-readable name.', source, {
      priority: 1,
    }),
    col('Message', 'What happened, in words for people.', (e) => str(e.message).trim()),
    col('First Seen', 'When the event was first recorded.', (e) => firstSeen(e, Date.now()), { priority: 1 }),
    col('Count', 'How many times the event has happened.', count, { priority: 1 }),
    { ...NAME_COLUMN, priority: 1, cell: (obj) => toCore(obj).metadata?.name ?? '' },
  ];
}
