// metadata.managedFields read and written. Inside, a manager is identified by the JSON of its
// entry without fields and time (and without apiVersion for appliers, who own across versions), so
// one manager has one entry per operation and subresource. Entries are written sorted: operation,
// time, manager, apiVersion, subresource.

import { goJson, goQuote } from '../../machinery/field-errors.ts';
import { pathToString } from '../fieldpath/element.ts';
import { fromFieldsV1, toFieldsV1 } from '../fieldpath/fields-v1.ts';
import type { Conflict, ManagedFields } from '../merge/updater.ts';
import { compareStrings } from '../value.ts';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** Ownership plus when each manager last changed something. */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export function managerIdentifier(e: {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}): string {
  const parts = [`"manager":${goJson(e.manager)}`, `"operation":${goJson(e.operation)}`];
  if (e.operation === 'Update' && e.apiVersion) parts.push(`"apiVersion":${goJson(e.apiVersion)}`);
  if (e.subresource) parts.push(`"subresource":${goJson(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

interface Identity {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}

function parseIdentifier(id: string): Identity {
  return JSON.parse(id) as Identity;
}

/**
 * Decoded forms of frozen entry lists (the watch cache's, shared by every write to an object):
 * every write decodes the stored entries, and a frozen list cannot change under its decoding.
 */
const decodedFrozen = new WeakMap<object, Managed>();

/** Reads entries; throws with upstream's reason when one is malformed. */
export function decodeManagedFields(entries: unknown): Managed {
  if (entries === undefined || entries === null) return emptyManaged();
  const frozen = typeof entries === 'object' && Object.isFrozen(entries);
  const known = frozen ? decodedFrozen.get(entries) : undefined;
  // Sets are never changed in place, so a copy of the two maps is a private copy.
  if (known !== undefined) return { fields: new Map(known.fields), times: new Map(known.times) };
  const managed = decode(entries);
  if (frozen) decodedFrozen.set(entries, { fields: new Map(managed.fields), times: new Map(managed.times) });
  return managed;
}

function decode(entries: unknown): Managed {
  const managed = emptyManaged();
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = (raw ?? {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update')
      throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') {
      throw new Error(`missing fieldsType in managed fields entry ${i}`);
    }
    if (e.fieldsType !== 'FieldsV1')
      throw new Error(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const id = managerIdentifier({
      manager: e.manager ?? '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      subresource: e.subresource,
    });
    managed.fields.set(id, {
      set: fromFieldsV1(e.fieldsV1 ?? {}),
      apiVersion: e.apiVersion,
      applied: e.operation === 'Apply',
    });
    managed.times.set(id, e.time);
  });
  return managed;
}

function seconds(t: string | undefined): number {
  return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
}

/** The entries to store; undefined when nobody owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const who = parseIdentifier(id);
    const e: ManagedFieldsEntry = { manager: who.manager };
    e.operation = vs.applied ? 'Apply' : who.operation;
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(vs.set);
    if (who.subresource) e.subresource = who.subresource;
    out.push(e);
  }
  return out.sort(
    (p, q) =>
      compareStrings(p.operation ?? '', q.operation ?? '') ||
      seconds(p.time) - seconds(q.time) ||
      compareStrings(p.manager ?? '', q.manager ?? '') ||
      compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
      compareStrings(p.subresource ?? '', q.subresource ?? ''),
  );
}

/** A manager as conflict messages name it: `"kubectl"`, `"x" with subresource "status" using v1`. */
export function printManager(id: string): string {
  let who: Identity;
  try {
    who = parseIdentifier(id);
  } catch {
    return goQuote(id);
  }
  let s = goQuote(who.manager ?? '');
  if (who.subresource) s += ` with subresource ${goQuote(who.subresource)}`;
  if (who.operation === 'Update') s += ` using ${who.apiVersion ?? ''}`;
  return s;
}

/** Upstream's conflict message: one line for one conflict, grouped by manager otherwise. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0];
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathToString(c.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(pathToString(c.path));
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m) ?? []) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
