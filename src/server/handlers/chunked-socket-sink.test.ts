// The HTTP/1.1 chunked sink: what a watch writer sends through it arrives as a well-formed chunked
// body (read by Node's client, and byte for byte on the wire), the connection stays usable after
// the response ends, the sink reports the socket's backlog, and it is refused wherever writing to
// the socket would not be safe.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connect as connectTls } from 'node:tls';
import { ensurePki } from '../pki/ensure-pki.ts';
import { chunkedSocketSink } from './chunked-socket-sink.ts';
import { FULL_QUEUED_BYTES, WatchWriter } from './watch-writer.ts';

/** Serves `handle` on a loopback port for the length of `body`; over TLS when given a key pair. */
async function withServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  body: (port: number) => Promise<void>,
  tls?: { cert: string; key: string },
): Promise<void> {
  const server = tls === undefined ? createServer(handle) : createTlsServer(tls, handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    await body((server.address() as { port: number }).port);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** A streaming response: events through a writer on the chunked sink, then the end. */
function streamEvents(res: ServerResponse, events: string[]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  const sink = chunkedSocketSink(res);
  assert.ok(sink, 'a chunked HTTP/1.1 response with its headers sent takes the sink');
  const out = new WatchWriter(sink, 5);
  let i = 0;
  const next = () => {
    if (i < events.length) {
      out.push(events[i++]);
      // Two events per step: some writes gather several events into one chunk.
      if (i < events.length) out.push(events[i++]);
      setTimeout(next, 2);
      return;
    }
    out.flush();
    out.close();
    res.end();
  };
  next();
}

const EVENTS = Array.from(
  { length: 9 },
  (_, i) => `{"type":"MODIFIED","n":${i},"s":"${'é'.repeat(i * 40)}"}\n`,
);

describe('chunked socket sink', () => {
  it('sends well-formed chunks that a client reads as the events, and the connection is reused', async () => {
    await withServer(
      (req, res) => {
        if (req.url === '/watch') streamEvents(res, EVENTS);
        else res.end('after');
      },
      async (port) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          const read = (path: string) =>
            new Promise<{ body: string; reused: boolean }>((resolve, reject) => {
              const req = get({ host: '127.0.0.1', port, path, agent }, (res) => {
                const parts: Buffer[] = [];
                res.on('data', (d: Buffer) => parts.push(d));
                res.on('end', () =>
                  resolve({ body: Buffer.concat(parts).toString('utf8'), reused: req.reusedSocket }),
                );
                res.on('error', reject);
              });
              req.on('error', reject);
            });
          const watched = await read('/watch');
          assert.equal(watched.body, EVENTS.join(''));
          const after = await read('/after');
          assert.equal(after.body, 'after');
          assert.equal(after.reused, true, 'the keep-alive connection carried the next request');
        } finally {
          agent.destroy();
        }
      },
    );
  });

  it('sends every piece intact while a slow reader holds the joined buffers in the socket', async () => {
    // Pieces of several 20 KB events are joined in buffers that are reused once written: a buffer
    // reused before its write completed would show here as another piece's bytes.
    const events = Array.from(
      { length: 400 },
      (_, i) => `{"n":${i},"s":"${String.fromCharCode(97 + (i % 26)).repeat(20_000)}"}\n`,
    );
    await withServer(
      (_req, res) => streamEvents(res, events),
      async (port) => {
        const socket = connect(port, '127.0.0.1');
        socket.write('GET /watch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        // Not read for a while: the server's writes back up behind the full socket.
        socket.pause();
        await new Promise((r) => setTimeout(r, 300));
        const parts: Buffer[] = [];
        socket.on('data', (d: Buffer) => parts.push(d));
        socket.resume();
        await once(socket, 'end');
        const raw = Buffer.concat(parts);
        let at = raw.indexOf('\r\n\r\n') + 4;
        const body: Buffer[] = [];
        for (;;) {
          const eol = raw.indexOf('\r\n', at);
          const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
          // A chunk line that is not one (overwritten bytes) ends the reading: the body then differs.
          if (eol === -1 || !(size > 0)) break;
          body.push(raw.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        assert.equal(Buffer.concat(body).toString('utf8'), events.join(''));
      },
    );
  });

  it("reports the socket's backlog, so a writer is full only when its reader falls behind", async () => {
    // Over TLS, as served: a plain socket completes a write at once and is never refused, while a
    // TLS socket completes it later and refuses anything past 16 KiB that it has not sent yet.
    const dir = mkdtempSync(join(tmpdir(), 'chunked-sink-'));
    const pki = await ensurePki({
      dir,
      caName: 'sink-test-ca',
      hosts: ['127.0.0.1'],
      adminUser: 'a',
      adminGroups: [],
    });
    const piece = `${'x'.repeat(40_000)}\n`;
    let seen: { afterOne: boolean; refused: boolean; backlog: number; full: boolean } | undefined;
    try {
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          const sink = chunkedSocketSink(res) ?? assert.fail('no sink');
          let refused = false;
          const write = sink.write;
          sink.write = (chunk, done) => {
            const taken = write(chunk, done);
            refused ||= !taken;
            return taken;
          };
          const out = new WatchWriter(sink, 1000);
          out.push(piece);
          const afterOne = out.full;
          for (let i = 0; i < 200; i++) out.push(piece);
          out.flush();
          seen = { afterOne, refused, backlog: sink.writableLength ?? -1, full: out.full };
          assert.equal(sink.writableLength, res.socket?.writableLength);
          out.close();
          res.end();
        },
        async (port) => {
          const socket = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false });
          await once(socket, 'secureConnect');
          socket.write('GET /watch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
          // Not read until the server has written everything: 8 MB cannot all be in the kernel.
          socket.pause();
          while (seen === undefined) await new Promise((r) => setTimeout(r, 5));
          socket.resume();
          socket.on('data', () => {});
          await once(socket, 'end');
        },
        { cert: pki.serving.certPem, key: pki.serving.keyPem },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(seen);
    assert.equal(seen.refused, true, "the 40 KB pieces are past Node's mark");
    assert.equal(seen.afterOne, false, 'one piece: refused, but nothing much is waiting');
    assert.ok(seen.backlog >= FULL_QUEUED_BYTES, `8 MB to a reader that does not read: ${seen.backlog}`);
    assert.equal(seen.full, true);
  });

  it('frames each write as one chunk of its exact length, ending with the last chunk', async () => {
    const events = ['{"a":1}\n', '{"b":"ü"}\n', '{"c":3}\n'];
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        const out = new WatchWriter(chunkedSocketSink(res) ?? assert.fail('no sink'), 1000);
        // An idle stream writes its first event at once; the next two wait and go as one write.
        for (const e of events) out.push(e);
        out.flush();
        out.close();
        res.end();
      },
      async (port) => {
        const socket = connect(port, '127.0.0.1');
        socket.write('GET /watch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        const parts: Buffer[] = [];
        socket.on('data', (d: Buffer) => parts.push(d));
        await once(socket, 'end');
        const raw = Buffer.concat(parts);
        const body = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
        const chunk = (text: string) => {
          const bytes = Buffer.from(text);
          return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
        };
        assert.deepEqual(
          body,
          Buffer.concat([chunk(events[0]), chunk(events[1] + events[2]), Buffer.from('0\r\n\r\n')]),
        );
      },
    );
  });

  it('is refused before the headers are sent, without chunking, and off HTTP/1.1', async () => {
    const seen: (string | undefined)[] = [];
    await withServer(
      (req, res) => {
        if (req.url === '/unsent') {
          res.setHeader('content-type', 'application/json');
          seen.push(chunkedSocketSink(res) === undefined ? 'refused' : 'taken');
          res.end('{}');
          return;
        }
        res.writeHead(200, { 'content-length': '2' });
        res.flushHeaders();
        seen.push(chunkedSocketSink(res) === undefined ? 'refused' : 'taken');
        res.end('{}');
      },
      async (port) => {
        for (const path of ['/unsent', '/sized']) {
          await new Promise<void>((resolve, reject) => {
            get({ host: '127.0.0.1', port, path }, (res) => {
              res.resume();
              res.on('end', resolve);
            }).on('error', reject);
          });
        }
      },
    );
    assert.deepEqual(seen, ['refused', 'refused']);
    // An HTTP/2 response (or anything else) is not an HTTP/1.1 ServerResponse.
    assert.equal(chunkedSocketSink({ write: () => true, headersSent: true }), undefined);
  });

  it('is refused for a pipelined response still waiting for the one before it', async () => {
    const seen: string[] = [];
    let finishFirst: () => void = () => {};
    await withServer(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.flushHeaders();
        seen.push(`${req.url} ${chunkedSocketSink(res) === undefined ? 'refused' : 'taken'}`);
        if (req.url === '/first') finishFirst = () => res.end('first');
        else {
          res.end('second');
          finishFirst();
        }
      },
      async (port) => {
        const socket = connect(port, '127.0.0.1');
        socket.write(
          'GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        );
        socket.resume();
        await once(socket, 'end');
      },
    );
    assert.deepEqual(seen, ['/first taken', '/second refused']);
  });
});
