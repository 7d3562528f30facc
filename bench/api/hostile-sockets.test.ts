// The hostile scenario learns that the server closed a paused socket from the kernel's socket
// table, since the socket itself reads nothing: a paused client socket whose server ends it must
// show up as closed, and one left alone as open.

import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { census } from './hostile-sockets.ts';

const hasProc = process.platform === 'linux';

describe('socket census', { skip: !hasProc && 'needs /proc/net/tcp' }, () => {
  it('sees the server close a paused socket, and not the one it keeps', async () => {
    const accepted: Socket[] = [];
    const server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const clients = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((r) => {
            const c = connect(port, '127.0.0.1', () => r(c));
          }),
      ),
    );
    try {
      for (const c of clients) c.pause();
      while (accepted.length < 2) await new Promise((r) => setTimeout(r, 10));
      // Taken now: a socket its server ended may be gone, and its port with it, by the time we look.
      const [first, second] = clients.map((c) => c.localPort as number);
      const ports = new Set([first, second]);
      assert.deepEqual(census(ports, port).closedPorts, []);
      // The server ends the connection whose remote port is the first client's.
      accepted.find((s) => s.remotePort === first)?.end();
      const deadline = Date.now() + 20_000;
      let closed: number[] = [];
      while (closed.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        closed = census(ports, port).closedPorts;
      }
      assert.deepEqual(closed, [first]);
      assert.equal(census(ports, port).established, 1);
    } finally {
      for (const c of clients) c.destroy();
      for (const s of accepted) s.destroy();
      server.close();
    }
  });
});
