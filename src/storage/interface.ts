// The contract every storage backend (SQLite, etcd, and later the watch cache) fulfils. Keys are
// opaque strings chosen by the registry; a prefix selects every key that starts with it.
//
// Revisions are plain numbers: both backends keep a global int64 counter, and a JS number holds
// every integer up to 2^53 exactly, which at a million writes per second lasts 285 years. Using
// bigint would cost an allocation per comparison on the hot path for no practical range.

import type { ApiObject } from '../machinery/object.ts';
import type { EncodedItem, EncodedObject, EncodedRun } from './encoded.ts';
import type { StoredBody } from './value-codec.ts';

export type Revision = number;

/**
 * How a read chooses its revision.
 * - `latest`: the newest committed state (a consistent read).
 * - `exact`: exactly `revision`; fails Compacted when it is no longer kept.
 * - `notOlderThan`: any state at least as new as `revision`.
 */
export type ReadAt =
  | { kind: 'latest' }
  | { kind: 'exact'; revision: Revision }
  | { kind: 'notOlderThan'; revision: Revision };

export const LATEST: ReadAt = { kind: 'latest' };

/**
 * Filters objects on lists and watches; `undefined` means every object matches. A predicate marked
 * `metadataOnly` reads nothing but metadata.name, metadata.namespace and metadata.labels, so a store
 * that holds objects encoded may answer it without decoding them.
 */
export type Predicate = ((obj: ApiObject) => boolean) & {
  readonly metadataOnly?: boolean;
  /** Equal for predicates that select the same objects, so a store may evaluate them once. */
  readonly key?: string;
};

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface GetOptions {
  at?: ReadAt;
}

export interface ListOptions {
  at?: ReadAt;
  /** Maximum number of matching items to return; 0 or undefined means all. */
  limit?: number;
  /** A token from a previous page; its revision overrides `at`. */
  continue?: string;
  predicate?: Predicate;
  /** List only the key itself rather than everything under the prefix (a single-object list). */
  exactKey?: boolean;
}

export interface ListResult {
  /** The objects (a store that answers from `encoded` decodes them on first access). */
  readonly items: ApiObject[];
  /**
   * The same objects as the watch cache holds them, JSON bodies without TypeMeta, when it answered:
   * what a JSON response writes without decoding or re-encoding anything.
   */
  encoded?: readonly EncodedItem[];
  /** `encoded` as a JSON writer takes it: runs of consecutive items may come already joined. */
  runs?: readonly EncodedRun[];
  /** The revision the list was read at: every item is as of this revision. */
  revision: Revision;
  /** Token for the next page; absent when the list is complete. */
  continue?: string;
  /**
   * Items left after this page. Only set when a page was cut short and no predicate filtered it,
   * because a filtered count would need reading every remaining object.
   */
  remainingItemCount?: number;
}

/** What `tryUpdate` learns about the object it is asked to change. */
export interface UpdateInput {
  /** The current object (a private copy the callback may mutate), or null when absent. */
  current: ApiObject | null;
  /** Revision of `current` (0 when absent). */
  revision: Revision;
}

/**
 * Computes the next state. Returning `null` deletes nothing and writes nothing: the update is a
 * no-op and the current object is returned. Throwing aborts the update with that error.
 */
export type TryUpdate = (input: UpdateInput) => ApiObject | null | Promise<ApiObject | null>;

export interface UpdateOptions {
  preconditions?: Preconditions;
  /** When the key is missing, call tryUpdate with `current: null` instead of failing NotFound. */
  ignoreNotFound?: boolean;
  /**
   * The watch cache's copy of the object and its revision, which may be stale. A backend whose
   * reads cost a round trip may start from it: the write is conditional on that revision, and a
   * stale copy (the write finds a newer one, or the preconditions or tryUpdate reject it, or
   * tryUpdate finds nothing to change) is re-read and tried again, so the outcome is the same.
   * A function, so that backends with cheap reads never pay for decoding it.
   */
  cachedState?: () => { object: ApiObject; revision: Revision } | undefined;
}

export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Runs against the current object before deleting; throwing aborts the delete. */
  validateDeletion?: (current: ApiObject) => void | Promise<void>;
  /**
   * Unsafe delete of a value that cannot be decoded: removes it without reading it (preconditions
   * and validateDeletion do not run) and fails with InvalidObject if the value decodes after all.
   * Answers an object carrying only the deletion's revision.
   */
  expectCorrupt?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  /** The object after the change; for DELETED its last state; for BOOKMARK only metadata.resourceVersion. */
  object: ApiObject;
  revision: Revision;
  /** For ERROR events: the failure (for example a compacted start revision). */
  error?: Error;
  /** The object as the watch cache holds it, shared by every watcher of the event. */
  encoded?: EncodedObject;
  /**
   * From a backend: the object as a body made from the JSON it stored (undefined when it could
   * not be made without decoding), so that the watch cache need not decode `object` (which is
   * then decoded only when read) and encode it again.
   */
  readonly stored?: StoredBody;
}

export interface WatchOptions {
  /**
   * Events strictly after this revision are delivered. Undefined means: first the current state as
   * synthetic ADDED events (read consistently), then every change after it.
   */
  revision?: Revision;
  predicate?: Predicate;
  /** Emit BOOKMARK events carrying the latest revision while the stream is idle. */
  progressNotify?: boolean;
}

/** Takes a watch's events synchronously; false when it can take no more until resumed. */
export type WatchSink<E = WatchEvent> = (event: E) => boolean;

/**
 * A watch's events, read either by iteration or through a sink (one or the other). A sink costs no
 * promise per event, which counts when one change goes out to a thousand watchers.
 */
export interface WatchStream extends AsyncIterable<WatchEvent> {
  /** Ends the stream; iteration finishes after events already queued. Idempotent. */
  stop(): void;
  /**
   * Hands every event to `sink` as it comes. Events it cannot take wait in the stream, counting
   * toward a slow watcher's backlog, until resume(); `onEnd` runs once, when the stream has ended
   * and the sink has had everything (with the error, for a stream that failed rather than ended).
   */
  attach(sink: WatchSink, onEnd: (error?: unknown) => void): void;
  /** The sink can take events again. */
  resume(): void;
  /**
   * Whether resume() hands the sink every waiting event before it returns (a queue does; an
   * iteration hands them over later). A sink of such a stream may decline events it could take
   * and collect them all at once when it wants them. It may change while the stream runs.
   */
  readonly resumesInStep?: boolean;
}

export interface Storage {
  /** Stores a new object; fails KeyExists. Returns the stored object with its resourceVersion. */
  create(key: string, obj: ApiObject): Promise<ApiObject>;
  get(key: string, opts?: GetOptions): Promise<ApiObject>;
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Read, transform and compare-and-swap until the swap succeeds or tryUpdate throws. */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject>;
  /** Deletes the key and returns its last state, with resourceVersion set to the deletion revision. */
  delete(key: string, opts?: DeleteOptions): Promise<ApiObject>;
  watch(prefix: string, opts?: WatchOptions): WatchStream;
  currentRevision(): Promise<Revision>;
  /** Drops history at or below `revision` (the latest state of each key is kept). */
  compact(revision: Revision): Promise<void>;
  /** Number of live objects under the prefix. */
  count(prefix: string): Promise<number>;
  close(): Promise<void>;
}
