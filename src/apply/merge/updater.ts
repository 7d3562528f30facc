// Ownership bookkeeping over typed objects. An update takes whatever it changed from the other
// managers; an apply merges the configuration, drops what this manager applied before and left
// out now (unless someone else still owns it), and fails when it changes another manager's field
// unless forced. Managers are keyed by their identifier (see managedfields/managed.ts).

import type { Path } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { type Comparison, compare } from '../typed/compare.ts';
import { merge } from '../typed/merge.ts';
import { ensureNamedFieldsAreMembers } from '../typed/named-fields.ts';
import { reconcileWithSchema } from '../typed/reconcile.ts';
import { removeItems } from '../typed/remove.ts';
import { toFieldSet } from '../typed/to-field-set.ts';
import type { TypeRef } from '../typed/types.ts';
import { compareStrings, type Json, type JsonObject, valueEquals } from '../value.ts';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Field ownership by manager identifier. */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** An apply changed fields other managers own. */
export class Conflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(`${conflicts.length} conflicts`);
  }
}

/** Fields a write may not claim (the status through the main resource, ...). */
export type FieldFilter = (set: FieldSet) => FieldSet;

export class Updater {
  constructor(
    private readonly type: TypeRef,
    private readonly filter: FieldFilter = (s) => s,
  ) {}

  private filtered(c: Comparison): Comparison {
    return {
      added: this.filter(c.added),
      modified: this.filter(c.modified),
      removed: this.filter(c.removed),
    };
  }

  private reconcile(managers: ManagedFields): ManagedFields {
    const out: ManagedFields = new Map();
    for (const [m, vs] of managers) out.set(m, { ...vs, set: reconcileWithSchema(vs.set, this.type) });
    return out;
  }

  /** Takes changed fields away from every other manager; conflicts only matter when not forced. */
  private settle(
    live: Json,
    next: Json,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): { managers: ManagedFields; comparison: Comparison } {
    const comparison = this.filtered(compare(live, next, this.type));
    const changed = comparison.modified.union(comparison.added);
    const conflicts = new Map<string, FieldSet>();
    for (const [m, vs] of managers) {
      if (m === workflow) continue;
      const clash = vs.set.intersection(changed);
      if (!clash.empty()) conflicts.set(m, clash);
    }
    if (!force && conflicts.size > 0) {
      const list: Conflict[] = [];
      for (const m of [...conflicts.keys()].sort(compareStrings)) {
        for (const path of (conflicts.get(m) as FieldSet).paths()) list.push({ manager: m, path });
      }
      throw new Conflicts(list);
    }
    const out: ManagedFields = new Map();
    for (const [m, vs] of managers) {
      let set = vs.set;
      if (m !== workflow) {
        const clash = conflicts.get(m);
        if (clash !== undefined) set = set.difference(clash);
        if (!comparison.removed.empty()) set = set.difference(comparison.removed);
      }
      if (!set.empty()) out.set(m, { ...vs, set });
    }
    return { managers: out, comparison };
  }

  /** Ownership after a non-apply write of `next` over `live` by `manager`. */
  update(
    live: Json,
    next: Json,
    apiVersion: string,
    managers: ManagedFields,
    manager: string,
  ): ManagedFields {
    const settled = this.settle(live, next, this.reconcile(managers), manager, true);
    const { comparison } = settled;
    const own = settled.managers.get(manager)?.set ?? new FieldSet();
    const set = this.filter(
      own.difference(comparison.removed).union(comparison.modified).union(comparison.added),
    );
    const out = settled.managers;
    if (set.empty()) out.delete(manager);
    else out.set(manager, { set, apiVersion, applied: false });
    return out;
  }

  /**
   * The object after applying `config` over `live` and the new ownership; `object` is undefined
   * when the apply changes nothing.
   */
  apply(
    live: JsonObject,
    config: JsonObject,
    apiVersion: string,
    managers: ManagedFields,
    manager: string,
    force: boolean,
  ): { object: JsonObject | undefined; managers: ManagedFields } {
    const reconciled = this.reconcile(managers);
    const merged = (merge(live, config, this.type) ?? {}) as JsonObject;
    const last = reconciled.get(manager);
    const claimed = this.filter(toFieldSet(config, this.type));
    reconciled.set(manager, { set: claimed, apiVersion, applied: true });
    const pruned = this.prune(merged, reconciled, last);
    const settled = this.settle(live, pruned, reconciled, manager, force);
    return { object: valueEquals(live, pruned) ? undefined : pruned, managers: settled.managers };
  }

  /** Removes what `last` owned and the new configuration left out, unless another manager owns it. */
  private prune(merged: JsonObject, managers: ManagedFields, last: VersionedSet | undefined): JsonObject {
    if (last === undefined || last.set.empty()) return merged;
    const t = this.type;
    const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, t);
    const strip = (v: JsonObject, s: FieldSet) => (removeItems(v, s, t) ?? {}) as JsonObject;
    let pruned = strip(merged, named(last.set));
    // Put back what any manager (the applier's new configuration included) still owns.
    let owned = new FieldSet();
    for (const vs of managers.values()) owned = owned.union(vs.set);
    const mergedSet = named(toFieldSet(merged, t));
    pruned = strip(merged, mergedSet.difference(named(toFieldSet(pruned, t)).union(named(owned))));
    // Only what this manager applied last time may go; anything else removed comes back.
    const removed = mergedSet.difference(named(toFieldSet(pruned, t)));
    return strip(merged, removed.intersection(named(last.set)));
  }
}
