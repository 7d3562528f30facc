// Filters for the fields an endpoint resets, which nobody can own through it: the main resource of
// a kind with a status resets the status; the status subresource resets everything else.

import { field, serializeElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { FieldFilter } from './updater.ts';

/** Every path except the top-level field `name` and what is below it. */
export function withoutField(name: string): FieldFilter {
  const excluded = FieldSet.of([field(name)]);
  return (set) => set.recursiveDifference(excluded);
}

/** Only the top-level field `name` and what is below it. */
export function onlyField(name: string): FieldFilter {
  const id = serializeElement(field(name));
  return (set) => {
    const out = new FieldSet();
    const member = set.members.get(id);
    if (member !== undefined) out.members.set(id, member);
    const child = set.children.get(id);
    if (child !== undefined) out.children.set(id, child);
    return out;
  };
}
