// The strict half of decoding: a parsed value checked against a kind's shape, field by field, into
// the in-memory form. Unknown fields and values of the wrong type become field errors at their path
// (all of them, in document order); nulls count as absent, as Go's decoder leaves a field unset;
// durations are rewritten in Go's canonical form; brand-bearing names map to canonical keys.

import { type FieldError, FieldPath, forbidden, typeInvalid } from '../../../machinery/field-errors.ts';
import { canonicalDuration } from './go-duration.ts';
import type { ObjectShape, Scalar, Shape } from './schema.ts';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const FLOAT32_MAX = 3.4028234663852886e38;

/** Go's spelling of a JSON value's type in unmarshal errors. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

function goType(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'duration' ? 'string' : shape;
  if ('list' in shape) return `[]${goType(shape.list)}`;
  return 'struct';
}

function cannot(path: FieldPath, v: unknown, shape: Shape, shown?: string): FieldError {
  const what = shown === undefined ? jsonType(v) : `${jsonType(v)} ${shown}`;
  return typeInvalid(path, v, `json: cannot unmarshal ${what} into Go value of type ${goType(shape)}`);
}

function scalar(v: unknown, shape: Scalar, path: FieldPath, errs: FieldError[]): unknown {
  switch (shape) {
    case 'string':
      if (typeof v === 'string') return v;
      break;
    case 'bool':
      if (typeof v === 'boolean') return v;
      break;
    case 'int32': {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number') break;
      if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) {
        errs.push(cannot(path, v, shape, String(v)));
        return undefined;
      }
      return n;
    }
    case 'float32':
    case 'float64': {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number') break;
      if (!Number.isFinite(n) || (shape === 'float32' && Math.abs(n) > FLOAT32_MAX)) {
        errs.push(cannot(path, v, shape, String(v)));
        return undefined;
      }
      return n;
    }
    case 'duration':
      if (typeof v !== 'string') break;
      try {
        return canonicalDuration(v);
      } catch (err) {
        errs.push(typeInvalid(path, v, (err as Error).message));
        return undefined;
      }
  }
  errs.push(cannot(path, v, shape));
  return undefined;
}

/**
 * The value in memory form, or undefined when it is absent, null or wrong (then `errs` says why).
 * A null list element becomes its type's zero value, as in Go.
 */
export function convert(v: unknown, shape: Shape, path: FieldPath, errs: FieldError[]): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof shape === 'string') return scalar(v, shape, path, errs);
  if ('list' in shape) {
    if (!Array.isArray(v)) {
      errs.push(cannot(path, v, shape));
      return undefined;
    }
    const out: unknown[] = [];
    v.forEach((item, i) => {
      const x = item === null ? zero(shape.list) : convert(item, shape.list, path.index(i), errs);
      if (x !== undefined) out.push(x);
    });
    return out;
  }
  if (typeof v !== 'object' || Array.isArray(v)) {
    errs.push(cannot(path, v, shape));
    return undefined;
  }
  return convertObject(v as Record<string, unknown>, shape, path, errs);
}

/** An object's known fields converted; `path` null for the document itself. */
export function convertObject(
  v: Record<string, unknown>,
  shape: ObjectShape,
  path: FieldPath | null,
  errs: FieldError[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(v)) {
    const p = path === null ? FieldPath.of(name) : path.child(name);
    const field = shape.fields.get(name);
    if (field === undefined) {
      errs.push(forbidden(p, 'unknown field'));
      continue;
    }
    const x = convert(value, field.shape, p, errs);
    if (x !== undefined) out[field.key] = x;
  }
  return out;
}

function zero(shape: Shape): unknown {
  switch (shape) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'float32':
    case 'float64':
      return 0;
    case 'duration':
      return '0s';
    default:
      return 'list' in shape ? [] : {};
  }
}
