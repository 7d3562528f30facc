// A server on a fresh data directory and a small HTTPS client that calls it with the admin client
// certificate (or anonymously), returning status, headers and body as text.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptions } from '../options.ts';
import { type ServerHandle, startServer } from '../server.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as received, for encodings that are not text (gzip). */
  bytes: Buffer;
  json: () => Record<string, unknown>;
}

export interface Call {
  method?: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the admin client certificate (default) or no credential at all. */
  anonymous?: boolean;
}

export type Caller = (c: Call) => Promise<Reply>;

export function client(server: ServerHandle, dir: string): Caller {
  const ca = readFileSync(join(dir, 'ca.crt'));
  const cert = readFileSync(join(dir, 'admin.crt'));
  const key = readFileSync(join(dir, 'admin.key'));
  return (c) =>
    new Promise((res, rej) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: c.method ?? 'GET',
          path: c.path,
          ca,
          ...(c.anonymous ? {} : { cert, key }),
          // Node sends a DELETE body without framing unless the length is given.
          headers: {
            ...(c.body !== undefined
              ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(c.body)) }
              : {}),
            ...c.headers,
          },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (d: Buffer) => {
            chunks.push(d);
          });
          r.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const body = bytes.toString('utf8');
            res({ status: r.statusCode ?? 0, headers: r.headers, body, bytes, json: () => JSON.parse(body) });
          });
        },
      );
      req.on('error', rej);
      req.end(c.body);
    });
}

export interface TestApiServer {
  server: ServerHandle;
  dir: string;
  call: Caller;
  stop(): Promise<void>;
}

/** A server on a free loopback port with a fresh data directory, removed again by stop(). */
export async function startTestApiServer(over: Partial<ServerOptions> = {}): Promise<TestApiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-'));
  const server = await startServer({ dataDir: dir, securePort: 0, ...over });
  await server.ready;
  return {
    server,
    dir,
    call: client(server, dir),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * As startTestApiServer, with the controller manager beside it as plat-control-plane runs it (the
 * garbage collector, the namespace controller, the default ServiceAccounts, role aggregation, ...).
 */
export async function startTestControlPlane(over: Partial<ServerOptions> = {}): Promise<TestApiServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-'));
  // Loaded only here: a test of the API server alone never loads the controllers.
  const { startControlPlane } = await import('../../cmd/control-plane.ts');
  const plane = await startControlPlane({
    server: { dataDir: dir, securePort: 0, ...over },
    controllerManager: {
      log: {
        info: () => undefined,
        error: (m, f) => process.stderr.write(`controller-manager: ${m} ${JSON.stringify(f ?? {})}\n`),
      },
    },
  });
  await plane.controllerManager.leading;
  return {
    server: plane.server,
    dir,
    call: client(plane.server, dir),
    async stop() {
      await plane.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Warning header texts of a reply, unquoted, in order. */
export function warningsOf(r: Reply): string[] {
  const raw = r.headers.warning;
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(/,(?=\s*\d{3} )/);
  return all.map((w) => {
    const m = /^\s*\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(w);
    return m ? m[1].replace(/\\(.)/g, '$1') : w;
  });
}
