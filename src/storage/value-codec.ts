// How objects are kept at rest: JSON without metadata.resourceVersion, which is derived from the
// revision the value was written at and stamped back on every read.

import type { ApiObject } from '../machinery/object.ts';
import { CorruptObjectError, InvalidObjectError } from './errors.ts';
import type { Revision } from './interface.ts';

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
