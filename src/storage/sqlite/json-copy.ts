// A private copy of an object just stored, without parsing back the JSON it was stored as.
//
// A write returns the stored object: what decodeValue(JSON.stringify(obj)) would give. Parsing
// 1 KiB of JSON costs about as much as the rest of a write's JavaScript put together, and for
// plain JSON data (plain objects, arrays, strings, finite numbers, booleans, null) a structural
// copy gives exactly the same result: strings are immutable and can be shared. Anything else
// (undefined, functions, class instances, toJSON, non-finite numbers, -0, sparse arrays, a
// "__proto__" key) makes the copy give up, and the caller parses the JSON instead.

const GIVE_UP: unique symbol = Symbol('give up');

/**
 * The object as JSON.parse(encodeValue(obj)) would return it, metadata.resourceVersion left out
 * as encodeValue leaves it out; undefined when `obj` is not plain JSON data.
 */
export function copyStored(obj: object): Record<string, unknown> | undefined {
  if (Object.getPrototypeOf(obj) !== Object.prototype) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const value = (obj as Record<string, unknown>)[key];
    let copied: unknown;
    if (key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      copied = copyObject(value, 'resourceVersion');
    } else {
      copied = copyValue(value);
    }
    if (copied === GIVE_UP || key === '__proto__') return undefined;
    out[key] = copied;
  }
  return out;
}

function copyValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : GIVE_UP;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return copyArray(value);
      return copyObject(value);
    default:
      return GIVE_UP;
  }
}

function copyArray(value: unknown[]): unknown[] | typeof GIVE_UP {
  if (Object.getPrototypeOf(value) !== Array.prototype) return GIVE_UP;
  const n = value.length;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    if (!(i in value)) return GIVE_UP;
    const c = copyValue(value[i]);
    if (c === GIVE_UP) return GIVE_UP;
    out[i] = c;
  }
  return out;
}

function copyObject(value: object, skip?: string): Record<string, unknown> | typeof GIVE_UP {
  if (Object.getPrototypeOf(value) !== Object.prototype) return GIVE_UP;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === skip) continue;
    if (key === '__proto__') return GIVE_UP;
    const c = copyValue((value as Record<string, unknown>)[key]);
    if (c === GIVE_UP) return GIVE_UP;
    out[key] = c;
  }
  return out;
}
