// The in-memory "server" behind FakeResourceClient: versioned stores per resource, open watches
// and their fan-out, and the controls a test uses to make the client's life hard: compaction (410
// on old lists, continues and watches), expiring or closing every watch, bookmarks, refusing
// streaming lists, and failing or delaying chosen calls.

import { type FieldMatcher, objectMetaFieldsSet, parseFieldSelector } from '../../machinery/fields.ts';
import { type LabelMatcher, parseLabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { resourceExpired, type Status } from '../../machinery/status.ts';
import { initialEventsEndAnnotations, namingProfile } from '../../naming/profile.ts';
import type { ApiClient, Clock, GroupVersionResource, ResourceClient, WatchEvent } from '../api.ts';
import { realClock } from '../work-queue/clock.ts';
import { FakeResourceClient } from './fake-resource-client.ts';
import { type Change, RevisionCounter, VersionedStore } from './fake-store.ts';
import type { FakeWatchStream } from './fake-watch.ts';

export type FakeVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'apply'
  | 'delete'
  | 'deletecollection';

/** One call a client made, as the fake saw it (before any injected failure). */
export interface FakeCall {
  verb: FakeVerb;
  resource: GroupVersionResource;
  namespace: string | undefined;
  name?: string;
  /** The options given (list and watch options, write options); signals left out. */
  opts?: Record<string, unknown>;
}

/** Runs before each call: throwing (or rejecting) fails the call, a promise delays it. */
export type Interceptor = (call: FakeCall) => void | Promise<void>;

export interface FakeClusterOptions {
  /** Whether watches accept sendInitialEvents (upstream's WatchList); true when absent. */
  streamingLists?: boolean;
  /** Freeze every object handed out, so code that mutates a shared object throws; true when absent. */
  freezeObjects?: boolean;
  /** Drives watch timeouts (timeoutSeconds). */
  clock?: Clock;
}

export interface FakeWatcher {
  resKey: string;
  namespace: string | undefined;
  labels: LabelMatcher;
  fields: FieldMatcher;
  allowBookmarks: boolean;
  stream: FakeWatchStream;
}

/** Both profiles' initial-events-end annotations, as the server sends them. */
const INITIAL_EVENTS_END = [
  ...new Set([
    ...initialEventsEndAnnotations(namingProfile('spec')),
    ...initialEventsEndAnnotations(namingProfile('upstream')),
  ]),
];

export function resourceKey(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.resource}`;
}

export function objectKeyOf(obj: ApiObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export class FakeCluster implements ApiClient {
  readonly revisions = new RevisionCounter();
  readonly calls: FakeCall[] = [];
  readonly clock: Clock;
  streamingLists: boolean;
  readonly freezeObjects: boolean;
  private readonly stores = new Map<string, VersionedStore>();
  private readonly kinds = new Map<string, { apiVersion?: string; kind?: string }>();
  private readonly watchers = new Set<FakeWatcher>();
  private interceptors: Interceptor[] = [];

  constructor(opts: FakeClusterOptions = {}) {
    this.streamingLists = opts.streamingLists ?? true;
    this.freezeObjects = opts.freezeObjects ?? true;
    this.clock = opts.clock ?? realClock;
  }

  resource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    namespace?: string,
  ): ResourceClient<T> {
    return new FakeResourceClient<T>(this, gvr, namespace);
  }

  // ----- controls for tests

  /** Forgets history up to now: lists, continues and watches at older revisions answer 410 Expired. */
  compact(): void {
    const rev = this.revisions.current();
    this.revisions.compacted = rev;
    for (const s of this.stores.values()) s.compact(rev);
  }

  /** Sends every open watch (of one resource, or all) an ERROR 410 Expired event and ends it. */
  expireWatches(gvr?: GroupVersionResource): void {
    for (const w of this.watchersOf(gvr)) {
      const rev = this.revisions.current();
      const status = resourceExpired(`too old resource version: ${rev - 1} (${rev})`).status;
      w.stream.push({ type: 'ERROR', object: status as unknown as ApiObject });
      w.stream.end();
    }
  }

  /** Ends every open watch (of one resource, or all) as a server-side timeout does. */
  closeWatches(gvr?: GroupVersionResource): void {
    for (const w of this.watchersOf(gvr)) w.stream.end();
  }

  /** Sends a BOOKMARK at the current revision to every open watch that allows them. */
  bookmark(gvr?: GroupVersionResource): void {
    const rv = String(this.revisions.current());
    for (const w of this.watchersOf(gvr)) {
      if (w.allowBookmarks) w.stream.push(this.bookmarkEvent(w.resKey, rv));
    }
  }

  openWatches(gvr?: GroupVersionResource): number {
    return this.watchersOf(gvr).length;
  }

  /** Adds an interceptor for every later call; the returned function removes it. */
  intercept(fn: Interceptor): () => void {
    this.interceptors.push(fn);
    return () => {
      this.interceptors = this.interceptors.filter((i) => i !== fn);
    };
  }

  /** Fails the next `times` calls of `verb` ('*' for any; optionally of one resource) with `err`. */
  failNext(verb: FakeVerb | '*', err: unknown, opts: { times?: number; resource?: string } = {}): void {
    let left = opts.times ?? 1;
    const remove = this.intercept((call) => {
      if (left <= 0) return;
      if (verb !== '*' && call.verb !== verb) return;
      if (opts.resource !== undefined && call.resource.resource !== opts.resource) return;
      left--;
      if (left <= 0) remove();
      throw err;
    });
  }

  /** Calls of one verb (and resource name), in order. */
  callsOf(verb: FakeVerb, resource?: string): FakeCall[] {
    return this.calls.filter(
      (c) => c.verb === verb && (resource === undefined || c.resource.resource === resource),
    );
  }

  // ----- used by FakeResourceClient

  async enter(call: FakeCall): Promise<void> {
    this.calls.push(call);
    for (const i of [...this.interceptors]) await i(call);
  }

  store(gvr: GroupVersionResource): VersionedStore {
    const key = resourceKey(gvr);
    let s = this.stores.get(key);
    if (s === undefined) {
      s = new VersionedStore(this.revisions);
      this.stores.set(key, s);
    }
    return s;
  }

  /** A copy of a stored object for a caller (frozen unless disabled). */
  out<T>(obj: ApiObject): T {
    const copy = structuredClone(obj);
    return (this.freezeObjects ? deepFreeze(copy) : copy) as unknown as T;
  }

  rememberKind(gvr: GroupVersionResource, obj: ApiObject): void {
    if (obj.kind !== undefined)
      this.kinds.set(resourceKey(gvr), { apiVersion: obj.apiVersion, kind: obj.kind });
  }

  bookmarkEvent(resKey: string, rv: string, initialEventsEnd = false): WatchEvent {
    const k = this.kinds.get(resKey) ?? {};
    const metadata: Record<string, unknown> = { resourceVersion: rv };
    if (initialEventsEnd)
      metadata.annotations = Object.fromEntries(INITIAL_EVENTS_END.map((a) => [a, 'true']));
    return { type: 'BOOKMARK', object: this.out({ ...k, metadata }) };
  }

  errorEvent(status: Status): WatchEvent {
    return { type: 'ERROR', object: this.out(status as unknown as ApiObject) };
  }

  selectors(labelSelector?: string, fieldSelector?: string): { labels: LabelMatcher; fields: FieldMatcher } {
    return {
      labels: parseLabelSelector(labelSelector ?? ''),
      fields: parseFieldSelector(fieldSelector ?? ''),
    };
  }

  matches(
    obj: ApiObject,
    namespace: string | undefined,
    sel: { labels: LabelMatcher; fields: FieldMatcher },
  ): boolean {
    const meta = obj.metadata;
    if (namespace !== undefined && meta?.namespace !== namespace) return false;
    if (!sel.labels.matches(meta?.labels)) return false;
    return sel.fields.matches(objectMetaFieldsSet(meta, meta?.namespace !== undefined));
  }

  addWatcher(w: FakeWatcher, timeoutSeconds: number | undefined): void {
    this.watchers.add(w);
    const timer =
      timeoutSeconds !== undefined && timeoutSeconds > 0
        ? this.clock.setTimer(() => w.stream.end(), timeoutSeconds * 1000)
        : undefined;
    w.stream.whenEnded(() => {
      timer?.cancel();
      this.watchers.delete(w);
    });
  }

  /** The event a watcher sees for a change, if any (objects moving across its selector appear or vanish). */
  eventFor(w: FakeWatcher, c: Change): WatchEvent | undefined {
    const now = c.type !== 'DELETED' && this.matches(c.obj, w.namespace, w);
    const before = c.prev !== undefined && this.matches(c.prev, w.namespace, w);
    if (c.type === 'DELETED') return before ? { type: 'DELETED', object: this.out(c.obj) } : undefined;
    if (now && before) return { type: 'MODIFIED', object: this.out(c.obj) };
    if (now) return { type: 'ADDED', object: this.out(c.obj) };
    if (before) return { type: 'DELETED', object: this.out(c.obj) };
    return undefined;
  }

  /** Sends a change to every watcher of its resource. */
  publish(gvr: GroupVersionResource, c: Change): void {
    const key = resourceKey(gvr);
    for (const w of this.watchers) {
      if (w.resKey !== key) continue;
      const ev = this.eventFor(w, c);
      if (ev !== undefined) w.stream.push(ev);
    }
  }

  private watchersOf(gvr?: GroupVersionResource): FakeWatcher[] {
    const key = gvr === undefined ? undefined : resourceKey(gvr);
    return [...this.watchers].filter((w) => key === undefined || w.resKey === key);
  }
}
