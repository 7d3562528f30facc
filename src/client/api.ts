// The contracts between the client's parts: what a resource client offers (rest-client.ts
// implements it over HTTP), what informers and listers offer (informers/ implements them on top of
// a resource client), and the shapes they exchange. Controllers, leader election and tests depend
// on these interfaces only, so each part can be replaced by a fake in a unit test.

import type { ApiObject } from '../machinery/object.ts';
import type { Status } from '../machinery/status.ts';

export interface GroupVersionResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, as in the URL (`configmaps`). */
  resource: string;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ObjectList<T extends ApiObject = ApiObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  /** Aborts a long list (and is how informers stop). */
  signal?: AbortSignal;
}

export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan';
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  /** A streaming list: the current objects arrive as ADDED events, then a bookmark marks the end. */
  sendInitialEvents?: boolean;
  signal?: AbortSignal;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T extends ApiObject = ApiObject> {
  type: WatchEventType;
  /** For ERROR events a Status. */
  object: T;
}

/** An open watch: iterate its events; the iteration ends when the server closes it or stop() is called. */
export interface WatchStream<T extends ApiObject = ApiObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  /** Write through a subresource (`status`), as UpdateStatus does. */
  subresource?: string;
  /**
   * With `subresource` on create: the parent object's name (a service account's `token`, a pod's
   * `eviction` or `binding`) when the body's metadata.name is not it.
   */
  name?: string;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  /** For apply patches. */
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/**
 * One resource, in one namespace when it is namespaced (or across all namespaces for list and watch
 * when no namespace is given). Every failure the server answers rejects with machinery's ApiError
 * carrying the server's Status; a transport failure rejects with the underlying error.
 */
export interface ResourceClient<T extends ApiObject = ApiObject> {
  readonly resource: GroupVersionResource;
  readonly namespace: string | undefined;
  get(name: string, opts?: { resourceVersion?: string; subresource?: string }): Promise<T>;
  list(opts?: ListOptions): Promise<ObjectList<T>>;
  watch(opts?: WatchOptions): Promise<WatchStream<T>>;
  create(obj: T, opts?: WriteOptions): Promise<T>;
  update(obj: T, opts?: WriteOptions): Promise<T>;
  patch(name: string, type: PatchType, body: unknown, opts?: PatchOptions): Promise<T>;
  /** Server-side apply of a whole configuration (fieldManager is required). */
  apply(obj: T, opts: PatchOptions & { fieldManager: string }): Promise<T>;
  /** The object as it is left (with a deletionTimestamp when finalizers hold it) or a Success Status. */
  delete(name: string, opts?: DeleteOptions): Promise<T | Status>;
  deleteCollection(opts?: ListOptions & DeleteOptions): Promise<ObjectList<T> | Status>;
  /** The same resource in another namespace. */
  inNamespace(namespace: string | undefined): ResourceClient<T>;
}

/** An object's key in a cache: `namespace/name`, or `name` for cluster-scoped objects. */
export type ObjectKey = string;

/** Read access to an informer's cache. Objects returned are shared: never mutate them. */
export interface Lister<T extends ApiObject = ApiObject> {
  get(key: ObjectKey): T | undefined;
  list(namespace?: string): T[];
  /** Objects whose index function returned `value` under index `name`. */
  byIndex(name: string, value: string): T[];
  keys(): ObjectKey[];
}

export interface EventHandler<T extends ApiObject = ApiObject> {
  add?(obj: T, isInInitialList: boolean): void;
  update?(oldObj: T, newObj: T): void;
  /** For a delete the informer missed (seen only on relist), `obj` is the last state it knew. */
  delete?(obj: T): void;
}

export interface SharedInformer<T extends ApiObject = ApiObject> {
  readonly lister: Lister<T>;
  /**
   * Handlers added after start first get an `add` for every cached object. The resync period
   * (ms, 0 = none) sends `update(obj, obj)` for every cached object that often.
   */
  addEventHandler(handler: EventHandler<T>, resyncPeriodMs?: number): { remove(): void };
  addIndexers(indexers: Record<string, (obj: T) => string[]>): void;
  hasSynced(): boolean;
  /** Resolves once the initial list is in the cache; rejects if the informer is stopped first. */
  waitForSync(signal?: AbortSignal): Promise<void>;
  /** The resourceVersion of the last list or event seen. */
  lastSyncResourceVersion(): string;
}

/** Every resource of the server, by group, version and resource name. */
export interface ApiClient {
  resource<T extends ApiObject = ApiObject>(gvr: GroupVersionResource, namespace?: string): ResourceClient<T>;
}

export interface InformerOptions {
  /** Watch one namespace only; all namespaces when absent. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * Shares one informer per resource (and options) among every controller of a process: one list,
 * one watch, one cache, however many handlers.
 */
export interface InformerFactory {
  forResource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    opts?: InformerOptions,
  ): SharedInformer<T>;
  /** Starts every informer asked for so far (and any asked for later, as they are asked). */
  start(): void;
  /** Resolves once every started informer has synced. */
  waitForSync(signal?: AbortSignal): Promise<void>;
  stop(): void;
}

/** What a request authenticates with; the transport asks before each request. */
export interface Credentials {
  token?: string;
  /** PEM; both or neither. A change makes the transport open new connections. */
  clientCertificatePem?: string;
  clientKeyPem?: string;
}

/** A source of credentials that may change over time (an exec plugin, a token file). */
export interface CredentialSource {
  current(): Promise<Credentials>;
  /** The server answered 401 to a request made with `used`: forget them if they are still current. */
  unauthorized(used: Credentials): void;
}

/** A cancellable one-shot timer from a Clock. */
export interface ClockTimer {
  cancel(): void;
}

/**
 * Time as the client's loops see it (informer resyncs and backoff, work-queue delays, leader
 * election), injectable so tests step a fake clock instead of waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, `ms` from now. */
  setTimer(fn: () => void, ms: number): ClockTimer;
}
