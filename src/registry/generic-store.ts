// The generic store: create, get, update and delete of one resource over Storage, with the
// per-kind strategy deciding what is prepared, defaulted and validated. Every failure leaves a
// Status-ready ApiError and the stored data unchanged.

import { randomUUID } from 'node:crypto';
import {
  deepEqual,
  type FieldError,
  forbidden as forbiddenField,
  invalid as invalidField,
  newPath,
} from '../machinery/field-errors.ts';
import {
  defaultFieldLabelConversion,
  objectMetaFieldsSet,
  parseFieldSelector,
  supportedFieldLabels,
} from '../machinery/fields.ts';
import { parseLabelSelector } from '../machinery/labels.ts';
import type { ApiObject, ObjectMeta } from '../machinery/object.ts';
import {
  badRequest,
  conflict,
  type GroupResource,
  invalid,
  methodNotSupported,
  OPTIMISTIC_LOCK_MESSAGE,
  statusOf,
  successStatus,
} from '../machinery/status.ts';
import { generateName, validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/names.ts';
import { type EncodedItem, EncodedObject, type EncodedRun } from '../storage/encoded.ts';
import { isStorageError, KeyExistsError, KeyNotFoundError } from '../storage/errors.ts';
import type {
  Preconditions,
  Predicate,
  ReadAt,
  Revision,
  Storage,
  WatchEvent,
  WatchSink,
} from '../storage/interface.ts';
import { checkPreconditions } from '../storage/preconditions.ts';
import { IterationPump } from '../storage/watch-queue.ts';
import { finalizersForPolicy, type PropagationPolicy } from './deletion-propagation.ts';
import type { ResourceInfo } from './resource.ts';
import { fromStorageError } from './storage-errors.ts';
import type { Strategy } from './strategy.ts';

/** Deletes of one delete-collection in flight at once. */
const DELETE_COLLECTION_WORKERS = 16;

/** How many fresh names a generateName create tries before giving up on collisions. */
const GENERATE_NAME_ATTEMPTS = 8;

export interface WriteOptions {
  dryRun?: boolean;
  /**
   * Validating admission: runs after the strategy prepared and validated the object and before
   * storage (for deletes, with the stored object); throwing rejects the write.
   */
  admit?: (obj: ApiObject, old: ApiObject | null) => Promise<void>;
  /**
   * Records who changed which fields (metadata.managedFields) once the object to store is known:
   * `live` is the stored object, null for a create. Answers the object to store.
   */
  track?: (live: ApiObject | null, next: ApiObject) => ApiObject | Promise<ApiObject>;
  /**
   * Called between the write's long phases (tracking, validation, admission, storage): a handler
   * of a large body yields to the event loop there, so that its write stalls other requests for
   * its longest phase rather than for all of them.
   */
  pause?: () => Promise<void>;
}

export interface UpdateOptions extends WriteOptions {
  /** `status` writes only the status; anything else (or nothing) writes all but the status. */
  subresource?: string;
}

export interface DeleteRequest extends WriteOptions {
  preconditions?: Preconditions;
  /** What happens to dependents; unset keeps whatever propagation finalizers the object has. */
  propagationPolicy?: PropagationPolicy;
  /**
   * Remove an object whose stored bytes cannot be decoded, without reading it: no finalizers, no
   * preconditions. Refused for an object that reads fine.
   */
  ignoreStoreReadError?: boolean;
  /**
   * DeleteOptions.gracePeriodSeconds, for kinds that delete gracefully (Strategy.gracefulDeletion);
   * a negative value counts as 1, as upstream's delete path treats it.
   */
  gracePeriodSeconds?: number;
}

export interface WatchRequest {
  labelSelector?: string;
  fieldSelector?: string;
  /** Events after this revision; undefined starts with the current state as ADDED events. */
  revision?: Revision;
  allowBookmarks?: boolean;
  /**
   * A streaming list: true sends the state read `at` as ADDED events, then (with bookmarks) a
   * BOOKMARK carrying `initialEventsEnd` annotations, then changes; false starts after `revision`,
   * or at the most recent revision when none is given, without the state.
   */
  sendInitialEvents?: boolean;
  at?: ReadAt;
  /** Annotation names the initial-events-end bookmark carries. */
  initialEventsEnd?: readonly string[];
}

/** One event as it goes on the wire: the object carries its apiVersion and kind. */
export interface WireWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: ApiObject;
  /**
   * The object as the watch cache holds it (its body, without kind and apiVersion), for writers
   * that splice bytes; `object` is then decoded only when read.
   */
  encoded?: EncodedObject;
  /** The object's resourceVersion, when known without decoding it (events from the watch cache). */
  revision?: number;
}

/** A watch in wire events: iterated, or handed to a sink (see WatchStream). */
export interface WireWatch extends AsyncIterable<WireWatchEvent> {
  stop(): void;
  attach(sink: WatchSink<WireWatchEvent>, onEnd: (error?: unknown) => void): void;
  resume(): void;
  /** As WatchStream's: resume() hands over every waiting event before it returns (for now). */
  readonly resumesInStep?: boolean;
}

export interface ListRequest {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  at?: ReadAt;
}

export interface ListObject {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  readonly items: ApiObject[];
  /** The items as JSON bodies (no kind or apiVersion, as list items are written), from the watch cache. */
  encoded?: readonly EncodedItem[];
  /** The same, as a JSON writer takes them (runs of items may come already joined). */
  runs?: readonly EncodedRun[];
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

/** Thrown inside a storage delete to abandon it when a finalizer appeared since the read. */
class HeldMeanwhile extends Error {}

/** Thrown inside a graceful delete's update when the fresh object calls for another course. */
class GraceChanged extends Error {}

/** What a delete of a kind with graceful deletion does with the object as it stands. */
type GraceDecision =
  | { kind: 'none' }
  | { kind: 'pending' }
  | { kind: 'graceful'; grace: number; deletionTimestamp: string; firstMark: boolean };

/** A wire timestamp (second precision, UTC) for a time in milliseconds. */
function timestampAt(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** An object being deleted may lose finalizers but not gain any. */
function finalizersWhileDeleting(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  if (old.deletionTimestamp === undefined) return [];
  const before = new Set(old.finalizers ?? []);
  const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return [];
  return [
    forbiddenField(
      newPath('metadata', 'finalizers'),
      `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
    ),
  ];
}

/** Field selector fields every kind has, read from metadata alone. */
const META_FIELDS = new Set(['metadata.name', 'metadata.namespace']);

function stripTypeMeta({ apiVersion: _v, kind: _k, ...rest }: ApiObject): ApiObject {
  return rest as ApiObject;
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
    /** Root of this resource's keys, e.g. `/configmaps` (an alias's store shares its kind's). */
    readonly keyRoot = `/${resource.group === '' ? '' : `${resource.group}/`}${resource.resource}`,
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

  async get(namespace: string, name: string, at?: ReadAt): Promise<ApiObject> {
    try {
      return this.withTypeMeta(await this.storage.get(this.keyFor(namespace, name), { at }));
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
        at: req.at,
      });
      const metadata: ListObject['metadata'] = { resourceVersion: String(res.revision) };
      if (res.continue !== undefined) metadata.continue = res.continue;
      if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount;
      // Items of a built-in list carry no apiVersion or kind of their own, as upstream encodes them.
      const { apiVersion } = this;
      const kind = this.resource.listKind;
      const encoded = res.encoded;
      if (encoded === undefined) return { apiVersion, kind, metadata, items: res.items.map(stripTypeMeta) };
      // Bodies carry no TypeMeta already; the items are decoded only if someone reads them.
      let items: ApiObject[] | undefined;
      const list: ListObject = {
        apiVersion,
        kind,
        metadata,
        get items() {
          items ??= res.items.map(stripTypeMeta);
          return items;
        },
      };
      // Not enumerable: encoders that write the list itself (YAML, pretty JSON) must not see them.
      Object.defineProperty(list, 'runs', { value: res.runs ?? encoded, enumerable: false });
      return Object.defineProperty(list, 'encoded', { value: encoded, enumerable: false });
    } catch (err) {
      throw fromStorageError(err, this.groupResource, '');
    }
  }

  /** Parses selectors once; undefined when they select everything, so storage can count. */
  selectorPredicate(labelSelector?: string, fieldSelector?: string): Predicate | undefined {
    const labels = parseLabelSelector(labelSelector ?? '');
    const extra = this.strategy.selectableFields;
    const conversion =
      extra === undefined
        ? defaultFieldLabelConversion
        : supportedFieldLabels(['metadata.name', 'metadata.namespace', ...Object.keys(extra)]);
    const fields = parseFieldSelector(fieldSelector ?? '').transform(conversion);
    if (labels.empty() && fields.empty()) return undefined;
    const namespaced = this.strategy.namespaced;
    // A selector on metadata alone lets the watch cache select without decoding objects.
    const metadataOnly = fields.requirements.every((r) => META_FIELDS.has(r.field));
    // Only the fields the selector names are read: a watch cache evaluates this for every watcher
    // of every event (each node agent watches Pods by its own spec.nodeName), and a field it does
    // not name counts for nothing in the match.
    const readers: [string, (obj: ApiObject) => string][] = [];
    if (extra !== undefined && !metadataOnly) {
      for (const field of new Set(fields.requirements.map((r) => r.field))) {
        const read = Object.hasOwn(extra, field) ? extra[field] : undefined;
        if (read !== undefined) readers.push([field, read]);
      }
    }
    const fieldSet = (obj: ApiObject) => {
      const set = objectMetaFieldsSet(obj.metadata, namespaced);
      for (const [name, read] of readers) set[name] = read(obj);
      return set;
    };
    const predicate = (obj: ApiObject) =>
      labels.matches(obj.metadata?.labels) && fields.matches(fieldSet(obj));
    // Selectors as parsed and normalized: watchers that wrote them differently still share a key.
    const key = `${this.resource.group}/${this.resource.resource} ${labels.toString()} ${fields.toString()}`;
    return Object.assign(predicate, { metadataOnly, key });
  }

  async create(namespace: string, obj: ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    const meta = metaOf(obj);
    this.checkNamespace(namespace, meta);
    const wantsGeneratedName = (meta.name === undefined || meta.name === '') && !!meta.generateName;
    for (let attempt = 1; ; attempt++) {
      if (wantsGeneratedName) meta.name = generateName(meta.generateName as string);
      this.prepareForCreate(obj);
      const target = opts.track ? await opts.track(null, obj) : obj;
      await opts.pause?.();
      this.validateOrThrow(target, this.checked(this.validateCreate(target), target, undefined, ''));
      await opts.pause?.();
      await opts.admit?.(target, null);
      if (opts.dryRun) {
        await this.assertAbsent(namespace, meta.name as string);
        return target;
      }
      try {
        return this.withTypeMeta(
          await this.storage.create(this.keyFor(namespace, meta.name as string), target),
        );
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
    opts: UpdateOptions = {},
  ): Promise<UpdateResult> {
    this.adoptTarget(namespace, name, obj);
    return this.writeOver(namespace, name, obj, opts);
  }

  /**
   * Writes `change` of the current object. It runs inside the storage's update loop, as upstream
   * applies a patch: on the watch cache's copy first where a read costs a round trip, and again on
   * a fresh read when that copy was stale or `change` refused it, so a stale copy never decides the
   * outcome and a lost race is simply retried. A missing object is NotFound: a change cannot create.
   */
  async patch(
    namespace: string,
    name: string,
    change: (current: ApiObject) => ApiObject | Promise<ApiObject>,
    opts: UpdateOptions = {},
  ): Promise<ApiObject> {
    const changed = async (current: ApiObject) => {
      const copy = this.withTypeMeta(structuredClone(current));
      await opts.pause?.();
      const obj = await change(copy);
      await opts.pause?.();
      this.adoptTarget(namespace, name, obj);
      return obj;
    };
    return (await this.writeOver(namespace, name, changed, opts)).object;
  }

  /** The name on the URL is the object's; a different one in the body is refused. */
  private adoptTarget(namespace: string, name: string, obj: ApiObject): void {
    const meta = metaOf(obj);
    if (meta.name !== undefined && meta.name !== name) {
      throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    }
    meta.name = name;
    this.checkNamespace(namespace, meta);
  }

  /** An update to `desired`, or to what a change makes of the current object (never a create). */
  private async writeOver(
    namespace: string,
    name: string,
    desired: ApiObject | ((current: ApiObject) => Promise<ApiObject>),
    opts: UpdateOptions,
  ): Promise<UpdateResult> {
    const toStatus = opts.subresource === 'status';
    let created = false;
    const write = async ({ current }: { current: ApiObject | null }): Promise<ApiObject | null> => {
      if (current === null) {
        if (!this.strategy.allowCreateOnUpdate || toStatus || typeof desired === 'function')
          throw fromStorageError(new KeyNotFoundError(key), this.groupResource, name);
        let next = structuredClone(desired);
        created = true;
        delete metaOf(next).resourceVersion;
        this.prepareForCreate(next);
        if (opts.track) next = await opts.track(null, next);
        await opts.pause?.();
        this.validateOrThrow(next, this.checked(this.validateCreate(next), next, undefined, ''));
        await opts.pause?.();
        await opts.admit?.(next, null);
        return next;
      }
      const old = current;
      const obj = typeof desired === 'function' ? await desired(current) : desired;
      const requested = obj.metadata?.resourceVersion;
      if (requested === undefined || requested === '') {
        if (!this.strategy.allowUnconditionalUpdate) {
          throw this.invalidError(name, [
            invalidField(newPath('metadata', 'resourceVersion'), '', 'must be specified for an update'),
          ]);
        }
      } else if (requested !== old.metadata?.resourceVersion) {
        throw conflict(this.groupResource, name, OPTIMISTIC_LOCK_MESSAGE);
      }
      let next = toStatus
        ? this.statusOnly(obj, old)
        : opts.subresource
          ? this.subresourceOnly(opts.subresource, obj, old)
          : this.allButStatus(obj, old);
      await opts.pause?.();
      this.strategy.applyDefaults?.(next);
      if (this.strategy.tracksGeneration) {
        const gen = old.metadata?.generation ?? 1;
        metaOf(next).generation = !toStatus && this.strategy.specChanged?.(next, old) ? gen + 1 : gen;
      } else {
        delete metaOf(next).generation;
      }
      if (opts.track) next = await opts.track(old, next);
      await opts.pause?.();
      const nextMeta = metaOf(next);
      const errs = this.checked(
        [
          ...validateObjectMetaUpdate(nextMeta, old.metadata),
          ...this.validateCreate(next),
          ...this.strategy.validateUpdate(next, old, opts.subresource),
          ...finalizersWhileDeleting(nextMeta, old.metadata ?? {}),
        ],
        next,
        old,
        opts.subresource ?? '',
      );
      this.validateOrThrow(next, errs);
      await opts.pause?.();
      await opts.admit?.(next, old);
      await opts.pause?.();
      // A write that changes nothing is not written, as upstream's storage skips identical bytes:
      // no new revision, no watch event. Compared by value, since key order is not meaning.
      if (
        deepEqual({ ...next, metadata: { ...nextMeta, resourceVersion: old.metadata?.resourceVersion } }, old)
      ) {
        return null;
      }
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
        const object = (await write({ current })) ?? (current as ApiObject);
        return { object: this.withTypeMeta(object), created };
      }
      const object = await this.storage.guaranteedUpdate(key, (input) => write(input), {
        ignoreNotFound: true,
      });
      // The last finalizer of an object being deleted is gone: the deletion completes now.
      // An object still inside its grace period stays: whoever runs it deletes it when done.
      if (
        object.metadata?.deletionTimestamp !== undefined &&
        (object.metadata.deletionGracePeriodSeconds ?? 0) === 0 &&
        !this.holdsDeletion(object)
      ) {
        await this.removeIfUnchanged(key, object);
      }
      return { object: this.withTypeMeta(object), created };
    } catch (err) {
      throw fromStorageError(err, this.groupResource, name);
    }
  }

  /** The stored object with the client's changes except to status (a write of the main resource). */
  private allButStatus(obj: ApiObject, old: ApiObject): ApiObject {
    const next = structuredClone(obj);
    const nextMeta = metaOf(next);
    // What a client cannot change through an update.
    nextMeta.creationTimestamp = old.metadata?.creationTimestamp;
    if (nextMeta.uid === undefined || nextMeta.uid === '') nextMeta.uid = old.metadata?.uid;
    // Unconditional updates apply to the stored version; storage strips it again at rest.
    nextMeta.resourceVersion = old.metadata?.resourceVersion;
    if (old.metadata?.deletionTimestamp !== undefined) {
      nextMeta.deletionTimestamp = old.metadata.deletionTimestamp;
      nextMeta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    } else {
      delete nextMeta.deletionTimestamp;
      delete nextMeta.deletionGracePeriodSeconds;
    }
    if (this.strategy.hasStatus) {
      if (old.status === undefined) delete next.status;
      else next.status = structuredClone(old.status);
    }
    this.strategy.prepareForUpdate?.(next, old);
    return next;
  }

  /** The stored object with only its status replaced by the client's (a write of /status). */
  private statusOnly(obj: ApiObject, old: ApiObject): ApiObject {
    const next = structuredClone(old);
    if (obj.status === undefined) delete next.status;
    else next.status = structuredClone(obj.status);
    // Field ownership is bookkeeping of the write itself (an apply through /status computes it).
    const managed = obj.metadata?.managedFields;
    if (managed !== undefined) metaOf(next).managedFields = structuredClone(managed);
    this.strategy.prepareForStatusUpdate?.(next, old, obj);
    return next;
  }

  private subresourceOnly(subresource: string, obj: ApiObject, old: ApiObject): ApiObject {
    const build = this.strategy.prepareForSubresourceUpdate;
    if (build === undefined) throw methodNotSupported(this.groupResource, 'update');
    return build(subresource, structuredClone(obj), structuredClone(old));
  }

  /** Whether finalizers still hold the object's deletion. */
  private holdsDeletion(obj: ApiObject): boolean {
    return (obj.metadata?.finalizers?.length ?? 0) > 0 || !!this.strategy.hasPendingFinalizers?.(obj);
  }

  /** Deletes `obj` unless it changed since; a lost race means someone else is handling it. */
  private async removeIfUnchanged(key: string, obj: ApiObject): Promise<void> {
    try {
      await this.storage.delete(key, {
        preconditions: { uid: obj.metadata?.uid, resourceVersion: obj.metadata?.resourceVersion },
      });
    } catch (err) {
      if (!isStorageError(err, 'KeyNotFound') && !isStorageError(err, 'ResourceVersionConflict')) throw err;
    }
  }

  /**
   * Deletes, or, when finalizers hold the object, marks it terminating (deletionTimestamp) and
   * answers it. A completed delete answers the deleted object or a Success Status, as the kind does
   * upstream.
   */
  async delete(namespace: string, name: string, opts: DeleteRequest = {}): Promise<ApiObject> {
    const key = this.keyFor(namespace, name);
    if (opts.ignoreStoreReadError) return this.deleteUnreadable(key, name);
    try {
      for (;;) {
        const current = await this.storage.get(key);
        checkPreconditions(key, opts.preconditions, current);
        await opts.admit?.(current, current);
        const decision = this.graceDecision(current, opts.gracePeriodSeconds);
        if (decision.kind === 'pending') return this.deletedAnswer(name, current);
        if (decision.kind === 'graceful') {
          const kept = await this.markGraceful(key, current, opts);
          if (kept === 'retry') continue;
          if (kept !== undefined) return kept;
          const gone = await this.deleteNow(key, opts);
          if (gone === undefined) continue;
          return this.deletedAnswer(name, gone);
        }
        if (
          this.holdsDeletion(current) ||
          this.strategy.prepareForTerminate !== undefined ||
          (opts.propagationPolicy !== undefined && opts.propagationPolicy !== 'Background')
        ) {
          const marked = await this.markTerminating(key, current, opts);
          if (marked !== undefined) return marked;
        }
        const gone = await this.deleteNow(key, opts);
        if (gone === undefined) continue;
        return this.deletedAnswer(name, gone);
      }
    } catch (err) {
      throw fromStorageError(err, this.groupResource, name);
    }
  }

  /** The answer to a delete: the object, or a Success Status naming it, as the kind does upstream. */
  private deletedAnswer(name: string, obj: ApiObject): ApiObject {
    if (this.strategy.returnDeletedObject) return this.withTypeMeta(obj);
    return successStatus({
      name,
      group: this.resource.group === '' ? undefined : this.resource.group,
      kind: this.resource.resource,
      uid: obj.metadata?.uid,
    }) as unknown as ApiObject;
  }

  /**
   * Upstream's BeforeDelete for kinds with graceful deletion: a first delete asks the strategy for
   * the grace period; an object already deleted gracefully may only have its period shortened (the
   * deletion time moves back by the difference, never into the past), and a request that does not
   * shorten it leaves the deletion pending. An object marked with no grace period is deleted as any
   * other kind's.
   */
  private graceDecision(obj: ApiObject, requested: number | undefined): GraceDecision {
    const hook = this.strategy.gracefulDeletion;
    if (hook === undefined) return { kind: 'none' };
    const asked = requested !== undefined && requested < 0 ? 1 : requested;
    const meta = obj.metadata ?? {};
    const now = Date.now();
    if (meta.deletionTimestamp !== undefined) {
      const raw = meta.deletionGracePeriodSeconds;
      const existing = raw !== undefined && raw < 0 ? 1 : raw;
      if (existing === undefined || existing === 0) return { kind: 'none' };
      if (asked === undefined || asked >= existing) return { kind: 'pending' };
      let at = Date.parse(meta.deletionTimestamp) - existing * 1000 + asked * 1000;
      let grace = asked;
      if (Number.isNaN(at) || at < now) {
        at = now;
        // The whole period has passed: still graceful (someone else deletes at the end), but as short as can be.
        if (grace !== 0) grace = 1;
      }
      return { kind: 'graceful', grace, deletionTimestamp: timestampAt(at), firstMark: false };
    }
    const grace = hook(obj, asked);
    if (grace === undefined) return { kind: 'none' };
    return { kind: 'graceful', grace, deletionTimestamp: timestampAt(now + grace * 1000), firstMark: true };
  }

  /**
   * Writes the deletion time and grace period (and the propagation policy's finalizers) of a
   * graceful delete. Answers the object when it stays (a grace period to wait out, or finalizers),
   * undefined when it is to be removed now, 'retry' when the stored object changed course meanwhile.
   */
  private async markGraceful(
    key: string,
    current: ApiObject,
    opts: DeleteRequest,
  ): Promise<ApiObject | undefined | 'retry'> {
    let grace = 0;
    const mark = (obj: ApiObject): ApiObject => {
      const decision = this.graceDecision(obj, opts.gracePeriodSeconds);
      if (decision.kind !== 'graceful') throw new GraceChanged();
      grace = decision.grace;
      const meta = metaOf(obj);
      const finalizers = finalizersForPolicy(meta.finalizers ?? [], opts.propagationPolicy);
      if (finalizers.length > 0) meta.finalizers = finalizers;
      else delete meta.finalizers;
      meta.deletionTimestamp = decision.deletionTimestamp;
      meta.deletionGracePeriodSeconds = decision.grace;
      // Those who act on the object see its first deletion as a change of what is asked of them.
      if (decision.firstMark && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
      return obj;
    };
    let after: ApiObject;
    try {
      if (opts.dryRun) after = mark(structuredClone(current));
      else {
        after = await this.storage.guaranteedUpdate(
          key,
          ({ current: now }) => {
            if (now === null) throw new KeyNotFoundError(key);
            checkPreconditions(key, opts.preconditions, now);
            return mark(now);
          },
          {},
        );
      }
    } catch (err) {
      if (err instanceof GraceChanged) return 'retry';
      throw err;
    }
    if (this.holdsDeletion(after) || grace > 0) return this.withTypeMeta(after);
    return undefined;
  }

  /** The unsafe delete: only for a key whose value fails to decode; answers a Status without uid. */
  private async deleteUnreadable(key: string, name: string): Promise<ApiObject> {
    try {
      await this.storage.get(key);
    } catch (err) {
      if (!isStorageError(err, 'CorruptObject')) throw fromStorageError(err, this.groupResource, name);
      try {
        await this.storage.delete(key, { expectCorrupt: true });
      } catch (deleteErr) {
        throw fromStorageError(deleteErr, this.groupResource, name);
      }
      return successStatus({
        name,
        group: this.resource.group === '' ? undefined : this.resource.group,
        kind: this.resource.resource,
      }) as unknown as ApiObject;
    }
    // Upstream names the resource where a kind would go in this one message.
    throw invalid({ group: this.resource.group, kind: this.resource.resource }, name, [
      invalidField(
        newPath('ignoreStoreReadErrorWithClusterBreakingPotential'),
        true,
        'is exclusively used to delete corrupt object(s), try again by removing this option',
      ),
    ]);
  }

  /**
   * Sets deletionTimestamp (and lets the strategy mark the object) while finalizers hold it.
   * Undefined when nothing holds the object any more, so the caller deletes it for real.
   */
  private async markTerminating(
    key: string,
    current: ApiObject,
    opts: DeleteRequest,
  ): Promise<ApiObject | undefined> {
    const mark = (obj: ApiObject): ApiObject | null => {
      const meta = metaOf(obj);
      const before = meta.finalizers ?? [];
      const finalizers = finalizersForPolicy(before, opts.propagationPolicy);
      const changed = finalizers.length !== before.length || finalizers.some((f, i) => f !== before[i]);
      if (changed) {
        if (finalizers.length > 0) meta.finalizers = finalizers;
        else delete meta.finalizers;
      }
      // A second delete may change how dependents are treated, nothing else.
      if (meta.deletionTimestamp !== undefined) return changed ? obj : null;
      meta.deletionTimestamp = nowTimestamp();
      meta.deletionGracePeriodSeconds = 0;
      this.strategy.prepareForTerminate?.(obj);
      return obj;
    };
    if (opts.dryRun) {
      const copy = structuredClone(current);
      mark(copy);
      return this.holdsDeletion(copy) ? this.withTypeMeta(copy) : undefined;
    }
    const after = await this.storage.guaranteedUpdate(
      key,
      ({ current: now }) => {
        if (now === null) throw new KeyNotFoundError(key);
        checkPreconditions(key, opts.preconditions, now);
        return mark(now);
      },
      {},
    );
    return this.holdsDeletion(after) ? this.withTypeMeta(after) : undefined;
  }

  /** Removes the key unless a finalizer appeared meanwhile (then undefined: start over). */
  private async deleteNow(key: string, opts: DeleteRequest): Promise<ApiObject | undefined> {
    if (opts.dryRun) {
      const current = await this.storage.get(key);
      checkPreconditions(key, opts.preconditions, current);
      return current;
    }
    let heldMeanwhile = false;
    const gone = await this.storage
      .delete(key, {
        preconditions: opts.preconditions,
        validateDeletion: (now) => {
          if (this.holdsDeletion(now) && now.metadata?.deletionTimestamp === undefined) {
            heldMeanwhile = true;
            throw new HeldMeanwhile();
          }
        },
      })
      .catch((err: unknown) => {
        if (err instanceof HeldMeanwhile) return undefined;
        throw err;
      });
    return heldMeanwhile ? undefined : gone;
  }

  /**
   * Deletes every object the selectors match, one by one as single deletes do, and answers the list
   * of what was deleted (or marked terminating).
   */
  async deleteCollection(
    namespace: string,
    req: ListRequest &
      WriteOptions & { propagationPolicy?: PropagationPolicy; gracePeriodSeconds?: number } = {},
  ): Promise<ListObject> {
    const listed = await this.list(namespace, {
      labelSelector: req.labelSelector,
      fieldSelector: req.fieldSelector,
    });
    // Several deletes in flight (upstream's --delete-collection-workers, whose default of 1 we
    // raise): each waits for its commit, and on etcd one at a time made a namespace of 10,000
    // objects take 20 s of deletes where 64 in flight took 7. Results keep the list's order.
    const results: (ApiObject | undefined)[] = new Array(listed.items.length);
    let next = 0;
    let failure: unknown;
    const worker = async () => {
      while (failure === undefined && next < listed.items.length) {
        const i = next++;
        const item = listed.items[i];
        try {
          const out = await this.delete(
            item.metadata?.namespace ?? namespace,
            String(item.metadata?.name ?? ''),
            {
              dryRun: req.dryRun,
              preconditions: { uid: item.metadata?.uid },
              propagationPolicy: req.propagationPolicy,
              gracePeriodSeconds: req.gracePeriodSeconds,
            },
          );
          results[i] = this.strategy.returnDeletedObject || out.kind !== 'Status' ? stripTypeMeta(out) : item;
        } catch (err) {
          // Gone meanwhile is what the caller wanted anyway.
          if ((err as { code?: number }).code !== 404) failure ??= err;
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(DELETE_COLLECTION_WORKERS, listed.items.length) }, worker),
    );
    if (failure !== undefined) throw failure;
    return {
      apiVersion: this.apiVersion,
      kind: this.resource.listKind,
      metadata: { resourceVersion: '' },
      items: results.filter((r): r is ApiObject => r !== undefined),
    };
  }

  /** A watch whose events carry wire-ready objects; storage failures arrive as ERROR Status events. */
  watch(namespace: string, req: WatchRequest = {}): WireWatch {
    const predicate = this.selectorPredicate(req.labelSelector, req.fieldSelector);
    if (req.sendInitialEvents !== undefined) return this.streamingWatch(namespace, req, predicate);
    const stream = this.storage.watch(this.prefixFor(namespace), {
      revision: req.revision,
      predicate,
      progressNotify: req.allowBookmarks,
    });
    const toWire = (ev: WatchEvent): WireWatchEvent => {
      if (ev.type === 'ERROR') {
        const status = statusOf(fromStorageError(ev.error, this.groupResource, ''));
        return { type: 'ERROR', object: status as unknown as ApiObject };
      }
      if (ev.type === 'BOOKMARK') {
        return {
          type: 'BOOKMARK',
          object: {
            kind: this.resource.kind,
            apiVersion: this.apiVersion,
            metadata: { resourceVersion: String(ev.revision) },
          },
        };
      }
      // The watch cache hands every watcher of a change the same event: so is its wire form.
      let wire = this.wireEvents.get(ev);
      if (wire === undefined) {
        wire =
          ev.encoded !== undefined
            ? this.encodedWireEvent(ev.type, ev.encoded)
            : { type: ev.type, object: this.wireObject(ev.object) };
        this.wireEvents.set(ev, wire);
      }
      return wire;
    };
    return {
      stop: () => stream.stop(),
      attach: (sink, onEnd) => stream.attach((ev) => sink(toWire(ev)), onEnd),
      resume: () => stream.resume(),
      resumesInStep: stream.resumesInStep,
      // A plain iterator rather than an async generator: it runs once per event per watcher, and
      // a generator costs several promises a step.
      [Symbol.asyncIterator]() {
        const events = stream[Symbol.asyncIterator]();
        return {
          next: () =>
            events
              .next()
              .then(
                (r): IteratorResult<WireWatchEvent> => (r.done ? r : { value: toWire(r.value), done: false }),
              ),
          return: () => {
            stream.stop();
            return Promise.resolve({ value: undefined, done: true });
          },
        };
      },
    };
  }

  /** Wire events by the storage event they came from (shared by watchers of the watch cache). */
  private readonly wireEvents = new WeakMap<WatchEvent, WireWatchEvent>();

  /**
   * A watch that starts with the state at `req.at` (or the most recent), or right after it. A sink
   * is handed the state by iteration, then attached to the live watch itself, so that from then on
   * the watch costs what a plain one does.
   */
  private streamingWatch(namespace: string, req: WatchRequest, predicate: Predicate | undefined): WireWatch {
    const prefix = this.prefixFor(namespace);
    let inner: WireWatch | undefined;
    let stopped = false;
    let from: Revision | undefined;
    const self = this;
    const pump = new IterationPump<WireWatchEvent>();
    /** The state as ADDED events and the bookmark that ends it; sets `from`. */
    async function* initial(): AsyncGenerator<WireWatchEvent> {
      if (!req.sendInitialEvents) {
        from = req.revision ?? (await self.storage.currentRevision());
        return;
      }
      const state = await self.storage.list(prefix, { at: req.at, predicate });
      if (state.encoded === undefined) {
        for (const obj of state.items) yield { type: 'ADDED', object: self.wireObject(obj) };
      } else {
        for (const item of state.encoded) yield self.encodedWireEvent('ADDED', new EncodedObject(item));
      }
      from = state.revision;
      if (req.allowBookmarks) {
        const annotations = Object.fromEntries((req.initialEventsEnd ?? []).map((a) => [a, 'true']));
        yield {
          type: 'BOOKMARK',
          object: {
            kind: self.resource.kind,
            apiVersion: self.apiVersion,
            metadata: { resourceVersion: String(from), annotations },
          },
        };
      }
    }
    const live = (): WireWatch => {
      inner = self.watch(namespace, { ...req, sendInitialEvents: undefined, revision: from });
      return inner;
    };
    return {
      stop() {
        stopped = true;
        inner?.stop();
      },
      attach(sink, onEnd) {
        pump.start(initial(), sink, (error) => {
          if (error !== undefined || stopped) onEnd(error);
          else live().attach(sink, onEnd);
        });
      },
      resume: () => (inner === undefined ? pump.resume() : inner.resume()),
      get resumesInStep() {
        return inner?.resumesInStep === true;
      },
      async *[Symbol.asyncIterator]() {
        yield* initial();
        if (stopped) return;
        for await (const ev of live()) {
          if (stopped) break;
          yield ev;
        }
      },
    };
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

  /** A write's errors through the kind's comparison with declarative validation, when it has one. */
  private checked(
    errs: FieldError[],
    obj: ApiObject,
    old: ApiObject | undefined,
    subresource: string,
  ): FieldError[] {
    return this.strategy.checkValidation === undefined
      ? errs
      : this.strategy.checkValidation(errs, obj, old, subresource);
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

  /**
   * The wire form of a watched object, made once per stored object: the watch cache hands every
   * watcher the same object, so they all get the same wire object (and the handler's encoding of it).
   */
  private wireObject(obj: ApiObject): ApiObject {
    let wire = this.wireForms.get(obj);
    if (wire === undefined) {
      wire = this.withTypeMeta(obj);
      this.wireForms.set(obj, wire);
    }
    return wire;
  }

  private readonly wireForms = new WeakMap<ApiObject, ApiObject>();

  /** An event over a cached body: its object is decoded, and given its TypeMeta, only when read. */
  private encodedWireEvent(type: WireWatchEvent['type'], encoded: EncodedObject): WireWatchEvent {
    const wireObject = (obj: ApiObject) => this.wireObject(obj);
    return {
      type,
      encoded,
      revision: encoded.revision,
      get object() {
        return wireObject(encoded.object);
      },
    };
  }

  /** The object with kind and apiVersion first, in upstream's field order. */
  private withTypeMeta(obj: ApiObject): ApiObject {
    const { kind: _k, apiVersion: _v, ...rest } = obj;
    return { kind: this.resource.kind, apiVersion: this.apiVersion, ...rest };
  }
}
