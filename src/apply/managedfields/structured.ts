// The innermost layer: ownership computed on the typed objects by the updater. An applied
// configuration must carry no managedFields and be of the served version.

import { badRequest } from '../../machinery/status.ts';
import { type FieldFilter, Updater } from '../merge/updater.ts';
import type { TypeRef } from '../typed/types.ts';
import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';

/** The object without its managedFields, which are bookkeeping, not content. */
export function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || !('managedFields' in meta))
    return obj;
  const { managedFields: _m, ...rest } = meta;
  return { ...obj, metadata: rest };
}

export class StructuredManager implements Manager {
  private readonly updater: Updater;

  constructor(
    type: TypeRef,
    private readonly apiVersion: string,
    filter?: FieldFilter,
  ) {
    this.updater = new Updater(type, filter);
  }

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    const fields = this.updater.update(
      withoutManagedFields(live),
      withoutManagedFields(next),
      this.apiVersion,
      managed.fields,
      manager,
    );
    return { object: next, managed: { fields, times: managed.times } };
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    if (config.apiVersion !== this.apiVersion) {
      throw badRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${String(config.apiVersion ?? '')}, expected: ${this.apiVersion}`,
      );
    }
    const meta = config.metadata;
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta) && meta.managedFields != null) {
      throw badRequest('metadata.managedFields must be nil');
    }
    const { object, managers } = this.updater.apply(
      withoutManagedFields(live),
      config,
      this.apiVersion,
      managed.fields,
      manager,
      force,
    );
    return { object, managed: { fields: managers, times: managed.times } };
  }
}
