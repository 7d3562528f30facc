// Rules ConfigMap and Secret share: key syntax, the total size limit, and `immutable`.

import {
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
  if (key.length > 253) msgs.push('must be no more than 253 characters');
  if (!KEY.test(key)) msgs.push(KEY_MESSAGE);
  if (key === '.') msgs.push("must not be '.'");
  else if (key === '..') msgs.push("must not be '..'");
  else if (key.startsWith('..')) msgs.push("must not start with '..'");
  return msgs.map((m) => invalid(path, key, m));
}

/** Key checks over several maps (data, binaryData), a key in two of them, and the total size. */
export function validateDataMaps(
  maps: [string, Record<string, string> | undefined, 'text' | 'base64'][],
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, string>();
  let total = 0;
  for (const [field, map, encoding] of maps) {
    for (const [k, v] of Object.entries(map ?? {})) {
      const path = newPath(field).key(k);
      errs.push(...validateDataKey(k, path));
      const other = seen.get(k);
      if (other !== undefined) errs.push(invalid(path, k, `duplicate of key present in ${other}`));
      seen.set(k, field);
      total += encoding === 'base64' ? Buffer.byteLength(v, 'base64') : Buffer.byteLength(v);
    }
  }
  if (total > MAX_DATA_BYTES) errs.push(tooLong(newPath(''), MAX_DATA_BYTES));
  return errs;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** Once `immutable` is true, the data fields and the flag itself stay as they are. */
export function validateImmutableData(obj: ApiObject, old: ApiObject, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden(newPath('immutable'), IMMUTABLE));
  for (const f of fields) {
    if (JSON.stringify(obj[f] ?? {}) !== JSON.stringify(old[f] ?? {}))
      errs.push(forbidden(newPath(f), IMMUTABLE));
  }
  return errs;
}
