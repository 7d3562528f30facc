// The reflector: keeps a sink (the informer's cache) equal to the server's state of one resource,
// as client-go's tools/cache reflector does. It first tries a streaming list (a watch with
// sendInitialEvents=true, resourceVersionMatch=NotOlderThan, ending at the initial-events-end
// bookmark) and falls back to a paged list (500 a page) when the server refuses that with a 4xx;
// then it watches from the list's resourceVersion with bookmarks, which move the resourceVersion on.
// A watch the server closes is reopened from the last resourceVersion; a 410 Expired, or any other
// failure, leads to a new list after a backoff (800 ms doubling to 30 s, jittered). Watches ask for
// timeoutSeconds between 5 and 10 minutes, chosen at random per watch, so clients spread out.

import type { ApiObject, ObjectMeta } from '../../machinery/object.ts';
import { fromStatus, reasonOf, type Status } from '../../machinery/status.ts';
import { initialEventsEndAnnotations, namingProfile } from '../../naming/profile.ts';
import type { Clock, ResourceClient, WatchEvent, WatchOptions, WatchStream } from '../api.ts';
import { realClock, sleep } from '../work-queue/clock.ts';
import {
  Backoff,
  type BackoffOptions,
  isExpiredError,
  isRetriableWatchError,
  isStreamingListRefusal,
  isTooLargeResourceVersionError,
  REFLECTOR_BACKOFF,
} from './backoff.ts';
import { objectKey } from './keys.ts';
import { pagedList } from './list-pager.ts';

/** Where the reflector puts what it learns. */
export interface ReflectorSink<T> {
  /** The complete state after a list: everything else in the cache is gone. */
  replace(items: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  labelSelector?: string;
  fieldSelector?: string;
  clock?: Clock;
  /** For the watch timeout and backoff jitter (tests pin it). */
  random?: () => number;
  /** Page size of lists (client-go's 500). */
  pageSize?: number;
  /** Try a streaming list first (client-go's WatchListClient); true when absent. */
  useWatchList?: boolean;
  /** Watches ask for a timeout between this and twice it (5 minutes when absent). */
  minWatchTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Told of failures that lead to a relist (and of events it could not understand). */
  onError?(err: unknown): void;
}

/** The annotations either naming profile puts on the bookmark that ends a streaming list. */
const INITIAL_EVENTS_END = [
  ...new Set([
    ...initialEventsEndAnnotations(namingProfile('spec')),
    ...initialEventsEndAnnotations(namingProfile('upstream')),
  ]),
];

const DEFAULT_MIN_WATCH_TIMEOUT_MS = 5 * 60 * 1000;

interface OpenWatch<T extends ApiObject> {
  stream: WatchStream<T>;
  it: AsyncIterator<WatchEvent<T>>;
}

interface Consumed {
  initialEventsEnd: boolean;
  events: number;
}

export class Reflector<T extends ApiObject = ApiObject> {
  private lastSyncRV = '';
  /** The last resourceVersion proved too old (or too new): the next list is a fresh one. */
  private rvUnavailable = false;
  /** A list at "0" came back in pages, so later lists are paged too. */
  private paginatedResult = false;
  private watchList: boolean;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly pageSize: number;
  private readonly minWatchTimeoutMs: number;

  constructor(
    private readonly client: ResourceClient<T>,
    private readonly sink: ReflectorSink<T>,
    private readonly opts: ReflectorOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.backoff = new Backoff(opts.backoff ?? REFLECTOR_BACKOFF, this.clock, this.random);
    this.pageSize = opts.pageSize ?? 500;
    this.watchList = opts.useWatchList ?? true;
    this.minWatchTimeoutMs = Math.max(opts.minWatchTimeoutMs ?? 0, DEFAULT_MIN_WATCH_TIMEOUT_MS);
  }

  /** The resourceVersion of the last list, event or bookmark taken in. */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** Whether the next list will be a streaming one (false once the server refused them). */
  usesStreamingLists(): boolean {
    return this.watchList;
  }

  /** Lists and watches until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (err) {
        if (!signal.aborted) this.report(err);
      }
      if (signal.aborted) return;
      await sleep(this.clock, this.backoff.next(), signal);
    }
  }

  private async listAndWatch(signal: AbortSignal): Promise<void> {
    let w: OpenWatch<T> | undefined;
    if (this.watchList) {
      try {
        w = await this.streamingList(signal);
        if (w === undefined) return;
      } catch (err) {
        if (signal.aborted) return;
        // Any failure falls back to a plain list, as client-go does; a refusal also ends the tries.
        if (isStreamingListRefusal(err)) this.watchList = false;
        w = undefined;
      }
    }
    if (w === undefined) {
      await this.list(signal);
      if (signal.aborted) return;
    }
    await this.watch(w, signal);
  }

  /** A streaming list into a temporary map; answers the watch to go on with, or undefined when stopped. */
  private async streamingList(signal: AbortSignal): Promise<OpenWatch<T> | undefined> {
    for (;;) {
      if (signal.aborted) return undefined;
      const temp = new Map<string, T>();
      let rv = '';
      const start = this.clock.now();
      let w: OpenWatch<T>;
      try {
        w = await this.openWatch(
          {
            resourceVersion: this.rvUnavailable ? '' : this.lastSyncRV,
            allowWatchBookmarks: true,
            sendInitialEvents: true,
            resourceVersionMatch: 'NotOlderThan',
            timeoutSeconds: this.watchTimeoutSeconds(),
          },
          signal,
        );
      } catch (err) {
        if (await this.retryStreamingList(err, signal)) continue;
        throw err;
      }
      let got: Consumed;
      try {
        got = await this.consume(
          w,
          signal,
          {
            replace: () => {},
            add: (o) => temp.set(objectKey(o), o),
            update: (o) => temp.set(objectKey(o), o),
            delete: (o) => temp.delete(objectKey(o)),
          },
          (v, besidesAdded) => {
            if (besidesAdded) rv = v;
          },
          true,
        );
      } catch (err) {
        w.stream.stop();
        if (signal.aborted) return undefined;
        if (await this.retryStreamingList(err, signal)) continue;
        throw err;
      }
      if (signal.aborted) {
        w.stream.stop();
        return undefined;
      }
      if (got.initialEventsEnd) {
        this.rvUnavailable = false;
        this.sink.replace([...temp.values()], rv);
        this.lastSyncRV = rv;
        return w;
      }
      if (got.events === 0 && this.clock.now() - start < 1000) throw veryShortWatch(this.client);
    }
  }

  /** client-go's side effects before a streaming list is tried again; false when it is not. */
  private async retryStreamingList(err: unknown, signal: AbortSignal): Promise<boolean> {
    if (isRetriableWatchError(err)) {
      await sleep(this.clock, this.backoff.next(), signal);
      return true;
    }
    if (isExpiredError(err) || isTooLargeResourceVersionError(err)) {
      this.rvUnavailable = true;
      return true;
    }
    return false;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const base = { labelSelector: this.opts.labelSelector, fieldSelector: this.opts.fieldSelector, signal };
    const rv = this.relistResourceVersion();
    // A list at a known revision is served from the watch cache whole, unless lists came in pages.
    const pageSize = !this.paginatedResult && rv !== '' && rv !== '0' ? 0 : this.pageSize;
    let result: Awaited<ReturnType<typeof pagedList<T>>>;
    try {
      result = await pagedList(this.client, rv, pageSize, base);
    } catch (err) {
      if (!isExpiredError(err) && !isTooLargeResourceVersionError(err)) throw listFailed(this.client, err);
      this.rvUnavailable = true;
      try {
        result = await pagedList(this.client, this.relistResourceVersion(), pageSize, base);
      } catch (again) {
        throw listFailed(this.client, again);
      }
    }
    if (signal.aborted) return;
    if (rv === '0' && result.paginated) this.paginatedResult = true;
    this.rvUnavailable = false;
    this.sink.replace(result.items, result.resourceVersion);
    this.lastSyncRV = result.resourceVersion;
  }

  private async watch(initial: OpenWatch<T> | undefined, signal: AbortSignal): Promise<void> {
    let w = initial;
    for (;;) {
      if (signal.aborted) {
        w?.stream.stop();
        return;
      }
      const start = this.clock.now();
      let propagate = true;
      if (w === undefined) {
        const rv = this.lastSyncRV;
        // From "now" or "any" the server starts with synthetic ADDED events, whose versions are not a position.
        if (rv === '' || rv === '0') propagate = false;
        try {
          w = await this.openWatch(
            { resourceVersion: rv, timeoutSeconds: this.watchTimeoutSeconds(), allowWatchBookmarks: true },
            signal,
          );
        } catch (err) {
          if (signal.aborted) return;
          if (!isRetriableWatchError(err)) throw err;
          await sleep(this.clock, this.backoff.next(), signal);
          continue;
        }
      }
      let got: Consumed;
      try {
        got = await this.consume(
          w,
          signal,
          this.sink,
          (rv, besidesAdded) => {
            if (propagate || besidesAdded) this.lastSyncRV = rv;
          },
          false,
        );
      } catch (err) {
        w.stream.stop();
        if (signal.aborted || isExpiredError(err)) return;
        if (reasonOf(err) === 'TooManyRequests') {
          w = undefined;
          await sleep(this.clock, this.backoff.next(), signal);
          continue;
        }
        this.report(err);
        return;
      }
      w = undefined;
      if (signal.aborted) return;
      if (got.events === 0 && this.clock.now() - start < 1000) {
        this.report(veryShortWatch(this.client));
        return;
      }
      // The server ended the watch (its timeout): go on from the last resourceVersion seen.
    }
  }

  /** Feeds a watch's events to `sink` until it ends (or, when asked, until the initial-events-end bookmark). */
  private async consume(
    w: OpenWatch<T>,
    signal: AbortSignal,
    sink: ReflectorSink<T>,
    setRV: (rv: string, besidesAdded: boolean) => void,
    stopAtInitialEventsEnd: boolean,
  ): Promise<Consumed> {
    let besidesAdded = false;
    let events = 0;
    const onAbort = () => w.stream.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const r = await w.it.next();
        if (r.done) return { initialEventsEnd: false, events };
        const ev = r.value;
        if (ev?.type === 'ERROR') throw fromStatus((ev.object ?? {}) as Partial<Status>);
        const meta = ev?.object?.metadata as ObjectMeta | undefined;
        if (meta === undefined || meta === null || typeof meta !== 'object') {
          this.report(new Error(`unable to understand watch event of type ${String(ev?.type)}`));
          continue;
        }
        let initialEventsEnd = false;
        switch (ev.type) {
          case 'ADDED':
            sink.add(ev.object);
            break;
          case 'MODIFIED':
            besidesAdded = true;
            sink.update(ev.object);
            break;
          case 'DELETED':
            besidesAdded = true;
            sink.delete(ev.object);
            break;
          case 'BOOKMARK':
            besidesAdded = true;
            initialEventsEnd = INITIAL_EVENTS_END.some((a) => meta.annotations?.[a] === 'true');
            break;
          default:
            this.report(new Error(`unknown watch event type ${JSON.stringify(ev.type)}`));
            continue;
        }
        setRV(meta.resourceVersion ?? '', besidesAdded);
        events++;
        if (stopAtInitialEventsEnd && initialEventsEnd) return { initialEventsEnd: true, events };
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async openWatch(opts: WatchOptions, signal: AbortSignal): Promise<OpenWatch<T>> {
    const stream = await this.client.watch({
      ...opts,
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
      signal,
    });
    return { stream, it: stream[Symbol.asyncIterator]() };
  }

  private relistResourceVersion(): string {
    if (this.rvUnavailable) return '';
    return this.lastSyncRV === '' ? '0' : this.lastSyncRV;
  }

  private watchTimeoutSeconds(): number {
    const min = this.minWatchTimeoutMs / 1000;
    return Math.floor(min + this.random() * min);
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      // A failing reporter must not stop the reflector.
    }
  }
}

function describe(client: ResourceClient<ApiObject>): string {
  const r = client.resource;
  return r.group ? `${r.resource}.${r.version}.${r.group}` : `${r.resource}.${r.version}`;
}

function listFailed(client: ResourceClient<ApiObject>, err: unknown): Error {
  return new Error(
    `failed to list ${describe(client)}: ${err instanceof Error ? err.message : String(err)}`,
    {
      cause: err,
    },
  );
}

function veryShortWatch(client: ResourceClient<ApiObject>): Error {
  return new Error(
    `very short watch: ${describe(client)}: Unexpected watch close - watch lasted less than a second and no items received`,
  );
}
