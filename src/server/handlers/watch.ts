// Watch: a chunked stream of one JSON document per event ({"type":...,"object":...}), or of
// length-prefixed protobuf WatchEvent frames (`<protobuf type>;stream=watch`), or a CBOR sequence
// (application/cbor-seq). A client that asked for a Table gets each object as a one-row Table, with
// column definitions on the first event only, as upstream does. The stream ends at timeoutSeconds,
// when the client leaves, or on shutdown.

import { negotiateStream } from '../../codec/negotiation.ts';
import type { BinarySerializer } from '../../codec/serializers.ts';
import { buildTable } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { initialEventsEndAnnotations } from '../../naming/profile.ts';
import type { WireWatchEvent } from '../../registry/generic-store.ts';
import { typeMetaPrefix, withTypeMetaJson } from '../../storage/encoded.ts';
import { abortResponse } from '../abort-response.ts';
import { sendWarnings } from '../respond.ts';
import { chunkedSocketSink } from './chunked-socket-sink.ts';
import { codecsOf, type ResourceHandler } from './env.ts';
import { listParamsOf } from './options.ts';
import { partialMetadata } from './output.ts';
import { watchEventMetrics } from './watch-metrics.ts';
import { WatchWriter } from './watch-writer.ts';

/**
 * An event's encodings, each made once and shared by every watcher that receives it. Events from
 * the watch cache keep theirs with the cached object (and a JSON line is spliced from its JSON
 * body); other events keep theirs here, by object.
 */
const uncachedForms = new WeakMap<ApiObject, Map<string, string | Buffer>>();
function uncachedForm(object: ApiObject, id: string, make: () => string | Buffer): string | Buffer {
  let forms = uncachedForms.get(object);
  if (forms === undefined) {
    forms = new Map();
    uncachedForms.set(object, forms);
  }
  let form = forms.get(id);
  if (form === undefined) {
    form = make();
    forms.set(id, form);
  }
  return form;
}

/**
 * The names of one watch's event encodings, by event type, made once per watch: they are looked
 * up once per event per watcher, and a string built for each lookup costs its building and its
 * hashing every time.
 */
type EventIds = Record<WireWatchEvent['type'], string>;
function eventIdsFor(encoding: string): EventIds {
  const id = (type: string) => `${encoding} ${type}`;
  return {
    ADDED: id('ADDED'),
    MODIFIED: id('MODIFIED'),
    DELETED: id('DELETED'),
    BOOKMARK: id('BOOKMARK'),
    ERROR: id('ERROR'),
  };
}

/** One JSON line per event, `typeMeta` as typeMetaPrefix makes it for the watched resource. */
function eventLine(ev: WireWatchEvent, typeMeta: string, ids: EventIds): string | Buffer {
  const { type, encoded } = ev;
  if (encoded === undefined)
    return uncachedForm(ev.object, ids[type], () => `${JSON.stringify({ type, object: ev.object })}\n`);
  return encoded.derived(ids[type], (body) =>
    Buffer.concat([
      Buffer.from(`{"type":${JSON.stringify(type)},"object":`),
      withTypeMetaJson(typeMeta, body),
      CLOSE_LINE,
    ]),
  );
}

const CLOSE_LINE = Buffer.from('}\n');

/** The object with its kind and apiVersion, which a binary event's object carries. */
function typed(object: ApiObject, kind: string, apiVersion: string): ApiObject {
  if (object.kind !== undefined && object.apiVersion !== undefined) return object;
  return { apiVersion, kind, ...object };
}

/** One binary event (protobuf frame, CBOR sequence item) per event, from its decoded object. */
function binaryEvent(
  ev: WireWatchEvent,
  serializer: BinarySerializer,
  ids: EventIds,
  kind: string,
  apiVersion: string,
): string | Buffer {
  const make = () => serializer.watchEvent(ev.type, serializer.encode(typed(ev.object, kind, apiVersion)));
  const id = ids[ev.type];
  return ev.encoded === undefined ? uncachedForm(ev.object, id, make) : ev.encoded.derived(id, make);
}

export const watchHandler: ResourceHandler = async (ctx, env, t) => {
  // Only encodings with stream framing are served: YAML has none.
  const choice = negotiateStream(ctx.req.headers.accept, {
    metaGroups: env.metaGroups,
    tables: true,
    codecs: codecsOf(env, t),
  });
  const serializer = choice.serializer;
  const p = listParamsOf(ctx, env, true);
  const timeoutS =
    p.timeoutSeconds !== undefined && p.timeoutSeconds > 0
      ? p.timeoutSeconds
      : // Upstream's spread: between the minimum and twice it, so reconnects do not bunch up.
        env.minRequestTimeoutSeconds * (1 + Math.random());
  const watch = t.served.store.watch(t.namespace, {
    labelSelector: p.labelSelector,
    fieldSelector: p.fieldSelector,
    revision: p.revision,
    allowBookmarks: p.allowBookmarks,
    sendInitialEvents: p.sendInitialEvents,
    at: p.at,
    initialEventsEnd: initialEventsEndAnnotations(env.profile),
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    watch.stop();
  }, timeoutS * 1000);
  timer.unref();
  const stop = () => watch.stop();
  ctx.signal.addEventListener('abort', stop);
  ctx.res.on('close', stop);

  const table = choice.conversion?.as === 'Table' ? choice.conversion : undefined;
  const r = t.served.kind.resource;
  const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
  const typeMeta = typeMetaPrefix(r.kind, apiVersion);
  const ids = eventIdsFor(
    serializer.binary ? (serializer.schemaless ? 'cbor' : 'protobuf') : `json ${typeMeta}`,
  );
  let headersSent = false;
  const render = (ev: WireWatchEvent): string | Buffer => {
    const { type } = ev;
    if (type === 'ERROR' || type === 'BOOKMARK' || choice.conversion === undefined) {
      return serializer.binary
        ? binaryEvent(ev, serializer, ids, r.kind, apiVersion)
        : eventLine(ev, typeMeta, ids);
    }
    const object = ev.object;
    // Conversions are made per watcher (a Table's headers go with the first event only).
    const converted = (o: ApiObject): string | Buffer =>
      serializer.binary
        ? serializer.watchEvent(type, serializer.encode(o))
        : `${JSON.stringify({ type, object: o })}\n`;
    if (table !== undefined) {
      const rendered = buildTable([object], t.served.kind.table, {
        group: table.group,
        version: table.version,
        includeObject: ctx.query.get('includeObject') ?? undefined,
        noHeaders: headersSent,
        listMeta: { resourceVersion: object.metadata?.resourceVersion ?? '' },
      });
      headersSent = true;
      return converted(rendered as unknown as ApiObject);
    }
    const { group, version } = choice.conversion;
    return converted(partialMetadata(object, group, version));
  };

  // Warnings (a deprecated version's) go out with the headers, as upstream's recorder writes them.
  sendWarnings(ctx);
  ctx.res.writeHead(200, {
    'content-type': serializer.binary ? serializer.streamMediaType : 'application/json',
    'cache-control': 'no-cache, private',
  });
  // Headers go out now so that clients see the watch established before the first event.
  (ctx.res as unknown as { flushHeaders?: () => void }).flushHeaders?.();
  // The newest revision the client has been told about: a closing bookmark may not pass it, or the
  // client would resume past events it never received.
  let reached = p.revision ?? 0;
  // HTTP/1.1 streams are framed by the writer and written straight to their socket.
  const out = new WatchWriter(chunkedSocketSink(ctx.res) ?? ctx.res, undefined, env.watchBudget);
  // Found once per watch: each event then adds to its records (upstream counts what it writes).
  const recorded =
    env.metrics === undefined ? undefined : watchEventMetrics(env.metrics).of(r.group, r.version, r.resource);
  const send = (chunk: string | Buffer): void => {
    out.push(chunk);
    recorded?.record(chunk);
  };
  // Past its budget the watch ends at once: its unsent bytes go with its connection (HTTP/1.1,
  // reset) or stream (HTTP/2), and its client watches again from the last event it read.
  out.onOverflow = () => {
    watch.stop();
    abortResponse(ctx.res);
  };
  // Events arrive through a sink, in the step that produced them: no promise per event per watcher.
  // While the socket is full, they wait in the watch (where the watch cache sees a slow watcher).
  // So they do while the writer waits for its turn, if the watch can hand them all over the moment
  // the turn comes: taken then in one step, they cost one walk through this watcher's objects per
  // write instead of one per event.
  out.collect = () => (out.full ? undefined : watch.resume());
  const deliver = (ev: WireWatchEvent): boolean => {
    if (ctx.res.writableEnded || ctx.res.destroyed) {
      watch.stop();
      return false;
    }
    send(render(ev));
    if (ev.type !== 'ERROR') {
      const revision = ev.revision ?? Number(ev.object.metadata?.resourceVersion ?? 0);
      reached = Math.max(reached, revision);
    }
    if (out.full) {
      void out.drained().then(() => watch.resume());
      return false;
    }
    // Gathered enough: the rest waits in the watch until the writer's next turn.
    if (out.saturated) return false;
    return !(out.waiting && watch.resumesInStep === true);
  };
  try {
    const failure = await new Promise<unknown>((resolve) => {
      // A client that left never drains its socket: its watch ends with the response, not with
      // the events still waiting for it.
      ctx.res.once('close', () => resolve(undefined));
      watch.attach(deliver, resolve);
    });
    if (failure !== undefined) throw failure;
    if (timedOut && p.allowBookmarks && reached > 0 && !ctx.res.writableEnded) {
      const bookmark = { kind: r.kind, apiVersion, metadata: { resourceVersion: String(reached) } };
      send(render({ type: 'BOOKMARK', object: bookmark }));
    }
    out.flush();
  } finally {
    out.close();
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
    watch.stop();
    if (!ctx.res.writableEnded) ctx.res.end();
  }
};
