// How objects are kept at rest: JSON without metadata.resourceVersion, which is derived from the
// revision the value was written at and stamped back on every read.

import type { ApiObject, ObjectMeta } from '../machinery/object.ts';
import type { TypeMeta } from './encoded.ts';
import { CorruptObjectError, InvalidObjectError } from './errors.ts';
import type { Revision } from './interface.ts';
import { type Member, walkMembers } from './json-members.ts';

export function encodeValue(key: string, obj: ApiObject): string {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new InvalidObjectError(key, 'object to store must be a JSON object');
  }
  const meta = obj.metadata;
  if (meta !== undefined && meta.resourceVersion !== undefined) {
    const { resourceVersion: _dropped, ...rest } = meta;
    return JSON.stringify({ ...obj, metadata: rest });
  }
  return JSON.stringify(obj);
}

/**
 * Every object a backend decodes carries the key it was stored under, invisibly (a non-enumerable
 * symbol: JSON, spreads and clones leave it behind), so that a decorator such as the watch cache
 * can index what lists and watches hand it without the Storage contract carrying keys around.
 */
const STORAGE_KEY = Symbol('storageKey');

/** The key a decoded object was read from; undefined for objects that did not come from storage. */
export function storageKeyOf(obj: ApiObject): string | undefined {
  return (obj as { [STORAGE_KEY]?: string })[STORAGE_KEY];
}

export function decodeValue(key: string, text: string | Buffer, revision: Revision): ApiObject {
  let obj: unknown;
  try {
    obj = JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch (err) {
    throw new CorruptObjectError(key, `stored value is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new CorruptObjectError(key, 'stored value is not a JSON object');
  }
  Object.defineProperty(obj, STORAGE_KEY, { value: key });
  return stampRevision(obj as ApiObject, revision);
}

export function stampRevision(obj: ApiObject, revision: Revision): ApiObject {
  const meta = obj.metadata;
  if (meta === undefined || meta === null || typeof meta !== 'object') {
    obj.metadata = { resourceVersion: String(revision) };
  } else {
    meta.resourceVersion = String(revision);
  }
  return obj;
}

/**
 * For an unsafe delete: succeeds only when the stored bytes do not decode, since the option exists
 * for nothing else.
 */
export function assertCorrupt(key: string, text: string | Buffer, revision: Revision): void {
  try {
    decodeValue(key, text, revision);
  } catch (err) {
    if (err instanceof CorruptObjectError) return;
    throw err;
  }
  throw new InvalidObjectError(
    key,
    'unsafe deletion is not allowed because the object is decodable from storage',
  );
}

/** The object a BOOKMARK event carries: nothing but the revision. */
export function bookmarkObject(revision: Revision): ApiObject {
  return { metadata: { resourceVersion: String(revision) } };
}

/** An object as the watch cache keeps it (encoded.ts: its body and TypeMeta), from stored JSON. */
export interface StoredBody {
  /** The key it is stored under. */
  key: string;
  /** encodeBody's text: the object without kind and apiVersion, resourceVersion stamped. */
  text: string;
  typeMeta: TypeMeta;
  /**
   * Of its metadata, what the watch cache reads (name, namespace, labels, and resourceVersion as
   * stamped), each member parsed alone: a large object's managedFields are only scanned.
   */
  metadata: ObjectMeta;
}

const CACHE_FIELDS = new Set(['name', 'namespace', 'labels']);

/** The metadata members the cache reads; undefined if the text holds a resourceVersion or does not scan. */
function cacheFields(text: string): ObjectMeta | undefined {
  const out: Record<string, unknown> = {};
  let stamped = false;
  const followed = walkMembers(text, (m) => {
    if (m.key === 'resourceVersion') stamped = true;
    else if (CACHE_FIELDS.has(m.key)) out[m.key] = JSON.parse(text.slice(m.valueStart, m.valueEnd));
    return !stamped;
  });
  return followed && !stamped ? (out as ObjectMeta) : undefined;
}

/** Keys JSON.parse puts first whatever their place in the text (array indices): not spliced. */
const INDEX_KEY = /^\d+$/;

/**
 * encodeBody(decodeValue(key, value, revision)) made from the text without decoding it: the
 * object's top-level members spliced (kind and apiVersion taken out, resourceVersion appended to
 * metadata, where stampRevision puts it), so that a large object's way into the watch cache costs
 * a scan of its JSON rather than a parse and a stringify.
 *
 * Only for `value` as encodeValue wrote it in this process: JSON.stringify of plain data, whose
 * parse and stringify again give back the same text. Undefined when it is not in the common shape
 * (not an object, kind or apiVersion not strings, metadata not an object or holding a
 * resourceVersion, a repeated or index-like key): the caller then decodes it.
 */
export function storedBody(key: string, value: string, revision: Revision): StoredBody | undefined {
  const members: Member[] = [];
  if (!walkMembers(value, (m) => members.push(m) > 0)) return undefined;
  const resourceVersion = String(revision);
  const stamp = `"resourceVersion":${JSON.stringify(resourceVersion)}`;
  const parts: string[] = [];
  const seen = new Set<string>();
  let kind: string | undefined;
  let apiVersion: string | undefined;
  let metadata: ObjectMeta | undefined;
  for (const m of members) {
    if (seen.has(m.key) || INDEX_KEY.test(m.key) || m.key === '__proto__') return undefined;
    seen.add(m.key);
    const first = value.charCodeAt(m.valueStart);
    if (m.key === 'kind' || m.key === 'apiVersion') {
      if (first !== 0x22 /* " */) return undefined;
      const text = JSON.parse(value.slice(m.valueStart, m.valueEnd)) as string;
      if (m.key === 'kind') kind = text;
      else apiVersion = text;
    } else if (m.key === 'metadata') {
      if (first !== 0x7b /* { */) return undefined;
      const inner = value.slice(m.valueStart, m.valueEnd);
      metadata = cacheFields(inner);
      if (metadata === undefined) return undefined;
      metadata.resourceVersion = resourceVersion;
      const stamped = inner === '{}' ? `{${stamp}}` : `${inner.slice(0, -1)},${stamp}}`;
      parts.push(`"metadata":${stamped}`);
    } else {
      parts.push(value.slice(m.keyStart, m.valueEnd));
    }
  }
  if (metadata === undefined) {
    // stampRevision adds the missing metadata after every other member.
    metadata = { resourceVersion };
    parts.push(`"metadata":{${stamp}}`);
  }
  // In encodeBody's order: kind, then apiVersion.
  const typeMeta: TypeMeta = {};
  if (kind !== undefined) typeMeta.kind = kind;
  if (apiVersion !== undefined) typeMeta.apiVersion = apiVersion;
  return { key, text: `{${parts.join(',')}}`, typeMeta, metadata };
}
