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
import { codecsOf, type ResourceHandler } from './env.ts';
import { listParamsOf } from './options.ts';
import { partialMetadata } from './output.ts';
import { WatchWriter } from './watch-writer.ts';

/**
 * One JSON line per (event type, object), shared by every watcher that receives the same object.
 * Events from the watch cache carry the object's JSON body, and the line is spliced from those bytes
 * once per event however many clients watch; other events are encoded once per object.
 */
const encodedLines = new WeakMap<ApiObject, Map<string, string>>();
function eventLine(ev: WireWatchEvent, typeMeta: string, lineIds: LineIds): string | Buffer {
  const { type, encoded } = ev;
  if (encoded !== undefined) {
    return encoded.derived(lineIds[type], (body) =>
      Buffer.concat([
        Buffer.from(`{"type":${JSON.stringify(type)},"object":`),
        withTypeMetaJson(typeMeta, body),
        CLOSE_LINE,
      ]),
    );
  }
  const object = ev.object;
  let byType = encodedLines.get(object);
  if (byType === undefined) {
    byType = new Map();
    encodedLines.set(object, byType);
  }
  let line = byType.get(type);
  if (line === undefined) {
    line = `${JSON.stringify({ type, object })}\n`;
    byType.set(type, line);
  }
  return line;
}

const CLOSE_LINE = Buffer.from('}\n');

/**
 * The names of a resource's event lines among an event's derived encodings, made once per watch:
 * they are looked up once per event per watcher, and a string built for each lookup costs its
 * building and its hashing every time.
 */
type LineIds = Record<WireWatchEvent['type'], string>;
function lineIdsFor(typeMeta: string): LineIds {
  const id = (type: string) => `json ${type} ${typeMeta}`;
  return {
    ADDED: id('ADDED'),
    MODIFIED: id('MODIFIED'),
    DELETED: id('DELETED'),
    BOOKMARK: id('BOOKMARK'),
    ERROR: id('ERROR'),
  };
}

const binaryEvents = new WeakMap<ApiObject, Map<string, Buffer>>();

/** The object with its kind and apiVersion, which a binary event's object carries. */
function typed(object: ApiObject, kind: string, apiVersion: string): ApiObject {
  if (object.kind !== undefined && object.apiVersion !== undefined) return object;
  return { apiVersion, kind, ...object };
}

/**
 * One binary event per (encoding, event type, object), made once and shared by every watcher: from
 * the cached object's decoded form (decoded once per event), or from the object of an uncached event.
 */
function binaryEvent(
  ev: WireWatchEvent,
  serializer: BinarySerializer,
  kind: string,
  apiVersion: string,
): Buffer {
  const id = `${serializer.schemaless ? 'cbor' : 'protobuf'} ${ev.type}`;
  const make = () => serializer.watchEvent(ev.type, serializer.encode(typed(ev.object, kind, apiVersion)));
  if (ev.encoded !== undefined) return ev.encoded.derived(id, make);
  let byId = binaryEvents.get(ev.object);
  if (byId === undefined) {
    byId = new Map();
    binaryEvents.set(ev.object, byId);
  }
  let bytes = byId.get(id);
  if (bytes === undefined) {
    bytes = make();
    byId.set(id, bytes);
  }
  return bytes;
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
  const lineIds = lineIdsFor(typeMeta);
  let headersSent = false;
  const render = (ev: WireWatchEvent): string | Buffer => {
    const { type } = ev;
    if (type === 'ERROR' || type === 'BOOKMARK' || choice.conversion === undefined) {
      return serializer.binary
        ? binaryEvent(ev, serializer, r.kind, apiVersion)
        : eventLine(ev, typeMeta, lineIds);
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

  ctx.res.writeHead(200, {
    'content-type': serializer.binary ? serializer.streamMediaType : 'application/json',
    'cache-control': 'no-cache, private',
  });
  // Headers go out now so that clients see the watch established before the first event.
  (ctx.res as unknown as { flushHeaders?: () => void }).flushHeaders?.();
  // The newest revision the client has been told about: a closing bookmark may not pass it, or the
  // client would resume past events it never received.
  let reached = p.revision ?? 0;
  const out = new WatchWriter(ctx.res);
  try {
    for await (const ev of watch) {
      if (ctx.res.writableEnded || ctx.res.destroyed) break;
      out.push(render(ev));
      await out.drained();
      if (ev.type !== 'ERROR') {
        const revision = ev.revision ?? Number(ev.object.metadata?.resourceVersion ?? 0);
        reached = Math.max(reached, revision);
      }
    }
    if (timedOut && p.allowBookmarks && reached > 0 && !ctx.res.writableEnded) {
      const bookmark = { kind: r.kind, apiVersion, metadata: { resourceVersion: String(reached) } };
      out.push(render({ type: 'BOOKMARK', object: bookmark }));
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
