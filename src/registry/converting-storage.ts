// Storage seen through a conversion: a kind served in one shape and stored in another's (the
// events group's Event, kept as core/v1 Events) reads and writes the other kind's keys through
// this, so the generic store above it only ever sees its own shape. Objects are converted on the
// way in (create, the result of an update) and out (reads, lists, watch events, the object a
// delete or an update callback is shown); selectors run on the converted object. What the watch
// cache shares pre-encoded is dropped here, since those bytes are in the stored shape.

import type { ApiObject } from '../machinery/object.ts';
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
  WatchSink,
  WatchStream,
} from '../storage/interface.ts';

export interface ShapeConversion {
  /** The served shape to the stored one. */
  toStored(obj: ApiObject): ApiObject;
  /** The stored shape to the served one. */
  fromStored(obj: ApiObject): ApiObject;
}

function convertedPredicate(p: Predicate | undefined, c: ShapeConversion): Predicate | undefined {
  if (p === undefined) return undefined;
  if (p.metadataOnly) return p; // metadata is the same in both shapes
  const wrapped = (obj: ApiObject) => p(c.fromStored(obj));
  return Object.assign(wrapped, { key: p.key === undefined ? undefined : `converted ${p.key}` });
}

function convertedEvent(ev: WatchEvent, c: ShapeConversion): WatchEvent {
  if (ev.type === 'BOOKMARK' || ev.type === 'ERROR')
    return { type: ev.type, object: ev.object, revision: ev.revision, error: ev.error };
  let object: ApiObject | undefined;
  return {
    type: ev.type,
    revision: ev.revision,
    error: ev.error,
    get object() {
      object ??= c.fromStored(ev.object);
      return object;
    },
  };
}

/** The stream's events converted; iteration and sinks both. */
function convertedStream(inner: WatchStream, c: ShapeConversion): WatchStream {
  return {
    stop: () => inner.stop(),
    attach: (sink: WatchSink, onEnd) => inner.attach((ev) => sink(convertedEvent(ev, c)), onEnd),
    resume: () => inner.resume(),
    get resumesInStep() {
      return inner.resumesInStep;
    },
    async *[Symbol.asyncIterator]() {
      for await (const ev of inner) yield convertedEvent(ev, c);
    },
  };
}

export class ConvertingStorage implements Storage {
  constructor(
    private readonly inner: Storage,
    private readonly c: ShapeConversion,
  ) {}

  async create(key: string, obj: ApiObject): Promise<ApiObject> {
    return this.c.fromStored(await this.inner.create(key, this.c.toStored(obj)));
  }

  async get(key: string, opts?: GetOptions): Promise<ApiObject> {
    return this.c.fromStored(await this.inner.get(key, opts));
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const res = await this.inner.list(prefix, {
      ...opts,
      predicate: convertedPredicate(opts.predicate, this.c),
    });
    const out: ListResult = { items: res.items.map((o) => this.c.fromStored(o)), revision: res.revision };
    if (res.continue !== undefined) out.continue = res.continue;
    if (res.remainingItemCount !== undefined) out.remainingItemCount = res.remainingItemCount;
    return out;
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject> {
    const { c } = this;
    // A cached state handed down by the watch cache below is in the stored shape already.
    const updated = await this.inner.guaranteedUpdate(
      key,
      async (input) => {
        const out = await tryUpdate({
          current: input.current === null ? null : c.fromStored(input.current),
          revision: input.revision,
        });
        return out === null ? null : c.toStored(out);
      },
      opts,
    );
    return c.fromStored(updated);
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<ApiObject> {
    const validate = opts.validateDeletion;
    const deleted = await this.inner.delete(key, {
      ...opts,
      validateDeletion:
        validate === undefined ? undefined : (current) => validate(this.c.fromStored(current)),
    });
    return opts.expectCorrupt ? deleted : this.c.fromStored(deleted);
  }

  watch(prefix: string, opts: WatchOptions = {}): WatchStream {
    return convertedStream(
      this.inner.watch(prefix, { ...opts, predicate: convertedPredicate(opts.predicate, this.c) }),
      this.c,
    );
  }

  currentRevision(): Promise<Revision> {
    return this.inner.currentRevision();
  }

  compact(revision: Revision): Promise<void> {
    return this.inner.compact(revision);
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  /** The shared storage is closed by its owner, not through a view of it. */
  async close(): Promise<void> {}
}
