// The generic store: create, get, update and delete of one resource over Storage, with the
// per-kind strategy deciding what is prepared, defaulted and validated. Every failure leaves a
// Status-ready ApiError and the stored data unchanged.

import { randomUUID } from 'node:crypto';
import { type FieldError, invalid as invalidField, newPath } from '../machinery/field-errors.ts';
import { defaultFieldLabelConversion, objectMetaFieldsSet, parseFieldSelector } from '../machinery/fields.ts';
import { parseLabelSelector } from '../machinery/labels.ts';
import type { ApiObject, ObjectMeta } from '../machinery/object.ts';
import {
  badRequest,
  conflict,
  type GroupResource,
  invalid,
  OPTIMISTIC_LOCK_MESSAGE,
  successStatus,
} from '../machinery/status.ts';
import { generateName, validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/names.ts';
import { isStorageError, KeyExistsError, KeyNotFoundError } from '../storage/errors.ts';
import type { Preconditions, Predicate, Storage } from '../storage/interface.ts';
import { checkPreconditions } from '../storage/preconditions.ts';
import type { ResourceInfo } from './resource.ts';
import { fromStorageError } from './storage-errors.ts';
import type { Strategy } from './strategy.ts';

/** How many fresh names a generateName create tries before giving up on collisions. */
const GENERATE_NAME_ATTEMPTS = 8;

export interface WriteOptions {
  dryRun?: boolean;
}

export interface ListRequest {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface ListObject {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: ApiObject[];
}

export interface UpdateResult {
  object: ApiObject;
  /** True when the update created the object (create-on-update). */
  created: boolean;
}

/** RFC 3339 at second precision in UTC, the form metadata timestamps take on the wire. */
export function nowTimestamp(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

function metaOf(obj: ApiObject): ObjectMeta {
  if (obj.metadata === null || typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
    obj.metadata = {};
  return obj.metadata;
}

export class GenericStore {
  readonly groupResource: GroupResource;

  constructor(
    private readonly storage: Storage,
    readonly resource: ResourceInfo,
    private readonly strategy: Strategy,
    /** Root of this resource's keys, e.g. `/configmaps`. */
    private readonly keyRoot = `/${resource.group === '' ? '' : `${resource.group}/`}${resource.resource}`,
  ) {
    this.groupResource = { group: resource.group, resource: resource.resource };
  }

  keyFor(namespace: string, name: string): string {
    return this.strategy.namespaced ? `${this.keyRoot}/${namespace}/${name}` : `${this.keyRoot}/${name}`;
  }

  /** Prefix of every key in a namespace, or of the whole resource for '' (and cluster scope). */
  prefixFor(namespace: string): string {
    return this.strategy.namespaced && namespace !== ''
      ? `${this.keyRoot}/${namespace}/`
      : `${this.keyRoot}/`;
  }

  async get(namespace: string, name: string): Promise<ApiObject> {
    try {
      return this.withTypeMeta(await this.storage.get(this.keyFor(namespace, name)));
    } catch (err) {
      throw fromStorageError(err, this.groupResource, name);
    }
  }

  /** A list at the latest revision, filtered by selectors and paged. */
  async list(namespace: string, req: ListRequest = {}): Promise<ListObject> {
    const predicate = this.selectorPredicate(req.labelSelector, req.fieldSelector);
    try {
      const res = await this.storage.list(this.prefixFor(namespace), {
        predicate,
        limit: req.limit,
        continue: req.continue,
      });
      const metadata: ListObject['metadata'] = { resourceVersion: String(res.revision) };
      if (res.continue !== undefined) metadata.continue = res.continue;
      if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount;
      // Items of a built-in list carry no apiVersion or kind of their own, as upstream encodes them.
      const items = res.items.map(({ apiVersion: _v, kind: _k, ...rest }) => rest as ApiObject);
      return { apiVersion: this.apiVersion, kind: this.resource.listKind, metadata, items };
    } catch (err) {
      throw fromStorageError(err, this.groupResource, '');
    }
  }

  /** Parses selectors once; undefined when they select everything, so storage can count. */
  selectorPredicate(labelSelector?: string, fieldSelector?: string): Predicate | undefined {
    const labels = parseLabelSelector(labelSelector ?? '');
    const fields = parseFieldSelector(fieldSelector ?? '').transform(defaultFieldLabelConversion);
    if (labels.empty() && fields.empty()) return undefined;
    const namespaced = this.strategy.namespaced;
    return (obj) =>
      labels.matches(obj.metadata?.labels) && fields.matches(objectMetaFieldsSet(obj.metadata, namespaced));
  }

  async create(namespace: string, obj: ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    const meta = metaOf(obj);
    this.checkNamespace(namespace, meta);
    const wantsGeneratedName = (meta.name === undefined || meta.name === '') && !!meta.generateName;
    for (let attempt = 1; ; attempt++) {
      if (wantsGeneratedName) meta.name = generateName(meta.generateName as string);
      this.prepareForCreate(obj);
      this.validateOrThrow(obj, this.validateCreate(obj));
      if (opts.dryRun) {
        await this.assertAbsent(namespace, meta.name as string);
        return obj;
      }
      try {
        return this.withTypeMeta(await this.storage.create(this.keyFor(namespace, meta.name as string), obj));
      } catch (err) {
        if (wantsGeneratedName && isStorageError(err, 'KeyExists') && attempt < GENERATE_NAME_ATTEMPTS)
          continue;
        throw fromStorageError(err, this.groupResource, meta.name as string);
      }
    }
  }

  async update(
    namespace: string,
    name: string,
    obj: ApiObject,
    opts: WriteOptions = {},
  ): Promise<UpdateResult> {
    const meta = metaOf(obj);
    if (meta.name !== undefined && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    }
    meta.name = name;
    this.checkNamespace(namespace, meta);
    const requested = meta.resourceVersion;
    let created = false;
    const write = async ({ current }: { current: ApiObject | null }): Promise<ApiObject> => {
      const next = structuredClone(obj);
      if (current === null) {
        if (!this.strategy.allowCreateOnUpdate)
          throw fromStorageError(new KeyNotFoundError(key), this.groupResource, name);
        created = true;
        delete metaOf(next).resourceVersion;
        this.prepareForCreate(next);
        this.validateOrThrow(next, this.validateCreate(next));
        return next;
      }
      const old = current;
      const nextMeta = metaOf(next);
      if (requested === undefined || requested === '') {
        if (!this.strategy.allowUnconditionalUpdate) {
          throw this.invalidError(name, [
            invalidField(newPath('metadata', 'resourceVersion'), '', 'must be specified for an update'),
          ]);
        }
      } else if (requested !== old.metadata?.resourceVersion) {
        throw conflict(this.groupResource, name, OPTIMISTIC_LOCK_MESSAGE);
      }
      // What a client cannot change through an update.
      nextMeta.creationTimestamp = old.metadata?.creationTimestamp;
      if (nextMeta.uid === undefined || nextMeta.uid === '') nextMeta.uid = old.metadata?.uid;
      // Unconditional updates apply to the stored version; storage strips it again at rest.
      nextMeta.resourceVersion = old.metadata?.resourceVersion;
      if (old.metadata?.deletionTimestamp !== undefined)
        nextMeta.deletionTimestamp = old.metadata.deletionTimestamp;
      this.strategy.prepareForUpdate?.(next, old);
      this.strategy.applyDefaults?.(next);
      if (this.strategy.tracksGeneration) {
        const gen = old.metadata?.generation ?? 1;
        nextMeta.generation = this.strategy.specChanged?.(next, old) ? gen + 1 : gen;
      } else {
        delete nextMeta.generation;
      }
      const errs = [
        ...validateObjectMetaUpdate(nextMeta, old.metadata),
        ...this.validateCreate(next),
        ...this.strategy.validateUpdate(next, old),
      ];
      this.validateOrThrow(next, errs);
      delete nextMeta.resourceVersion;
      return next;
    };
    const key = this.keyFor(namespace, name);
    try {
      if (opts.dryRun) {
        let current: ApiObject | null = null;
        try {
          current = await this.storage.get(key);
        } catch (err) {
          if (!isStorageError(err, 'KeyNotFound')) throw err;
        }
        const object = await write({ current });
        return { object: this.withTypeMeta(object), created };
      }
      const object = await this.storage.guaranteedUpdate(key, (input) => write(input), {
        ignoreNotFound: true,
      });
      return { object: this.withTypeMeta(object), created };
    } catch (err) {
      throw fromStorageError(err, this.groupResource, name);
    }
  }

  /** Deletes and answers the deleted object or a Success Status, as the kind does upstream. */
  async delete(
    namespace: string,
    name: string,
    opts: WriteOptions & { preconditions?: Preconditions } = {},
  ): Promise<ApiObject> {
    try {
      const key = this.keyFor(namespace, name);
      const gone = opts.dryRun
        ? await this.storage.get(key)
        : await this.storage.delete(key, { preconditions: opts.preconditions });
      if (opts.dryRun) checkPreconditions(key, opts.preconditions, gone);
      if (this.strategy.returnDeletedObject) return this.withTypeMeta(gone);
      return successStatus({
        name,
        group: this.resource.group === '' ? undefined : this.resource.group,
        kind: this.resource.resource,
        uid: gone.metadata?.uid,
      }) as unknown as ApiObject;
    } catch (err) {
      throw fromStorageError(err, this.groupResource, name);
    }
  }

  private checkNamespace(namespace: string, meta: ObjectMeta): void {
    if (!this.strategy.namespaced) {
      // Cluster-scoped objects carry no namespace, whatever the body says.
      delete meta.namespace;
      return;
    }
    if (meta.namespace === undefined || meta.namespace === '') meta.namespace = namespace;
    else if (meta.namespace !== namespace) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
  }

  private prepareForCreate(obj: ApiObject): void {
    const meta = metaOf(obj);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.resourceVersion;
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    if (this.strategy.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    this.strategy.prepareForCreate?.(obj);
    this.strategy.applyDefaults?.(obj);
    obj.apiVersion = this.apiVersion;
    obj.kind = this.resource.kind;
  }

  private validateCreate(obj: ApiObject): FieldError[] {
    return [
      ...validateObjectMeta(obj.metadata, {
        namespaced: this.strategy.namespaced,
        nameValidator: (n, prefix) => this.strategy.validateName(n, prefix),
      }),
      ...this.strategy.validate(obj),
    ];
  }

  private validateOrThrow(obj: ApiObject, errs: FieldError[]): void {
    if (errs.length > 0) throw this.invalidError(String(obj.metadata?.name ?? ''), errs);
  }

  private invalidError(name: string, errs: FieldError[]) {
    return invalid({ group: this.resource.group, kind: this.resource.kind }, name, errs);
  }

  private async assertAbsent(namespace: string, name: string): Promise<void> {
    try {
      await this.storage.get(this.keyFor(namespace, name));
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return;
      throw fromStorageError(err, this.groupResource, name);
    }
    throw fromStorageError(new KeyExistsError(this.keyFor(namespace, name)), this.groupResource, name);
  }

  private get apiVersion(): string {
    return this.resource.group === ''
      ? this.resource.version
      : `${this.resource.group}/${this.resource.version}`;
  }

  private withTypeMeta(obj: ApiObject): ApiObject {
    obj.apiVersion = this.apiVersion;
    obj.kind = this.resource.kind;
    return obj;
  }
}
