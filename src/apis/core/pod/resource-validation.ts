// A container's compute resources, as upstream's core validation checks them: quantities not
// negative, requests not above limits, and resources that cannot be overcommitted (extended
// resources, huge pages) with requests equal to limits.

import { type FieldError, type FieldPath, invalid, required } from '../../../machinery/field-errors.ts';
import { Quantity } from '../../../machinery/quantity.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A quantity as written (a string or a bare number); undefined when it does not parse. */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return Quantity.parse(String(v));
  } catch {
    return undefined;
  }
}

/**
 * Native resources (no domain) may be overcommitted, except huge pages; extended resources (with a
 * domain) may not.
 */
function overcommitAllowed(name: string): boolean {
  return !name.includes('/') && !name.startsWith('hugepages-');
}

function nonNegative(list: Obj, path: FieldPath, errs: FieldError[]): void {
  for (const [name, raw] of Object.entries(list)) {
    const q = quantityOf(raw);
    if (q !== undefined && q.sign() < 0) {
      errs.push(invalid(path.key(name), q.toString(), 'must be greater than or equal to 0'));
    }
  }
}

/** Errors of a container's `resources` at `path`. */
export function validateResourceRequirements(resources: unknown, path: FieldPath): FieldError[] {
  if (!isObj(resources)) return [];
  const errs: FieldError[] = [];
  const limits = isObj(resources.limits) ? resources.limits : {};
  const requests = isObj(resources.requests) ? resources.requests : {};
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  nonNegative(limits, limPath, errs);
  nonNegative(requests, reqPath, errs);
  for (const [name, raw] of Object.entries(requests)) {
    const request = quantityOf(raw);
    if (request === undefined) continue;
    if (!(name in limits)) {
      if (!overcommitAllowed(name)) {
        errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
      }
      continue;
    }
    const limit = quantityOf(limits[name]);
    if (limit === undefined) continue;
    const order = request.cmp(limit);
    if (order !== 0 && !overcommitAllowed(name)) {
      errs.push(
        invalid(reqPath, request.toString(), `must be equal to ${name} limit of ${limit.toString()}`),
      );
    } else if (order > 0) {
      errs.push(
        invalid(
          reqPath,
          request.toString(),
          `must be less than or equal to ${name} limit of ${limit.toString()}`,
        ),
      );
    }
  }
  return errs;
}
