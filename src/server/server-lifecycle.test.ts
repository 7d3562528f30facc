// Server options and lifecycle: authentication and authorization modes, namespace termination,
// restart on the same data directory, graceful shutdown, and the program's flag handling.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { componentName, namespaceFinalizer, namingProfile } from '../naming/index.ts';
import type { ServerOptions } from './options.ts';
import { type ServerHandle, startServer } from './server.ts';

interface Reply {
  status: number;
  body: string;
}

function call(
  server: ServerHandle,
  dir: string,
  c: { method?: string; path: string; body?: unknown; token?: string; admin?: boolean },
): Promise<Reply> {
  return new Promise((res, rej) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: c.method ?? 'GET',
        path: c.path,
        ca: readFileSync(join(dir, 'ca.crt')),
        ...(c.admin
          ? { cert: readFileSync(join(dir, 'admin.crt')), key: readFileSync(join(dir, 'admin.key')) }
          : {}),
        headers: {
          ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (r) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (d) => {
          body += d;
        });
        r.on('end', () => res({ status: r.statusCode ?? 0, body }));
      },
    );
    req.on('error', rej);
    req.end(c.body === undefined ? undefined : JSON.stringify(c.body));
  });
}

async function withServer(over: Partial<ServerOptions>, fn: (s: ServerHandle, dir: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-life-'));
  writeFileSync(join(dir, 'tokens.csv'), 'bob-token,bob,1001,dev\n');
  const server = await startServer({
    dataDir: dir,
    securePort: 0,
    tokenAuthFile: join(dir, 'tokens.csv'),
    ...over,
  });
  try {
    await server.ready;
    await fn(server, dir);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('server lifecycle and options', () => {
  it('--anonymous-auth=false: no credential is 401, health included', async () => {
    await withServer({ anonymousAuth: false }, async (s, dir) => {
      assert.equal((await call(s, dir, { path: '/api/v1/namespaces' })).status, 401);
      assert.equal((await call(s, dir, { path: '/readyz' })).status, 401);
      assert.equal((await call(s, dir, { path: '/api', token: 'bob-token' })).status, 200);
    });
  });

  it('AlwaysAllow given explicitly lets anonymous requests do anything, as before', async () => {
    await withServer({ authorizationModes: ['AlwaysAllow'] }, async (s, dir) => {
      assert.equal((await call(s, dir, { path: '/api/v1/namespaces/default/secrets' })).status, 200);
    });
  });

  it('AlwaysDeny: users are 403 with the attribute sentence, masters and health are allowed', async () => {
    await withServer({ authorizationModes: ['AlwaysDeny'] }, async (s, dir) => {
      const denied = await call(s, dir, {
        path: '/api/v1/namespaces/default/configmaps',
        token: 'bob-token',
      });
      assert.equal(denied.status, 403);
      const st = JSON.parse(denied.body);
      assert.equal(st.reason, 'Forbidden');
      assert.equal(
        st.message,
        'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
      );
      assert.equal((await call(s, dir, { path: '/api/v1/namespaces', admin: true })).status, 200);
      assert.equal((await call(s, dir, { path: '/livez' })).status, 200);
      assert.equal((await call(s, dir, { path: '/version' })).status, 200);
    });
  });

  it('a deleted namespace is Terminating, refuses new content, and finalize lets it go', async () => {
    // The API server alone runs no namespace controller, so the namespace waits for the manual finalize.
    await withServer({}, async (s, dir) => {
      const created = await call(s, dir, {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name: 'temp' } },
        admin: true,
      });
      assert.equal(created.status, 201, created.body);
      const ns = JSON.parse(created.body);
      assert.equal(ns.status.phase, 'Active');
      assert.deepEqual(ns.spec.finalizers, [namespaceFinalizer(namingProfile('spec'))]);
      const del = await call(s, dir, { method: 'DELETE', path: '/api/v1/namespaces/temp', admin: true });
      assert.equal(del.status, 200);
      const terminating = JSON.parse(del.body);
      assert.equal(terminating.status.phase, 'Terminating');
      assert.ok(terminating.metadata.deletionTimestamp);
      const refused = await call(s, dir, {
        method: 'POST',
        path: '/api/v1/namespaces/temp/configmaps',
        body: { metadata: { name: 'x' } },
        admin: true,
      });
      assert.equal(refused.status, 403);
      assert.match(JSON.parse(refused.body).message, /because it is being terminated/);
      const finalize = await call(s, dir, {
        method: 'PUT',
        path: '/api/v1/namespaces/temp/finalize',
        body: { metadata: { name: 'temp' }, spec: { finalizers: [] } },
        admin: true,
      });
      assert.equal(finalize.status, 200, finalize.body);
      assert.equal((await call(s, dir, { path: '/api/v1/namespaces/temp', admin: true })).status, 404);
    });
  });

  it('status is written only through /status; secrets merge stringData', async () => {
    await withServer({}, async (s, dir) => {
      const put = await call(s, dir, {
        method: 'PUT',
        path: '/api/v1/namespaces/default',
        body: { metadata: { name: 'default' }, status: { phase: 'Terminating' } },
        admin: true,
      });
      assert.equal(JSON.parse(put.body).status.phase, 'Active');
      const secret = await call(s, dir, {
        method: 'POST',
        path: '/api/v1/namespaces/default/secrets',
        body: {
          metadata: { name: 's' },
          stringData: { user: 'alice' },
          data: { pw: Buffer.from('x').toString('base64') },
        },
        admin: true,
      });
      assert.equal(secret.status, 201, secret.body);
      const obj = JSON.parse(secret.body);
      assert.equal(obj.type, 'Opaque');
      assert.equal(obj.stringData, undefined);
      assert.deepEqual(obj.data, { pw: 'eA==', user: Buffer.from('alice').toString('base64') });
      const bad = await call(s, dir, {
        method: 'POST',
        path: '/api/v1/namespaces/default/secrets',
        body: { metadata: { name: 't' }, data: { pw: 'not base64!' } },
        admin: true,
      });
      assert.equal(bad.status, 400, bad.body);
    });
  });

  it('a restart on the same data directory reuses credentials and data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-restart-'));
    try {
      const first = await startServer({ dataDir: dir, securePort: 0 });
      await first.ready;
      const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
      await call(first, dir, {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'kept' } },
        admin: true,
      });
      await first.stop();
      const second = await startServer({ dataDir: dir, securePort: 0 });
      await second.ready;
      assert.equal(readFileSync(join(dir, 'ca.crt'), 'utf8'), ca);
      const got = await call(second, dir, {
        path: '/api/v1/namespaces/default/configmaps/kept',
        admin: true,
      });
      assert.equal(got.status, 200);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stop: /readyz fails during the shutdown delay, then the listener closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-stop-'));
    try {
      const s = await startServer({ dataDir: dir, securePort: 0, shutdownDelayMs: 400 });
      await s.ready;
      const stopped = s.stop();
      const during = await call(s, dir, { path: '/readyz?verbose' });
      assert.equal(during.status, 500);
      assert.match(during.body, /^\[-\]shutdown failed: reason withheld$/m);
      assert.equal((await call(s, dir, { path: '/livez' })).status, 200);
      await stopped;
      await assert.rejects(call(s, dir, { path: '/readyz' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('the program', () => {
    const program = resolve(
      import.meta.dirname,
      `../cmd/${componentName(namingProfile('spec'), 'apiserver')}.ts`,
    );
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', program, ...args], {
        encoding: 'utf8',
        timeout: 20_000,
      });

    it('--help prints the flags and exits 0', () => {
      const r = run('--help');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /--secure-port <port>/);
      assert.match(r.stdout, /--feature-gates <gates>/);
    });

    for (const args of [
      ['--nope'],
      ['--secure-port=x'],
      ['--authorization-mode=Magic'],
      ['--livez-grace-period=later'],
    ]) {
      it(`exits 2 on ${args.join(' ')}`, () => {
        const r = run(...args);
        assert.equal(r.status, 2, r.stderr);
        assert.match(r.stderr, /^Error: /);
      });
    }
  });
});
