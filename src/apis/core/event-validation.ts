// Event validation as upstream's ValidateEventCreate and ValidateEventUpdate, over the stored
// (core/v1) shape whichever API the write came through: every Event passes the legacy rules
// (the involved object's namespace, and for Events with an eventTime the reporting fields and
// length limits); writes through the events group are also held to the strict rules (eventTime,
// type, series, the deprecated fields unset, immutable fields on update).

import {
  deepEqual,
  type FieldError,
  immutable,
  invalid,
  newPath,
  required,
} from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names.ts';

/** Which API wrote the Event: upstream's rules differ between the two. */
export type EventApi = 'core' | 'events';

export const REPORTING_INSTANCE_LIMIT = 128;
export const ACTION_LIMIT = 128;
export const REASON_LIMIT = 128;
export const NOTE_LIMIT = 1024;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Go counts bytes, not UTF-16 units. */
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const set = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

function legacyRules(event: ApiObject, api: EventApi, systemNamespace: string): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata?.namespace ?? '';
  const involvedNs = str(obj(event.involvedObject).namespace);
  const nsPath = newPath('involvedObject', 'namespace');
  const mismatch = () => errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
  const controllerField = api === 'core' ? 'reportingComponent' : 'reportingController';
  if (!set(event.eventTime)) {
    // Older Events: the namespace must agree with the involved object's ('default' for cluster objects).
    if (involvedNs === '') {
      if (namespace !== '' && namespace !== 'default') mismatch();
    } else if (namespace !== involvedNs) {
      mismatch();
    }
  } else {
    if (involvedNs === '' && namespace !== 'default' && namespace !== systemNamespace) mismatch();
    const controller = str(event.reportingComponent);
    if (controller === '') errs.push(required(newPath(controllerField), ''));
    for (const msg of isQualifiedName(controller))
      errs.push(invalid(newPath(controllerField), controller, msg));
    const instance = str(event.reportingInstance);
    if (instance === '') errs.push(required(newPath('reportingInstance'), ''));
    if (byteLength(instance) > REPORTING_INSTANCE_LIMIT) {
      errs.push(
        invalid(newPath('reportingInstance'), '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`),
      );
    }
    const action = str(event.action);
    if (action === '') errs.push(required(newPath('action'), ''));
    if (byteLength(action) > ACTION_LIMIT) {
      errs.push(invalid(newPath('action'), '', `can have at most ${ACTION_LIMIT} characters`));
    }
    const reason = str(event.reason);
    if (reason === '') errs.push(required(newPath('reason'), ''));
    if (byteLength(reason) > REASON_LIMIT) {
      errs.push(invalid(newPath('reason'), '', `can have at most ${REASON_LIMIT} characters`));
    }
    if (byteLength(str(event.message)) > NOTE_LIMIT) {
      errs.push(invalid(newPath('message'), '', `can have at most ${NOTE_LIMIT} characters`));
    }
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalid(newPath('namespace'), namespace, msg));
  return errs;
}

function seriesRules(event: ApiObject): FieldError[] {
  if (!isObj(event.series)) return [];
  const errs: FieldError[] = [];
  const count = event.series.count;
  if (typeof count !== 'number' || count < 2)
    errs.push(invalid(newPath('series.count'), '', 'should be at least 2'));
  if (!set(event.series.lastObservedTime)) errs.push(required(newPath('series.lastObservedTime'), ''));
  return errs;
}

export function validateEventCreate(event: ApiObject, api: EventApi, systemNamespace: string): FieldError[] {
  const errs = legacyRules(event, api, systemNamespace);
  if (api === 'core') return errs;
  errs.push(...seriesRules(event));
  if (!set(event.eventTime)) errs.push(required(newPath('eventTime'), ''));
  const type = str(event.type);
  if (type !== 'Normal' && type !== 'Warning')
    errs.push(invalid(newPath('type'), '', `has invalid value: ${type}`));
  if (set(event.firstTimestamp))
    errs.push(invalid(newPath('deprecatedFirstTimestamp'), '', 'needs to be unset'));
  if (set(event.lastTimestamp))
    errs.push(invalid(newPath('deprecatedLastTimestamp'), '', 'needs to be unset'));
  if (typeof event.count === 'number' && event.count !== 0) {
    errs.push(invalid(newPath('deprecatedCount'), '', 'needs to be unset'));
  }
  const source = obj(event.source);
  if (set(source.component) || set(source.host))
    errs.push(invalid(newPath('deprecatedSource'), '', 'needs to be unset'));
  return errs;
}

/** Fields an update through the events group may not change, in upstream's order (reason twice, as there). */
const IMMUTABLE: readonly [string, string][] = [
  ['involvedObject', 'involvedObject'],
  ['reason', 'reason'],
  ['message', 'message'],
  ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'],
  ['lastTimestamp', 'lastTimestamp'],
  ['count', 'count'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

/** Empty values compare equal to absent ones, as Go's zero values do. */
function normalized(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === 0) return undefined;
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalized(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

export function validateEventUpdate(
  event: ApiObject,
  old: ApiObject,
  api: EventApi,
  systemNamespace: string,
): FieldError[] {
  const errs = legacyRules(event, api, systemNamespace);
  if (api === 'core') return errs;
  if (!deepEqual(normalized(event.series), normalized(old.series))) errs.push(...seriesRules(event));
  for (const [field, path] of IMMUTABLE) {
    const next = normalized(event[field]);
    const prev = normalized(old[field]);
    if (!deepEqual(next, prev)) errs.push(immutable(newPath(path), event[field] ?? null));
  }
  return errs;
}
