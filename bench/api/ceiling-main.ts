// The ceiling of the watch and list scenarios: a server that does nothing but what every server
// must do for them. It serves their requests (create objects, merge-patch them, watch a namespace,
// list it) on our TLS listener: each change goes to every watcher through our watch writer, one
// encoding of the event shared by all, and a list is one body, built once and kept until the next
// write (a page is a slice of it). No storage, no admission, no field management, no cache. What
// the harness measures against it is what this machine and this load generator allow any server.
// Run as a child process: `node --import tsx ceiling-main.ts <port> <dir>`; it writes
// `ready` on stdout once listening.

import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { chunkedSocketSink } from '../../src/server/handlers/chunked-socket-sink.ts';
import { WatchWriter } from '../../src/server/handlers/watch-writer.ts';
import { listen } from '../../src/server/listener.ts';
import { ensurePki } from '../../src/server/pki/ensure-pki.ts';

const [port, dir] = process.argv.slice(2);

interface Ticker {
  metadata: Record<string, unknown>;
  data: Record<string, string>;
}

let revision = 1;

/** A namespace's objects in creation order, its watchers, and its list's parts while unchanged. */
interface Collection {
  objects: Map<string, Ticker>;
  watchers: Set<WatchWriter>;
  /** The objects' JSON, for pages. */
  items?: string[];
  /** The whole list's body. */
  body?: Buffer;
}
const collections = new Map<string, Collection>();

function collection(namespace: string): Collection {
  let c = collections.get(namespace);
  if (c === undefined) {
    c = { objects: new Map(), watchers: new Set() };
    collections.set(namespace, c);
  }
  return c;
}

/** Bodies go out in pieces of this size, as our server writes lists (one huge write is slower). */
const PIECE = 1 << 20;

function store(c: Collection, name: string, o: Ticker): void {
  c.objects.set(name, o);
  c.items = undefined;
  c.body = undefined;
}

function listBody(c: Collection, from: number, limit: number): Buffer {
  const whole = from === 0 && limit >= c.objects.size;
  if (whole && c.body !== undefined) return c.body;
  c.items ??= [...c.objects.values()].map((o) => JSON.stringify(o));
  const page = c.items.slice(from, from + limit);
  const next = from + page.length;
  const metadata = {
    resourceVersion: String(revision),
    ...(next < c.items.length ? { continue: String(next) } : {}),
  };
  const body = Buffer.from(
    `{"kind":"ConfigMapList","apiVersion":"v1","metadata":${JSON.stringify(metadata)},"items":[${page.join(',')}]}`,
  );
  if (whole) c.body = body;
  return body;
}

/** A watch event's line, with the kind and apiVersion a watch event's object carries. */
const eventLine = (type: 'ADDED' | 'MODIFIED', o: Ticker) =>
  `${JSON.stringify({ type, object: { kind: 'ConfigMap', apiVersion: 'v1', ...o } })}\n`;

function json(res: Http2ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: Http2ServerRequest): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** The object as our server would send it: the same fields, so events are of the same size. */
function stored(name: string, namespace: string, data: Record<string, string>): Ticker {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    metadata: {
      name,
      namespace,
      uid: '6c1f4d0e-2b7a-4c55-9a3e-0d8b7f1e2a90',
      resourceVersion: String(++revision),
      creationTimestamp: now,
      managedFields: [
        {
          manager: 'node',
          operation: 'Update',
          apiVersion: 'v1',
          time: now,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:data': Object.fromEntries(
              ['.', ...Object.keys(data)].map((k) => [k === '.' ? k : `f:${k}`, {}]),
            ),
          },
        },
      ],
    },
    data,
  };
}

async function handle(req: Http2ServerRequest, res: Http2ServerResponse): Promise<void> {
  const url = new URL(req.url, 'https://ceiling');
  if (req.method === 'POST' && url.pathname === '/api/v1/namespaces') {
    const body = (await readBody(req)) as { metadata: { name: string } };
    return json(res, 201, { kind: 'Namespace', apiVersion: 'v1', metadata: body.metadata });
  }
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps(?:\/([^/]+))?$/.exec(url.pathname);
  if (m === null) return json(res, 404, { kind: 'Status', code: 404 });
  const [, namespace, name] = m;
  const c = collection(namespace);
  if (req.method === 'GET' && url.searchParams.get('watch') === 'true') {
    res.writeHead(200, { 'content-type': 'application/json' });
    (res as unknown as { flushHeaders?: () => void }).flushHeaders?.();
    const out = new WatchWriter(chunkedSocketSink(res) ?? res);
    c.watchers.add(out);
    res.on('close', () => {
      c.watchers.delete(out);
      out.close();
    });
    for (const o of c.objects.values()) out.push(eventLine('ADDED', o));
    return;
  }
  if (req.method === 'GET' && name === undefined) {
    const limit = Number(url.searchParams.get('limit') ?? 0);
    const from = Number(url.searchParams.get('continue') ?? 0);
    const body = listBody(c, from, limit > 0 ? limit : Number.POSITIVE_INFINITY);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    for (let at = 0; at < body.length; at += PIECE) {
      if (!res.write(body.subarray(at, at + PIECE)))
        await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
    return;
  }
  if (req.method === 'POST') {
    const body = (await readBody(req)) as { metadata: { name: string }; data: Record<string, string> };
    const o = stored(body.metadata.name, namespace, body.data);
    store(c, body.metadata.name, o);
    return json(res, 201, o);
  }
  if (req.method === 'PATCH' && name !== undefined) {
    const patch = (await readBody(req)) as { data: Record<string, string> };
    const before = c.objects.get(name);
    if (before === undefined) return json(res, 404, { kind: 'Status', code: 404 });
    const o = stored(name, namespace, { ...before.data, ...patch.data });
    store(c, name, o);
    // One encoding of the event, shared by every watcher, as the real server does.
    const line = Buffer.from(eventLine('MODIFIED', o));
    for (const w of c.watchers) w.push(line);
    return json(res, 200, o);
  }
  json(res, 405, { kind: 'Status', code: 405 });
}

const pki = await ensurePki({
  dir,
  caName: 'bench-ceiling-ca',
  hosts: ['127.0.0.1'],
  adminUser: 'x',
  adminGroups: [],
});
await listen({
  host: '127.0.0.1',
  port: Number(port),
  certPem: pki.serving.certPem,
  keyPem: pki.serving.keyPem,
  onRequest: (req, res) => {
    handle(req, res).catch(() => json(res, 400, { kind: 'Status', code: 400 }));
  },
});
process.stdout.write('ready\n');
