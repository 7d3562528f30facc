// The field manager of one kind and subresource: the layers stacked as upstream stacks them, and
// the managedFields of objects read and written around them. Updates never fail on account of
// bookkeeping (a broken managedFields keeps the stored one); applies report conflicts as 409.

import type { ApiObject } from '../../machinery/object.ts';
import { applyConflict, fromStatus } from '../../machinery/status.ts';
import { pathToString } from '../fieldpath/element.ts';
import { Conflicts, type FieldFilter } from '../merge/updater.ts';
import { TypedError } from '../typed/list-items.ts';
import type { TypeRef } from '../typed/types.ts';
import { isObject, type JsonObject } from '../value.ts';
import { CapManagers } from './cap-managers.ts';
import { LastAppliedManager, LastAppliedUpdater } from './last-applied.ts';
import {
  conflictMessage,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  type Managed,
  printManager,
} from './managed.ts';
import type { Manager } from './manager.ts';
import { ManagerInfo } from './manager-info.ts';
import { SkipNonApplied } from './skip-non-applied.ts';
import { StripMeta } from './strip-meta.ts';
import { StructuredManager } from './structured.ts';
import { ManagedFieldsTimes } from './times.ts';
import { VersionCheck } from './version-check.ts';

/** An error upstream returns without a Status of its own: 500 with no reason. */
function plainError(message: string) {
  return fromStatus({ code: 500, message });
}

export interface FieldManagerOptions {
  group: string;
  version: string;
  kind: string;
  type: TypeRef;
  /** The subresource written through, '' for the main resource. */
  subresource: string;
  /** Fields this endpoint resets, which nobody can own through it. */
  filter?: FieldFilter;
}

function metaOf(obj: JsonObject): JsonObject {
  if (!isObject(obj.metadata)) obj.metadata = {};
  return obj.metadata as JsonObject;
}

function isEmptyEntry(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}

function setManagedFields(obj: JsonObject, managed: Managed): void {
  const meta = metaOf(obj);
  const entries = encodeManagedFields(managed);
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries as JsonObject[];
}

/** A computation in phases: it yields between them, so a caller may pause there. */
type Steps<T> = Generator<void, T, void>;

/** Runs every phase at once. */
function runNow<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the phases with `pause` awaited between each two. */
async function runPaced<T>(steps: Steps<T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

export class FieldManager {
  private readonly chain: Manager;
  private readonly apiVersion: string;

  constructor(private readonly o: FieldManagerOptions) {
    this.apiVersion = o.group === '' ? o.version : `${o.group}/${o.version}`;
    const empty = (): JsonObject => ({ apiVersion: this.apiVersion, kind: o.kind });
    this.chain = new VersionCheck(
      new LastAppliedUpdater(
        new LastAppliedManager(
          new SkipNonApplied(
            new CapManagers(
              new ManagerInfo(
                new ManagedFieldsTimes(
                  new StripMeta(new StructuredManager(o.type, this.apiVersion, o.filter)),
                ),
                this.apiVersion,
                o.subresource,
              ),
            ),
            empty,
          ),
          o.type,
          this.apiVersion,
        ),
      ),
      o.group,
      o.version,
      o.kind,
    );
  }

  /**
   * Records a non-apply write of `next` over `live` (null for a create) in next's managedFields.
   * Managed fields sent with the object replace the stored ones, except through a subresource.
   */
  update(liveObject: ApiObject | null, nextObject: ApiObject, manager: string): ApiObject {
    return runNow(this.updateSteps(liveObject, nextObject, manager));
  }

  /** As update, yielding through `pause` between its long phases (for a large object). */
  updatePaced(
    liveObject: ApiObject | null,
    nextObject: ApiObject,
    manager: string,
    pause: () => Promise<void>,
  ): Promise<ApiObject> {
    return runPaced(this.updateSteps(liveObject, nextObject, manager), pause);
  }

  private *updateSteps(
    liveObject: ApiObject | null,
    nextObject: ApiObject,
    manager: string,
  ): Steps<ApiObject> {
    // Objects here came from JSON (bodies, storage), so they are JSON values through and through.
    const live = liveObject as JsonObject | null;
    const next = nextObject as JsonObject;
    const base: JsonObject = live ?? { apiVersion: this.apiVersion, kind: this.o.kind };
    let managed: Managed;
    try {
      managed = this.startingPoint(base, next);
    } catch {
      managed = emptyManaged();
    }
    const request = { ...next, metadata: { ...metaOf(next) } };
    delete (request.metadata as JsonObject).managedFields;
    try {
      const out = this.chain.update(base, request, managed, manager);
      yield;
      const object = out.object ?? request;
      setManagedFields(object, out.managed);
      return object as ApiObject;
    } catch {
      // Bookkeeping must not fail a write: keep what was stored.
      const meta = metaOf(request);
      const stored = isObject(base.metadata) ? base.metadata.managedFields : undefined;
      if (stored !== undefined) meta.managedFields = stored;
      return request as ApiObject;
    }
  }

  private startingPoint(live: JsonObject, next: JsonObject): Managed {
    const liveFields = isObject(live.metadata) ? live.metadata.managedFields : undefined;
    if (this.o.subresource !== '') return decodeManagedFields(liveFields);
    const given = isObject(next.metadata) ? next.metadata.managedFields : undefined;
    // An empty list, or one empty entry (what an empty list becomes once decoded), clears them.
    if (Array.isArray(given) && (given.length === 0 || (given.length === 1 && isEmptyEntry(given[0])))) {
      return emptyManaged();
    }
    if (Array.isArray(given) && given.length > 0) {
      try {
        const managed = decodeManagedFields(given);
        if (managed.fields.size > 0) return managed;
      } catch {
        // Undecodable managed fields in the request are ignored in favour of the stored ones.
      }
    }
    return decodeManagedFields(liveFields);
  }

  /**
   * Applies `config` over `live` (an empty object of the kind when absent) for `manager`; answers
   * the object to store with its managedFields. Conflicts are a 409 naming each field and owner.
   */
  apply(liveObject: ApiObject | null, config: JsonObject, manager: string, force: boolean): ApiObject {
    return runNow(this.applySteps(liveObject, config, manager, force));
  }

  /** As apply, yielding through `pause` between its long phases (for a large configuration). */
  applyPaced(
    liveObject: ApiObject | null,
    config: JsonObject,
    manager: string,
    force: boolean,
    pause: () => Promise<void>,
  ): Promise<ApiObject> {
    return runPaced(this.applySteps(liveObject, config, manager, force), pause);
  }

  private *applySteps(
    liveObject: ApiObject | null,
    config: JsonObject,
    manager: string,
    force: boolean,
  ): Steps<ApiObject> {
    const live = liveObject as JsonObject | null;
    const base: JsonObject = live ?? { apiVersion: this.apiVersion, kind: this.o.kind };
    let managed: Managed;
    try {
      managed = decodeManagedFields(isObject(base.metadata) ? base.metadata.managedFields : undefined);
    } catch (err) {
      throw plainError(`failed to decode managed fields: ${(err as Error).message}`);
    }
    let out: ReturnType<Manager['apply']>;
    try {
      out = this.chain.apply(base, config, managed, manager, force);
    } catch (err) {
      if (err instanceof Conflicts) {
        throw applyConflict(
          err.conflicts.map((c) => ({
            reason: 'FieldManagerConflict',
            message: `conflict with ${printManager(c.manager)}`,
            field: pathToString(c.path),
          })),
          conflictMessage(err.conflicts),
        );
      }
      if (err instanceof TypedError) throw this.typedError(config, err);
      throw err;
    }
    yield;
    const object = structuredClone(out.object ?? { ...base, metadata: { ...metaOf(base) } });
    yield;
    setManagedFields(object, out.managed);
    return object as ApiObject;
  }

  /** Upstream reports a configuration that does not fit the schema as a plain (500) error. */
  private typedError(config: JsonObject, err: TypedError) {
    const meta = isObject(config.metadata) ? config.metadata : {};
    const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
    const name = typeof meta.name === 'string' ? meta.name : '';
    const gvk = `${this.o.group}/${this.o.version}, Kind=${this.o.kind}`;
    return plainError(`failed to create typed patch object (${ns}/${name}; ${gvk}): ${err.message}`);
  }
}
