// Rules ConfigMap and Secret share: key syntax, the total size limit, and `immutable`.

import {
  deepEqual,
  type FieldError,
  type FieldPath,
  forbidden,
  invalid,
  newPath,
  tooLong,
} from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';

/** Upstream's limit on a ConfigMap's or Secret's data: 1 MiB. */
export const MAX_DATA_BYTES = 1024 * 1024;

const KEY = /^[-._a-zA-Z0-9]+$/;
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

export function validateDataKey(key: string, path: FieldPath): FieldError[] {
  const msgs: string[] = [];
  if (Buffer.byteLength(key) > 253) msgs.push('must be no more than 253 characters');
  if (!KEY.test(key)) msgs.push(KEY_MESSAGE);
  if (key === '.') msgs.push("must not be '.'");
  else if (key === '..') msgs.push("must not be '..'");
  else if (key.startsWith('..')) msgs.push("must not start with '..'");
  return msgs.map((m) => invalid(path, key, m));
}

type StringMap = Record<string, unknown> | undefined;

function entries(map: StringMap): [string, string][] {
  if (map === null || typeof map !== 'object') return [];
  return Object.entries(map).map(([k, v]) => [k, typeof v === 'string' ? v : String(v ?? '')]);
}

/** Decoded size of a base64 value; the decoder has already refused values that are not base64. */
function decodedLength(v: string): number {
  return Buffer.byteLength(v.replace(/[\r\n]/g, ''), 'base64');
}

/**
 * A ConfigMap's keys and size: each key a config key, a key of data not also in binaryData (the
 * error sits on the data key, as upstream reports it), and at most 1 MiB in all (reported on the
 * empty path, which prints as `[]`).
 */
export function validateConfigMapData(data: StringMap, binaryData: StringMap): FieldError[] {
  const errs: FieldError[] = [];
  const binary = entries(binaryData);
  const binaryKeys = new Set(binary.map(([k]) => k));
  let total = 0;
  for (const [k, v] of entries(data)) {
    const path = newPath('data').key(k);
    errs.push(...validateDataKey(k, path));
    if (binaryKeys.has(k)) errs.push(invalid(path, k, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(v);
  }
  for (const [k, v] of binary) {
    errs.push(...validateDataKey(k, newPath('binaryData').key(k)));
    total += decodedLength(v);
  }
  if (total > MAX_DATA_BYTES) errs.push(tooLong(newPath(''), MAX_DATA_BYTES));
  return errs;
}

/** A Secret's keys and size: config keys, at most 1 MiB of decoded data (reported on `data`). */
export function validateSecretData(data: StringMap): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of entries(data)) {
    errs.push(...validateDataKey(k, newPath('data').key(k)));
    total += decodedLength(v);
  }
  if (total > MAX_DATA_BYTES) errs.push(tooLong(newPath('data'), MAX_DATA_BYTES));
  return errs;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** Once `immutable` is true, the data fields and the flag itself stay as they are. */
export function validateImmutableData(obj: ApiObject, old: ApiObject, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden(newPath('immutable'), IMMUTABLE));
  // An empty map and no map are the same value once decoded (Go's nil map).
  const orNull = (v: unknown) =>
    v !== null && typeof v === 'object' && Object.keys(v).length === 0 ? null : v;
  for (const f of fields) {
    if (!deepEqual(orNull(obj[f]), orNull(old[f]))) errs.push(forbidden(newPath(f), IMMUTABLE));
  }
  return errs;
}
