// What an in-process controller sees of the server: each served resource's names and its store.

import type { ApiObject } from '../machinery/object.ts';
import type { GenericStore, ListObject, WireWatchEvent } from '../registry/generic-store.ts';
import type { ResourceInfo } from '../registry/resource.ts';
import { metadataOfBody } from '../storage/encoded.ts';

export interface ControlledResource {
  kind: { resource: ResourceInfo };
  store: GenericStore;
  /** Records a controller's writes in managedFields, as a write through the API would be. */
  fields?(subresource: string): FieldTracker;
}

export interface FieldTracker {
  update(live: ApiObject | null, next: ApiObject, manager: string): ApiObject;
}

/** The store option that records a write by `manager` through `subresource`, when tracking is on. */
export function trackAs(
  r: ControlledResource,
  manager: string | undefined,
  subresource = '',
): ((live: ApiObject | null, next: ApiObject) => ApiObject) | undefined {
  if (manager === undefined || r.fields === undefined) return undefined;
  const tracker = r.fields(subresource);
  return (live, next) => tracker.update(live, next, manager);
}

/** `apiVersion` and `kind` of a resource, as ownerReferences name it. */
export function typeKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

export function apiVersionOf(r: ResourceInfo): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** Status code of a registry error, if it has one. */
export function codeOf(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

/**
 * The metadata the in-process controllers read of objects they watch (ownership and lifecycle):
 * not managedFields, labels or annotations, which in a large object can be most of it.
 */
const CONTROLLER_FIELDS: ReadonlySet<string> = new Set([
  'uid',
  'name',
  'namespace',
  'ownerReferences',
  'finalizers',
  'deletionTimestamp',
]);

/**
 * An event's object as a controller that reads only metadata sees it (upstream's metadata-only
 * informers): `{ metadata }` with the fields it reads, parsed alone from the watch cache's body
 * rather than decoding the whole object. Its values may be shared: read, never change.
 */
export function eventMetadata(ev: WireWatchEvent): ApiObject {
  return ev.encoded === undefined ? ev.object : { metadata: ev.encoded.metadataFields(CONTROLLER_FIELDS) };
}

/** A list's items as eventMetadata gives them, parsed from the watch cache's bodies where it answered. */
export function listMetadata(list: ListObject): ApiObject[] {
  const { encoded } = list;
  if (encoded === undefined) return list.items;
  return encoded.map((item) => ({ metadata: metadataOfBody(item.text(), CONTROLLER_FIELDS) }));
}

/** How often a controller's write is tried when it meets a conflict. */
const WRITE_ATTEMPTS = 5;

/**
 * Re-reads an object, asks `next` for what it should become (undefined: nothing to do) and writes
 * that, recorded under `manager`; a conflict starts over, up to WRITE_ATTEMPTS times. An object
 * that is gone (404 on the read or the write) is left alone.
 */
export async function updateWithRetries(
  r: ControlledResource,
  namespace: string,
  name: string,
  next: (current: ApiObject) => ApiObject | undefined,
  manager: string | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let current: ApiObject;
    try {
      current = await r.store.get(namespace, name);
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw err;
    }
    const wanted = next(current);
    if (wanted === undefined) return;
    try {
      await r.store.update(namespace, name, wanted, { track: trackAs(r, manager) });
      return;
    } catch (err) {
      if (codeOf(err) === 404) return;
      if (codeOf(err) !== 409 || attempt >= WRITE_ATTEMPTS) throw err;
    }
  }
}
