// Per-kind behaviour the generic store defers to: how a kind is prepared, defaulted, validated and
// compared. Each API group's folder implements one Strategy per kind.

import type { FieldError } from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';

export interface Strategy {
  namespaced: boolean;
  /** PUT of a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion overwrites whatever is stored. */
  allowUnconditionalUpdate: boolean;
  /** Whether metadata.generation is kept (set to 1, bumped on spec changes). */
  tracksGeneration: boolean;
  /** The kind has a status that only the /status sub-resource may change. */
  hasStatus: boolean;
  /** A delete answers with the object (true) or with a Success Status (false). */
  returnDeletedObject: boolean;
  /** Validation of metadata.name (DNS subdomain, label, path segment...): messages, empty when valid. */
  validateName(name: string, prefix: boolean): string[];

  /** Clears what a client may not set on create (status, for kinds with a status). */
  prepareForCreate?(obj: ApiObject): void;
  /** Carries over what an update of the main resource may not change (status). */
  prepareForUpdate?(obj: ApiObject, old: ApiObject): void;
  /**
   * For /status: `obj` is the stored object with the client's status; a kind whose upstream status
   * writes also carry some metadata (a Deployment's annotations) takes it from `sent`, the body.
   */
  prepareForStatusUpdate?(obj: ApiObject, old: ApiObject, sent: ApiObject): void;
  /**
   * Writable sub-resources besides status (a namespace's finalize): the next object from the
   * client's body and the stored object.
   */
  prepareForSubresourceUpdate?(subresource: string, obj: ApiObject, old: ApiObject): ApiObject;
  /** Fills in defaults (after prepare, before validation). */
  applyDefaults?(obj: ApiObject): void;
  validate(obj: ApiObject): FieldError[];
  /** `subresource` names the endpoint written (`status`, ...); unset for the resource itself. */
  validateUpdate(obj: ApiObject, old: ApiObject, subresource?: string): FieldError[];
  /**
   * A write's errors, hand-written, handed on: declarative validation's comparison for kinds with
   * declarative rules (registry/declarative-validation.ts); `old` is undefined on create.
   */
  checkValidation?(
    errs: FieldError[],
    obj: ApiObject,
    old: ApiObject | undefined,
    subresource: string,
  ): FieldError[];
  /** Whether the change from old to obj counts as a spec change (generation bump). */
  specChanged?(obj: ApiObject, old: ApiObject): boolean;
  /** Finalizers besides metadata.finalizers that hold a deletion (a namespace's spec.finalizers). */
  hasPendingFinalizers?(obj: ApiObject): boolean;
  /** Marks an object that enters its terminating phase (a namespace's status.phase). */
  prepareForTerminate?(obj: ApiObject): void;
  /**
   * Field selectors the kind supports beyond metadata.name and metadata.namespace, each with the
   * value it reads from an object (a secret's `type`, a namespace's `status.phase`).
   */
  selectableFields?: Readonly<Record<string, (obj: ApiObject) => string>>;
  /**
   * Kinds deleted gracefully (a Pod): the grace period in seconds a first delete of `obj` waits,
   * from the request's gracePeriodSeconds (`requested`, never negative here) or the object's own
   * default; 0 removes the object at once (after marking it). Undefined deletes it as any other
   * kind. A graceful delete stores deletionTimestamp = now + grace and keeps the object; later
   * deletes may only shorten the period.
   */
  gracefulDeletion?(obj: ApiObject, requested: number | undefined): number | undefined;
}
