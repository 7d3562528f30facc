// Watchers whose clients stop reading: the budget's bounds, and a server closing such watchers
// while one that reads sees every event.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';
import { WatchBudget } from './watch-budget.ts';

async function until(what: string, cond: () => boolean, boundMs = 60_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The kernel's state of our loopback connection from `local` to `remote` (Linux), if it still has one. */
function tcpState(local: number, remote: number): string | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hex(local)}`) && f[2]?.endsWith(`:${hex(remote)}`))
      return f[3] === '01' ? 'ESTABLISHED' : f[3];
  }
  return undefined;
}

describe('WatchBudget', () => {
  const limits = { perWatcherBytes: 100, totalBytes: 250, stallMs: 60_000 };

  it('refuses a watch holding more than its own bound', () => {
    const b = new WatchBudget(limits);
    assert.equal(
      b.take(101, () => {}),
      undefined,
    );
    assert.equal(b.held, 0);
    assert.equal(b.closed, 1);
  });

  it('makes room past the total by closing the watches full the longest, oldest first', () => {
    const b = new WatchBudget(limits);
    const closed: string[] = [];
    const one = b.take(100, () => closed.push('one'));
    const two = b.take(100, () => closed.push('two'));
    assert.ok(one && two);
    // 260 would pass 250: the oldest goes, and the newcomer is taken.
    const three = b.take(60, () => closed.push('three'));
    assert.ok(three);
    assert.deepEqual(closed, ['one']);
    assert.equal(b.held, 160);
    assert.equal(b.closed, 1);
    one.release();
    assert.equal(b.held, 160, 'a hold already let go of counts once');
    // A drained watch lets go of its bytes and is never closed for them.
    two.release();
    assert.equal(b.held, 60);
    const four = b.take(100, () => closed.push('four'));
    assert.ok(four);
    assert.equal(b.held, 160);
    assert.deepEqual(closed, ['one']);
    three.release();
    four.release();
    assert.equal(b.held, 0);
  });

  it('calls a hold that is not released within the stall time stalled', async () => {
    const b = new WatchBudget({ ...limits, stallMs: 20 });
    let stalled = false;
    b.take(10, () => {
      stalled = true;
    });
    const released = b.take(10, () => assert.fail('released holds do not stall'));
    released?.release();
    await until('the stall', () => stalled);
    assert.equal(b.closed, 1);
  });
});

describe('watchers that stop reading', () => {
  let t: TestApiServer;
  const NS = '/api/v1/namespaces/default/configmaps';
  // Big objects, so that a few writes fill a loopback socket's buffers (several MB) quickly.
  const big = 'x'.repeat(512 * 1024);

  const budget = new WatchBudget({
    perWatcherBytes: 4 * 1024 * 1024,
    totalBytes: 8 * 1024 * 1024,
    stallMs: 1000,
  });
  before(async () => {
    t = await startTestApiServer({ watchBudget: budget });
  });
  after(() => t.stop());

  function watch(from: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path: `${NS}?watch=true&resourceVersion=${from}`,
          ca: readFileSync(join(t.dir, 'ca.crt')),
          cert: readFileSync(join(t.dir, 'admin.crt')),
          key: readFileSync(join(t.dir, 'admin.key')),
          agent: false,
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('are closed, while a watcher that reads gets every event in order', { timeout: 240_000 }, async () => {
    const list = await t.call({ path: NS });
    const from = (list.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const slow = await Promise.all([watch(from), watch(from), watch(from)]);
    // Never read: the sockets' buffers fill and the server's writes back up.
    for (const res of slow) res.socket.pause();
    const reader = await watch(from);
    const seen: number[] = [];
    let buffered = '';
    reader.setEncoding('utf8');
    reader.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
        const ev = JSON.parse(buffered.slice(0, nl)) as { object: { data: { n: string } } };
        buffered = buffered.slice(nl + 1);
        seen.push(Number(ev.object.data.n));
      }
    });
    let written = 0;
    for (; written < 400 && budget.closed < slow.length; written++) {
      const r = await t.call({
        method: 'POST',
        path: NS,
        body: JSON.stringify({ metadata: { name: `big-${written}` }, data: { n: String(written), big } }),
      });
      assert.equal(r.status, 201, r.body);
    }
    assert.equal(budget.closed, slow.length, 'the watchers that do not read are closed');
    // Reset, not closed in turn behind the megabytes queued for them (which a client that does
    // not read would never reach): their ends of the connections are gone though they read nothing.
    await until('the slow connections reset', () =>
      slow.every((res) => tcpState(res.socket.localPort ?? 0, t.server.port) !== 'ESTABLISHED'),
    );
    await until('the reader has every event', () => seen.length === written);
    assert.deepEqual(
      seen,
      Array.from({ length: written }, (_, i) => i),
    );
    // The server reset their connections: read again, they fail at once, the bytes the server had
    // queued for them dropped rather than delivered.
    const outcomes = await Promise.all(
      slow.map(
        (res) =>
          new Promise<string>((settled) => {
            res.on('error', (err: NodeJS.ErrnoException) => settled(String(err.code)));
            res.on('end', () => settled('ended cleanly'));
            res.resume();
            res.socket.resume();
          }),
      ),
    );
    assert.deepEqual(
      outcomes,
      slow.map(() => 'ECONNRESET'),
    );
    await until('the budget is free again', () => budget.held === 0);
    reader.destroy();
  });
});
