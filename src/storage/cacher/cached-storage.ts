// The watch cache: a Storage decorator that keeps every current object in memory, fed by one watch
// of the backend, plus a window of recent events. It serves watches (replaying the window), reads
// "not older than" a revision, consistent lists (after catching up with the backend's current
// revision) and paged lists (from snapshots); writes, exact reads and watches older than the
// window go to the backend. Objects are held as their JSON bodies, in key order, packed block by
// block into shared buffers (ordered-entries.ts): a JSON list or watch event is written from
// those bytes without decoding or encoding anything, memory per object is about its JSON's size,
// and every reader that wants the object gets a private decoded copy (watchers of one event share
// one frozen copy), so nothing a caller does can change the cache. A watcher whose consumer takes
// no more for now is parked: events pass it by, and it takes them from the window when resumed.

import type { ApiObject, ObjectMeta } from '../../machinery/object.ts';
import { decodeContinue, encodeContinue } from '../continue-token.ts';
import { decodeBody, EncodedObject, type EncodedRun, encodeBody, type TypeMeta } from '../encoded.ts';
import { KeyNotFoundError, TooLargeResourceVersionError } from '../errors.ts';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Predicate,
  Revision,
  Storage,
  TryUpdate,
  UpdateOptions,
  WatchEvent,
  WatchOptions,
  WatchStream,
} from '../interface.ts';
import type { WatchCacheHooks } from '../metrics/cache-metrics.ts';
import { storageKeyOf } from '../value-codec.ts';
import { prefixEnd, selectedEventType, WatchQueue } from '../watch-queue.ts';
import { Entry } from './entry.ts';
import { lowerBound, OrderedEntries } from './ordered-entries.ts';

export interface CacheOptions {
  /** Events kept for replay (older watches go to the backend). */
  historyCapacity?: number;
  /** Events older than this are dropped from the window too, as the backend compacts them. */
  historyWindowMs?: number;
  /** How long a consistent read waits for the cache to catch up before asking the backend. */
  catchUpTimeoutMs?: number;
  /** Interval of BOOKMARKs to idle watchers that asked for them. */
  progressNotifyIntervalMs?: number;
  /**
   * How often a watcher that asked for bookmarks gets one even while events keep it busy
   * (upstream: about a minute). Checked at each progress interval.
   */
  bookmarkFrequencyMs?: number;
  /**
   * Events a watcher may fall behind by before it is closed; its client watches again from the
   * last revision it saw, and nobody else waits for it.
   */
  watcherBacklog?: number;
  /**
   * Serve paged lists from snapshots of a collection taken at its first page and kept this long
   * (the ListFromCacheSnapshot gate); 0 sends paged lists to the backend. Default 75 seconds.
   */
  snapshotTtlMs?: number;
  /** Hears of the cache's start and of each object and event (the watch cache metrics). */
  metrics?: WatchCacheHooks;
}

/** A collection as of one revision, for the pages of one paged list. */
interface Snapshot {
  revision: Revision;
  keys: string[];
  entries: Entry[];
  expires: number;
}

/** Distinct namespace names remembered for sharing between entries. */
const MAX_SHARED_STRINGS = 4096;

/** How long a read "not older than" a future revision waits for it before answering 504. */
const FUTURE_WAIT_MS = 1000;

/** The window may exceed its capacity by this fraction of it before the oldest events are cut. */
const TRIM_BATCH_DIVISOR = 8;

/** Snapshots held at once; past this the oldest goes (its lists continue from the backend). */
const MAX_SNAPSHOTS = 64;

/**
 * How long an event keeps the encodings made for its watchers, for parked watchers that take it
 * later (one made afresh for a later one costs each such watcher its own encoding).
 */
const SHARED_DELIVERY_MS = 2_000;

/** Upstream's bookmark frequency: every watcher that asked for bookmarks gets one about this often. */
const BOOKMARK_FREQUENCY_MS = 60_000;

/** Every this many events, parked watchers are checked for falling too far behind. */
const PARKED_CHECK_EVERY = 64;

interface CachedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  entry: Entry;
  previous: Entry | null;
  revision: Revision;
  /** When the cache saw it (ms), for the age bound of the window. */
  seenAt: number;
  /** The event's shared forms, while recent (SHARED_DELIVERY_MS). */
  delivery: Delivery | undefined;
}

interface CacheWatcher {
  queue: WatchQueue;
  prefix: string;
  end: string;
  opts: WatchOptions;
  /** Revision of the last event or bookmark delivered. */
  last: Revision;
  active: boolean;
  /**
   * While parked, the number (see `historyBase`) of the next event in `history` to hand it; -1
   * while it gets each event as it comes.
   */
  cursor: number;
  /** When (ms) it is due a bookmark however busy it is. */
  nextBookmark: number;
  /** Its bookmark came due while it was parked: it gets one once it has caught up. */
  bookmarkDue: boolean;
}

/** Whether the entry is selected, decoding it only for predicates that read past its metadata. */
function selects(predicate: Predicate | undefined, entry: Entry): boolean {
  if (predicate === undefined) return true;
  return predicate(predicate.metadataOnly ? entry.view : decodeBody(entry));
}

/** A watch event whose object is decoded only if its consumer asks for it. */
function encodedEvent(type: WatchEvent['type'], encoded: EncodedObject, revision: Revision): WatchEvent {
  return {
    type,
    revision,
    encoded,
    get object() {
      return encoded.object;
    },
  };
}

/**
 * A list whose items are decoded on first access; `encoded` and `runs` serve writers of JSON (runs
 * hold whole blocks as their packed bytes).
 */
function encodedList(
  entries: Entry[],
  revision: Revision,
  runs: readonly EncodedRun[] = entries,
): ListResult {
  let items: ApiObject[] | undefined;
  const list: ListResult = {
    revision,
    get items() {
      items ??= entries.map((e) => decodeBody(e));
      return items;
    },
  };
  // Not enumerable, so that nothing that copies or prints a result drags the bodies along.
  Object.defineProperty(list, 'runs', { value: runs, enumerable: false });
  return Object.defineProperty(list, 'encoded', { value: entries, enumerable: false });
}

export class CachedStorage implements Storage {
  private readonly objects = new OrderedEntries();
  private readonly history: CachedEvent[] = [];
  /** The number of events ever cut from the front of `history`: history[i] is event historyBase + i. */
  private historyBase = 0;
  /** The number of the oldest event that may still hold its shared delivery. */
  private sharedFrom = 0;
  /**
   * The watchers handed each event as it comes. A watcher whose consumer declines more (its
   * writer waits for its turn, or its socket is full) is parked instead: it keeps a cursor into
   * `history` and takes what it missed when the consumer resumes. With a thousand busy watchers
   * most are parked at any moment, and an event walks only the others.
   */
  private readonly live = new Set<CacheWatcher>();
  private readonly parked = new Set<CacheWatcher>();
  private revision: Revision = 0;
  /** The oldest revision after which every event is still in `history`. */
  private windowStart: Revision = 0;
  private waiters: { revision: Revision; resolve: () => void }[] = [];
  private feed: WatchStream | undefined;
  private readonly progressTimer: NodeJS.Timeout;
  private closed = false;
  private readonly capacity: number;
  private readonly windowMs: number;
  private readonly catchUpMs: number;
  private readonly snapshotTtlMs: number;
  private readonly backlog: number;
  private readonly bookmarkFrequencyMs: number;
  /** By `${revision} ${prefix}`. */
  private readonly snapshots = new Map<string, Snapshot>();
  private ready: Promise<void>;
  private readonly metrics: WatchCacheHooks | undefined;

  constructor(
    private readonly backend: Storage,
    opts: CacheOptions = {},
  ) {
    this.capacity = opts.historyCapacity ?? 10_000;
    this.windowMs = opts.historyWindowMs ?? 5 * 60_000;
    this.catchUpMs = opts.catchUpTimeoutMs ?? 3_000;
    this.snapshotTtlMs = opts.snapshotTtlMs ?? 75_000;
    this.backlog = opts.watcherBacklog ?? 10_000;
    this.bookmarkFrequencyMs = opts.bookmarkFrequencyMs ?? BOOKMARK_FREQUENCY_MS;
    this.metrics = opts.metrics;
    this.metrics?.attach(() => this.revision);
    this.ready = this.start();
    this.progressTimer = setInterval(() => {
      this.notifyProgress();
      // Bodies written since the last tick move from the JS heap into their blocks.
      this.objects.pack();
    }, opts.progressNotifyIntervalMs ?? 5_000);
    this.progressTimer.unref();
  }

  /** Lists everything once, then follows the backend from that revision. */
  private async start(): Promise<void> {
    this.metrics?.starting();
    const list = await this.backend.list('');
    for (const obj of list.items) this.put(obj);
    this.revision = list.revision;
    this.windowStart = list.revision;
    this.metrics?.initialized();
    this.follow(list.revision);
  }

  private follow(after: Revision): void {
    const feed = this.backend.watch('', { revision: after, progressNotify: true });
    this.feed = feed;
    void (async () => {
      for await (const ev of feed) {
        if (ev.type === 'BOOKMARK') this.advance(ev.revision);
        else if (ev.type === 'ERROR') {
          if (!this.closed) await this.restart();
          return;
        } else this.apply(ev);
      }
    })();
  }

  /** The feed broke (compaction, an undecodable value): rebuild from a fresh list. */
  private async restart(): Promise<void> {
    for (const w of this.watchers())
      w.queue.fail(new Error('watch cache is re-synchronizing'), this.revision);
    this.clearWatchers();
    this.objects.clear();
    this.dropHistory(this.history.length);
    this.ready = this.start();
    await this.ready.catch(() => {});
  }

  private put(obj: ApiObject): void {
    const key = keyOf(obj);
    const entry = this.entryOf(obj);
    this.objects.set(key, entry);
    this.metrics?.loaded(key, entry.bytes);
  }

  /** Namespaces' names, one string each for every entry's view. */
  private readonly namespaces = new Map<string, string>();

  /** TypeMeta values by kind and apiVersion: one shared object per kind rather than one per entry. */
  private readonly typeMetas = new Map<string, TypeMeta>();

  private entryOf(obj: ApiObject): Entry {
    const { typeMeta, text, bytes } = encodeBody(obj);
    return this.makeEntry(text, bytes, typeMeta, obj.metadata ?? {});
  }

  private makeEntry(text: string, bytes: number, typeMeta: TypeMeta, meta: ObjectMeta): Entry {
    const id = `${typeMeta.kind ?? ''} ${typeMeta.apiVersion ?? ''}`;
    let shared = this.typeMetas.get(id);
    if (shared === undefined) {
      shared = Object.freeze(typeMeta);
      this.typeMetas.set(id, shared);
    }
    let namespace = meta.namespace;
    if (typeof namespace === 'string') {
      const known = this.namespaces.get(namespace);
      if (known !== undefined) namespace = known;
      else if (this.namespaces.size < MAX_SHARED_STRINGS) this.namespaces.set(namespace, namespace);
    }
    const labels = meta.labels === undefined ? undefined : Object.freeze({ ...meta.labels });
    const revision = Number(meta.resourceVersion ?? 0);
    return new Entry(text, bytes, shared, revision, meta.name, namespace, labels);
  }

  private apply(ev: WatchEvent): void {
    // A body the backend made from the text it stored spares decoding the object and encoding it.
    const stored = ev.type === 'DELETED' ? undefined : ev.stored;
    const key = stored?.key ?? keyOf(ev.object);
    const entry =
      stored === undefined
        ? this.entryOf(ev.object)
        : this.makeEntry(stored.text, Buffer.byteLength(stored.text), stored.typeMeta, stored.metadata);
    const previous =
      (ev.type === 'DELETED' ? this.objects.delete(key) : this.objects.set(key, entry)) ?? null;
    const event: CachedEvent = {
      type: ev.type as CachedEvent['type'],
      key,
      entry,
      previous,
      revision: ev.revision,
      seenAt: Date.now(),
      delivery: undefined,
    };
    this.history.push(event);
    this.metrics?.event(key, (ev.type === 'DELETED' ? 0 : entry.bytes) - (previous?.bytes ?? 0));
    const next = this.historyBase + this.history.length;
    if (this.live.size > 0 || this.parked.size > 0) {
      // One decoded-on-demand object, and one event per type, for every watcher of this change.
      const delivery = new Delivery(new EncodedObject(entry), ev.revision);
      for (const w of this.live) {
        this.deliver(w, event, delivery);
        if (w.queue.held) this.park(w, next);
      }
      // Kept for the parked watchers, which take this event later (a watcher parked just now
      // resumes after it). Kept when none was parked, every event held its forms for 2 s: the
      // memory bench (100,000 writes, no watcher) settled at 2,960 B per object instead of 2,286.
      if (this.parked.size > 0) event.delivery = delivery;
    }
    if (next % PARKED_CHECK_EVERY === 0) this.cutSlowParked();
    this.releaseDeliveries(event.seenAt);
    this.trimHistory();
    this.advance(ev.revision);
  }

  /** Stops handing `w` events as they come; it takes them from event `next` on when it resumes. */
  private park(w: CacheWatcher, next: number): void {
    this.live.delete(w);
    this.parked.add(w);
    w.cursor = next;
  }

  /**
   * Hands a parked watcher whose consumer resumed the events it missed, until the consumer
   * declines again (it stays parked) or it has them all (it is handed events as they come again).
   */
  private catchUp(w: CacheWatcher): void {
    if (w.cursor < 0) return;
    const end = this.historyBase + this.history.length;
    for (let n = w.cursor; n < end; ) {
      const ev = this.history[n - this.historyBase];
      n++;
      this.deliver(w, ev, ev.delivery ?? new Delivery(new EncodedObject(ev.entry), ev.revision));
      if (w.queue.stopped) return;
      if (w.queue.held) {
        w.cursor = n;
        return;
      }
    }
    w.cursor = -1;
    this.parked.delete(w);
    this.live.add(w);
    if (w.bookmarkDue) this.bookmark(w, Date.now());
  }

  /** Ends the streams of parked watchers as far behind as the backlog bound (see deliver). */
  private cutSlowParked(): void {
    const oldest = this.historyBase + this.history.length - this.backlog;
    for (const w of this.parked) if (w.cursor < oldest) this.cut(w);
  }

  /** Ends the stream of a watcher too slow to keep up (its client watches again). */
  private cut(w: CacheWatcher): void {
    if (!w.queue.stopped) this.metrics?.terminated(w.prefix);
    w.queue.stop();
  }

  /** Lets events older than SHARED_DELIVERY_MS drop their shared forms. */
  private releaseDeliveries(now: number): void {
    const before = now - SHARED_DELIVERY_MS;
    for (let i = this.sharedFrom - this.historyBase; i < this.history.length; i++) {
      const ev = this.history[i];
      if (ev.seenAt >= before) break;
      ev.delivery = undefined;
      this.sharedFrom++;
    }
  }

  /** Cuts the oldest `count` events; parked watchers that had yet to take them are ended. */
  private dropHistory(count: number): void {
    if (count <= 0) return;
    this.history.splice(0, count);
    this.historyBase += count;
    this.sharedFrom = Math.max(this.sharedFrom, this.historyBase);
    for (const w of this.parked) if (w.cursor < this.historyBase) this.cut(w);
  }

  /** Every watcher the cache serves, live or parked. */
  private watchers(): CacheWatcher[] {
    return [...this.live, ...this.parked];
  }

  private clearWatchers(): void {
    this.live.clear();
    this.parked.clear();
  }

  /** Keeps the window within its capacity and age; what leaves it is replayed by the backend. */
  private trimHistory(): void {
    // Past capacity the window is cut in batches: removing one event per new one moves the whole
    // array every time.
    if (
      this.history.length > this.capacity &&
      this.history.length <= this.capacity + Math.floor(this.capacity / TRIM_BATCH_DIVISOR)
    ) {
      const first = this.history[0];
      if (first === undefined || first.seenAt >= Date.now() - this.windowMs) return;
    }
    const oldest = Date.now() - this.windowMs;
    let drop = Math.max(0, this.history.length - this.capacity);
    while (drop < this.history.length && this.history[drop].seenAt < oldest) drop++;
    if (drop === 0) return;
    this.windowStart = Math.max(this.windowStart, this.history[drop - 1].revision);
    this.dropHistory(drop);
  }

  private advance(revision: Revision): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) (w.revision <= revision ? w.resolve : () => still.push(w))();
    this.waiters = still;
  }

  /** Resolves true once the cache has seen `revision`, false after the timeout. */
  private async caughtUp(revision: Revision): Promise<boolean> {
    await this.ready;
    if (this.revision >= revision) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, this.catchUpMs);
      const waiter = {
        revision,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    const at = opts.at;
    if (at?.kind !== 'notOlderThan') return this.backend.get(key, opts);
    if (!(await this.servable(key, at.revision))) return this.backend.get(key, opts);
    const entry = this.objects.get(key);
    if (entry === undefined) throw new KeyNotFoundError(key);
    return decodeBody(entry);
  }

  /** Whether the cache can answer "not older than `revision`": caught up, or the revision is in the future. */
  private async servable(key: string, revision: Revision): Promise<boolean> {
    await this.ready;
    if (this.revision >= revision) return true;
    // A revision from the near future (a client ahead of this replica) gets a moment to arrive.
    let current = await this.backend.currentRevision();
    for (let waited = 0; revision > current && waited < FUTURE_WAIT_MS; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      current = await this.backend.currentRevision();
    }
    if (revision > current) throw new TooLargeResourceVersionError(key, revision, current);
    return this.caughtUp(revision);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const at = opts.at ?? { kind: 'latest' };
    const paged = (opts.limit ?? 0) > 0 || opts.continue !== undefined;
    if (opts.exactKey === true || at.kind === 'exact') return this.backend.list(prefix, opts);
    if (paged) return this.pagedList(prefix, opts);
    let target: Revision;
    if (at.kind === 'latest') {
      await this.ready;
      target = await this.backend.currentRevision();
      if (!(await this.caughtUp(target))) return this.backend.list(prefix, opts);
    } else if (!(await this.servable(prefix, at.revision))) {
      return this.backend.list(prefix, opts);
    }
    const end = prefixEnd(prefix);
    const { predicate } = opts;
    if (predicate === undefined)
      return encodedList(this.objects.range(prefix, end), this.revision, this.objects.runs(prefix, end));
    const entries = this.objects.range(prefix, end).filter((entry) => selects(predicate, entry));
    return encodedList(entries, this.revision);
  }

  /**
   * A page from the collection's snapshot: taken at the first page (once caught up, as an unpaged
   * list would be), found again by the continue token's revision. A token whose snapshot is gone
   * continues from the backend at the same revision, so pages stay consistent either way.
   */
  private async pagedList(prefix: string, opts: ListOptions): Promise<ListResult> {
    if (this.snapshotTtlMs <= 0) return this.backend.list(prefix, opts);
    let snapshot: Snapshot | undefined;
    let start = prefix;
    if (opts.continue !== undefined) {
      let point: { revision: Revision; startKey: string };
      try {
        point = decodeContinue(prefix, opts.continue);
      } catch {
        return this.backend.list(prefix, opts);
      }
      snapshot = this.snapshotAt(prefix, point.revision);
      if (snapshot === undefined) return this.backend.list(prefix, opts);
      start = point.startKey;
    } else {
      const at = opts.at ?? { kind: 'latest' };
      if (at.kind === 'latest') {
        await this.ready;
        if (!(await this.caughtUp(await this.backend.currentRevision())))
          return this.backend.list(prefix, opts);
      } else if (at.kind === 'notOlderThan' && !(await this.servable(prefix, at.revision))) {
        return this.backend.list(prefix, opts);
      }
      snapshot = this.takeSnapshot(prefix);
    }
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
    const entries: Entry[] = [];
    let i = lowerBound(snapshot.keys, start);
    let lastKey = '';
    for (; i < snapshot.keys.length && entries.length < limit; i++) {
      const entry = snapshot.entries[i];
      if (!selects(opts.predicate, entry)) continue;
      entries.push(entry);
      lastKey = snapshot.keys[i];
    }
    const result = encodedList(entries, snapshot.revision);
    // More only if something after the last item could still match.
    if (entries.length >= limit && i < snapshot.keys.length) {
      result.continue = encodeContinue(prefix, lastKey, snapshot.revision);
      if (opts.predicate === undefined) result.remainingItemCount = snapshot.keys.length - i;
    }
    return result;
  }

  private takeSnapshot(prefix: string): Snapshot {
    const now = Date.now();
    for (const [id, s] of this.snapshots) if (s.expires <= now) this.snapshots.delete(id);
    const id = `${this.revision} ${prefix}`;
    const existing = this.snapshots.get(id);
    if (existing !== undefined) return existing;
    const snapshot: Snapshot = {
      revision: this.revision,
      ...this.objects.slice(prefix, prefixEnd(prefix)),
      expires: now + this.snapshotTtlMs,
    };
    if (this.snapshots.size >= MAX_SNAPSHOTS)
      this.snapshots.delete(this.snapshots.keys().next().value as string);
    this.snapshots.set(id, snapshot);
    return snapshot;
  }

  private snapshotAt(prefix: string, revision: Revision): Snapshot | undefined {
    const s = this.snapshots.get(`${revision} ${prefix}`);
    if (s === undefined || s.expires <= Date.now()) return undefined;
    return s;
  }

  watch(prefix: string, opts: WatchOptions = {}): WatchStream {
    const end = prefixEnd(prefix);
    // History the window no longer holds is the backend's to replay (or to refuse as compacted).
    if (opts.revision !== undefined && opts.revision < this.windowStart)
      return this.backend.watch(prefix, opts);
    const w: CacheWatcher = {
      queue: new WatchQueue(() => {
        this.live.delete(w);
        this.parked.delete(w);
      }),
      prefix,
      end,
      opts,
      last: opts.revision ?? 0,
      active: false,
      cursor: -1,
      nextBookmark: Date.now() + this.bookmarkFrequencyMs,
      bookmarkDue: false,
    };
    w.queue.onCaughtUp = () => this.catchUp(w);
    void this.open(w);
    return w.queue;
  }

  private async open(w: CacheWatcher): Promise<void> {
    try {
      if (w.opts.revision === undefined) {
        // The current state, read consistently, then everything after it.
        const target = await this.backend.currentRevision();
        await this.caughtUp(target);
        for (const entry of this.objects.range(w.prefix, w.end)) {
          if (selects(w.opts.predicate, entry)) {
            w.queue.push(encodedEvent('ADDED', new EncodedObject(entry), this.revision));
          }
        }
        w.last = this.revision;
      } else {
        await this.ready;
        if (w.opts.revision < this.windowStart) {
          // The window moved on while this watch was starting.
          this.relay(w, this.backend.watch(w.prefix, w.opts));
          return;
        }
        // The window's events after its revision, taken as a parked watcher takes them.
        if (w.queue.stopped) return;
        this.parked.add(w);
        w.cursor = this.historyBase;
        this.catchUp(w);
        return;
      }
      if (!w.queue.stopped) this.live.add(w);
    } catch (err) {
      w.queue.fail(err as Error);
    }
  }

  private relay(w: CacheWatcher, stream: WatchStream): void {
    void (async () => {
      for await (const ev of stream) {
        if (w.queue.stopped) break;
        if (ev.type === 'ERROR') w.queue.fail(ev.error ?? new Error('watch failed'), ev.revision);
        else w.queue.push(ev);
      }
      stream.stop();
    })();
  }

  private deliver(w: CacheWatcher, ev: CachedEvent, delivery: Delivery): void {
    if (ev.revision <= w.last || ev.key < w.prefix || ev.key >= w.end) return;
    w.last = ev.revision;
    const type = delivery.typeFor(ev, w.opts.predicate);
    if (type === null) return;
    w.active = true;
    if (w.queue.backlog >= this.backlog) {
      // Too slow to keep up: end its stream rather than hold events for it without bound.
      this.cut(w);
      return;
    }
    w.queue.push(delivery.event(type));
  }

  /**
   * Bookmarks for watchers that asked for them: one to each that was idle since the last
   * interval and has not heard of the current revision, and one to every watcher, busy or not,
   * about once per bookmark frequency (upstream's cadence: client-go's reflector relies on it to
   * resume close to the present). A parked watcher is behind, so a bookmark at the current
   * revision would claim events it has not had: it gets its bookmark once it has caught up.
   */
  private notifyProgress(): void {
    this.trimHistory();
    const now = Date.now();
    for (const w of this.parked) if (w.opts.progressNotify && now >= w.nextBookmark) w.bookmarkDue = true;
    for (const w of this.live) {
      if (!w.opts.progressNotify) continue;
      const due = w.bookmarkDue || now >= w.nextBookmark;
      const idle = !w.active;
      w.active = false;
      if (due || (idle && (this.revision > w.last || w.last === 0))) this.bookmark(w, now);
    }
  }

  /** A bookmark at the current revision: `w` is live, so it has had every event up to it. */
  private bookmark(w: CacheWatcher, now: number): void {
    w.last = Math.max(w.last, this.revision);
    w.nextBookmark = now + this.bookmarkFrequencyMs;
    w.bookmarkDue = false;
    w.queue.push({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(w.last) } },
      revision: w.last,
    });
  }

  create(key: string, obj: ApiObject): Promise<ApiObject> {
    return this.backend.create(key, obj);
  }

  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<ApiObject> {
    // The cached copy lets a backend skip its read (kube-apiserver does the same with etcd).
    const cachedState = () => {
      const entry = this.objects.get(key);
      return entry === undefined ? undefined : { object: decodeBody(entry), revision: entry.revision };
    };
    return this.backend.guaranteedUpdate(key, tryUpdate, { cachedState, ...opts });
  }

  delete(key: string, opts?: DeleteOptions): Promise<ApiObject> {
    return this.backend.delete(key, opts);
  }

  currentRevision(): Promise<Revision> {
    return this.backend.currentRevision();
  }

  async compact(revision: Revision): Promise<void> {
    await this.backend.compact(revision);
    // What the backend no longer keeps is no longer replayed, or paged, from here either.
    for (const [id, snap] of this.snapshots) if (snap.revision < revision) this.snapshots.delete(id);
    if (revision > this.windowStart) {
      this.windowStart = revision;
      const keep = this.history.findIndex((e) => e.revision > revision);
      this.dropHistory(keep === -1 ? this.history.length : keep);
    }
  }

  count(prefix: string): Promise<number> {
    return this.backend.count(prefix);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.progressTimer);
    this.feed?.stop();
    for (const w of this.watchers()) w.queue.stop();
    this.clearWatchers();
    await this.backend.close();
  }
}

/**
 * One change on its way to every watcher: the event of each type is made once and shared, and
 * watchers whose selectors are the same (a predicate's `key`) share one evaluation of them. The
 * object and its previous state are decoded once for every predicate that reads past metadata
 * (fifty node agents, each watching Pods by its own `spec.nodeName`, have fifty keys).
 */
class Delivery {
  private readonly events = new Map<WatchEvent['type'], WatchEvent>();
  private readonly typesBySelector = new Map<string, WatchEvent['type'] | null>();
  /** The previous state, decoded and frozen on first need (predicates only read). */
  private previous: ApiObject | undefined;

  constructor(
    private readonly encoded: EncodedObject,
    private readonly revision: Revision,
  ) {}

  typeFor(ev: CachedEvent, predicate: Predicate | undefined): WatchEvent['type'] | null {
    const key = predicate?.key;
    if (key === undefined) return this.filteredType(ev, predicate);
    let type = this.typesBySelector.get(key);
    if (type === undefined) {
      type = this.filteredType(ev, predicate);
      this.typesBySelector.set(key, type);
    }
    return type;
  }

  /** The event a watcher with this predicate sees for the change (watch-queue.ts's rule), or null. */
  private filteredType(ev: CachedEvent, predicate: Predicate | undefined): WatchEvent['type'] | null {
    if (predicate === undefined) return ev.type;
    const { previous } = ev;
    return selectedEventType(
      ev.type,
      () => predicate(predicate.metadataOnly ? ev.entry.view : this.encoded.object),
      () => {
        if (previous === null) return false;
        if (predicate.metadataOnly) return predicate(previous.view);
        this.previous ??= new EncodedObject(previous).object;
        return predicate(this.previous);
      },
    );
  }

  event(type: WatchEvent['type']): WatchEvent {
    let event = this.events.get(type);
    if (event === undefined) {
      event = encodedEvent(type, this.encoded, this.revision);
      this.events.set(type, event);
    }
    return event;
  }
}

function keyOf(obj: ApiObject): string {
  const key = storageKeyOf(obj);
  if (key === undefined)
    throw new Error('the backend handed the watch cache an object without its storage key');
  return key;
}
