// Core kinds hold finalizer names to one more rule than the generic metadata check: a name without
// a domain prefix must be one the system defines. Upstream applies it to every core object's
// metadata.finalizers and to a namespace's spec.finalizers.

import { type FieldError, type FieldPath, invalid, newPath } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { namespaceFinalizer } from '../../naming/finalizers.ts';
import type { NamingProfile } from '../../naming/profile.ts';

const NOT_STANDARD = 'name is neither a standard finalizer name nor is it fully qualified';

/** The bare finalizer names the system defines: the namespace one, orphan, foregroundDeletion. */
export function standardFinalizers(profile: NamingProfile): ReadonlySet<string> {
  return new Set([namespaceFinalizer(profile), 'orphan', 'foregroundDeletion']);
}

/** Bare names in `list` that are not standard, each reported at its index under `path`. */
export function validateBareFinalizers(
  list: unknown,
  path: FieldPath,
  standard: ReadonlySet<string>,
): FieldError[] {
  if (!Array.isArray(list)) return [];
  const errs: FieldError[] = [];
  list.forEach((f, i) => {
    const name = String(f);
    if (!name.includes('/') && !standard.has(name)) errs.push(invalid(path.index(i), name, NOT_STANDARD));
  });
  return errs;
}

/** The rule over an object's metadata.finalizers. */
export function validateMetadataFinalizers(obj: ApiObject, standard: ReadonlySet<string>): FieldError[] {
  return validateBareFinalizers(obj.metadata?.finalizers, newPath('metadata', 'finalizers'), standard);
}
