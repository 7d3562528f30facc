// Connection-level hardening against abusive clients (listener.ts, stream-scheduler.ts,
// connection-limit.ts, idle-session.ts, filters/timeout.ts): rapid resets over HTTP/2, streams past
// the connection's limit, idle connections, slow headers and trickled bodies, and connections past
// the server's bound. Waits are on conditions, bounded; no test asserts a duration.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type ClientHttp2Session, constants as h2, connect as h2connect } from 'node:http2';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Reply, startTestApiServer, type TestApiServer, waitUntil } from './testing/index.ts';
import { RawH2Client } from './testing/raw-h2.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function caOf(t: TestApiServer): Buffer {
  return readFileSync(join(t.dir, 'ca.crt'));
}

/** The admin's client certificate and key. */
function adminOf(t: TestApiServer): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(join(t.dir, 'admin.crt')), key: readFileSync(join(t.dir, 'admin.key')) };
}

/** An HTTP/2 session as the admin, once the server's settings are in. */
function h2session(t: TestApiServer): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = h2connect(t.server.url, { ca: caOf(t), ...adminOf(t), servername: 'localhost' });
    s.once('error', reject);
    s.once('remoteSettings', () => resolve(s));
  });
}

/** One request over an HTTP/1.1 connection of its own (`agent`), status and body. */
function http1(
  t: TestApiServer,
  agent: Agent,
  path: string,
): Promise<Reply & { connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const opts = { host: '127.0.0.1', port: t.server.port, path, ca: caOf(t), ...adminOf(t), agent };
    const req = request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const body = bytes.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          bytes,
          json: () => JSON.parse(body),
          connection: res.headers.connection,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP/2 rapid reset', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    // A collection whose list is some megabytes: each abandoned list would hold a piece of it.
    const value = 'x'.repeat(100_000);
    for (let i = 0; i < 40; i++) {
      const r = await t.call({
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: JSON.stringify({ metadata: { name: `big-${i}` }, data: { value } }),
      });
      assert.equal(r.status, 201, r.body);
    }
  });
  after(() => t.stop());

  it('streams reset at once end their lists, the connection is ended, memory stays bounded, others are served', async () => {
    gc();
    const before = process.memoryUsage();
    const raw = await RawH2Client.connect(t.server.port, caOf(t), adminOf(t));
    const frames: Buffer[] = [];
    for (let i = 0; i < 1000; i++) {
      const { id, frames: open } = raw.request('/api/v1/namespaces/default/configmaps');
      frames.push(open, raw.reset(id));
    }
    raw.send(...frames);
    // Node's HTTP/2 layer refuses streams past the limit while reset ones are still being put
    // away, and ends a connection that keeps opening them; the handler bound (listener.test.ts)
    // answers GOAWAY ENHANCE_YOUR_CALM to one that does it more slowly.
    await raw.closed;
    if (raw.goaway !== undefined) assert.notEqual(raw.goaway.code, h2.NGHTTP2_NO_ERROR);

    // Every handler the resets started has stopped, and what it held is let go.
    await waitUntil(() => t.server.connectionStats().handlers === 0, 'handlers to stop');
    gc();
    const grown = process.memoryUsage().arrayBuffers - before.arrayBuffers;
    assert.ok(grown < 64 * 1024 * 1024, `array buffers grew by ${grown} bytes`);

    // Other clients are served, over HTTP/2 and HTTP/1.1.
    const s = await h2session(t);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const st = s.request({ ':path': '/api/v1/namespaces/default/configmaps' });
        st.on('response', (h) => resolve(Number(h[':status'])));
        st.on('error', reject);
        st.resume();
      });
      assert.equal(status, 200);
    } finally {
      s.close();
    }
    const r = await t.call({ path: '/api/v1/namespaces/default/configmaps?limit=1' });
    assert.equal(r.status, 200);
  });

  it('node:http2 client streams cancelled as soon as they are sent leave no work behind', async () => {
    const s = await h2session(t);
    s.on('error', () => {});
    try {
      await new Promise<void>((resolve) => {
        let left = 2000;
        for (let i = 0; i < 2000; i++) {
          const st = s.request({ ':path': '/api/v1/namespaces/default/configmaps' });
          st.on('error', () => {});
          st.once('ready', () => st.close(h2.NGHTTP2_CANCEL));
          st.once('close', () => {
            if (--left === 0) resolve();
          });
        }
        s.once('close', resolve);
      });
    } finally {
      s.destroy();
    }
    await waitUntil(() => t.server.connectionStats().handlers === 0, 'handlers to stop');
    const r = await t.call({ path: '/api/v1/namespaces/default/configmaps?limit=1' });
    assert.equal(r.status, 200);
  });

  it('a watch whose stream is reset stops', async () => {
    const s = await h2session(t);
    try {
      const st = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=true' });
      st.on('error', () => {});
      await new Promise((resolve) => st.once('response', resolve));
      assert.ok(t.server.connectionStats().handlers >= 1);
      st.close(h2.NGHTTP2_CANCEL);
      await waitUntil(() => t.server.connectionStats().handlers === 0, 'the watch handler to end');
    } finally {
      s.close();
    }
  });
});

describe('HTTP/2 streams per connection', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ http2MaxStreamsPerConnection: 5 });
  });
  after(() => t.stop());

  it('streams past --http2-max-streams-per-connection are refused', async () => {
    const raw = await RawH2Client.connect(t.server.port, caOf(t));
    try {
      const ids: number[] = [];
      const frames: Buffer[] = [];
      // Requests left open (no END_STREAM) keep their streams open.
      for (let i = 0; i < 6; i++) {
        const { id, frames: open } = raw.request('/version', { open: true });
        ids.push(id);
        frames.push(open);
      }
      raw.send(...frames);
      const last = ids[5];
      await waitUntil(() => raw.resets.has(last), 'the sixth stream to be reset');
      assert.equal(raw.resets.get(last), h2.NGHTTP2_REFUSED_STREAM);
      for (const id of ids.slice(0, 5)) assert.notEqual(raw.resets.get(id), h2.NGHTTP2_REFUSED_STREAM);
    } finally {
      raw.close();
    }
  });
});

describe('connection timeouts', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ idleTimeoutMs: 300, headerTimeoutMs: 1_000, requestTimeoutMs: 1_000 });
  });
  after(() => t.stop());

  it('an idle HTTP/1.1 keep-alive connection is closed', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      let closed = false;
      agent.on('free', (socket) => socket.once('close', () => (closed = true)));
      const r = await http1(t, agent, '/version');
      assert.equal(r.status, 200);
      await waitUntil(() => closed, 'the idle connection to close');
    } finally {
      agent.destroy();
    }
  });

  it('an idle HTTP/2 connection gets GOAWAY and is closed', async () => {
    const s = await h2session(t);
    let goaway: number | undefined;
    s.on('goaway', (code) => (goaway = code));
    s.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      const st = s.request({ ':path': '/version' });
      st.on('error', reject);
      st.on('end', resolve);
      st.resume();
    });
    await new Promise((resolve) => s.once('close', resolve));
    assert.equal(goaway, h2.NGHTTP2_NO_ERROR);
  });

  it('a connection that never finishes its headers is closed', async () => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: t.server.port,
      ca: caOf(t),
      servername: 'localhost',
    });
    socket.on('error', () => {});
    // Read what comes (the 408 Node answers with), or the close is never seen.
    socket.resume();
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    socket.write('GET /version HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
  });

  it('a body trickled over HTTP/1.1 gets a 504 and the connection is closed', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let trickle: NodeJS.Timeout | undefined;
    try {
      const reply = await new Promise<{ status: number; body: string; connection?: string }>(
        (resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: t.server.port,
              method: 'POST',
              path: '/api/v1/namespaces/default/configmaps',
              ca: caOf(t),
              ...adminOf(t),
              agent,
              headers: { 'content-type': 'application/json', 'content-length': '100000' },
            },
            (res) => {
              let body = '';
              res.on('data', (d: Buffer) => (body += d.toString()));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
              );
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.write('{');
          trickle = setInterval(() => {
            if (!req.destroyed) req.write(' ');
          }, 20);
        },
      );
      assert.equal(reply.status, 504);
      assert.equal(JSON.parse(reply.body).reason, 'Timeout');
      assert.equal(reply.connection, 'close');
    } finally {
      clearInterval(trickle);
      agent.destroy();
    }
  });

  it('a body trickled over HTTP/2 gets a 504 and the stream is closed', async () => {
    const s = await h2session(t);
    let trickle: NodeJS.Timeout | undefined;
    try {
      const st = s.request({
        ':method': 'POST',
        ':path': '/api/v1/namespaces/default/configmaps',
        'content-type': 'application/json',
      });
      st.on('error', () => {});
      st.write('{');
      trickle = setInterval(() => {
        if (!st.closed && !st.destroyed) st.write(' ');
      }, 20);
      const status = await new Promise<number>((resolve) =>
        st.once('response', (h) => resolve(Number(h[':status']))),
      );
      let body = '';
      st.on('data', (d: Buffer) => (body += d.toString()));
      await new Promise((resolve) => st.once('close', resolve));
      assert.equal(status, 504);
      assert.equal(JSON.parse(body).reason, 'Timeout');
      await waitUntil(() => t.server.connectionStats().handlers === 0, 'the handler reading the body to end');
    } finally {
      clearInterval(trickle);
      s.close();
    }
  });
});

describe('connection bound', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ maxConnections: 3 });
  });
  after(() => t.stop());

  it('a connection past --max-connections gets a 429 and is closed; room made is used again', async () => {
    const agents = [0, 1, 2, 3, 4].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      await waitUntil(() => t.server.connectionStats().connections === 0, 'no connection to be open');
      for (const a of agents.slice(0, 3)) assert.equal((await http1(t, a, '/version')).status, 200);
      assert.equal(t.server.connectionStats().connections, 3);

      const r = await http1(t, agents[3], '/version');
      assert.equal(r.status, 429, r.body);
      assert.equal(r.json().reason, 'TooManyRequests');
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(r.connection, 'close');

      // Once a connection closes, a new one is served.
      agents[0].destroy();
      await waitUntil(() => t.server.connectionStats().connections === 2, 'a connection to close');
      assert.equal((await http1(t, agents[4], '/version')).status, 200);
    } finally {
      for (const a of agents) a.destroy();
    }
  });
});
