// The controller manager's own HTTPS port: /healthz (every check, `?verbose`, `?exclude=`) and
// /healthz/<check>, /metrics in Prometheus text, and /configz. Like upstream's it serves a
// self-signed certificate made at start and asks the API server who may read what
// (delegated-auth.ts); health is open to anyone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { authorizationDeniedMessage } from '../../machinery/status.ts';
import { evaluateAll, evaluateOne, type HealthCheck } from '../../server/health/health.ts';
import { createCa, createLeaf } from '../../server/pki/generate.ts';
import { DelegatedAuth } from './delegated-auth.ts';

export interface SecureServingOptions {
  /** 127.0.0.1 unless told otherwise. */
  bindAddress?: string;
  /** 0 picks a free port. */
  port: number;
  checks: () => HealthCheck[];
  metrics: Registry;
  /** What /configz shows: the configuration in effect. */
  configz: () => unknown;
  auth: DelegatedAuth;
  /** The certificate's name (the component's). */
  commonName: string;
  log: (msg: string) => void;
}

export interface SecureServer {
  url: string;
  port: number;
  caPem: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

async function handle(opts: SecureServingOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://localhost');
  const path = url.pathname;
  const verb = (req.method ?? 'GET').toLowerCase();
  if (!DelegatedAuth.alwaysAllowed(path)) {
    const user = await opts.auth.authenticate(bearer(req));
    if (user === null) {
      send(res, 401, 'text/plain; charset=utf-8', 'Unauthorized\n');
      return;
    }
    const decision = await opts.auth.authorize(user, verb, path);
    if (!decision.allowed) {
      const sentence = authorizationDeniedMessage({
        user: user.username,
        verb,
        resourceRequest: false,
        path,
      });
      send(res, 403, 'text/plain; charset=utf-8', `Forbidden: ${sentence}\n`);
      return;
    }
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n');
    return;
  }
  if (path === '/healthz' || path === '/healthz/') {
    const r = await evaluateAll('healthz', opts.checks(), url.searchParams);
    send(res, r.status, 'text/plain; charset=utf-8', r.body);
  } else if (path.startsWith('/healthz/')) {
    const r = await evaluateOne(opts.checks(), path.slice('/healthz/'.length));
    send(res, r.status, 'text/plain; charset=utf-8', r.body);
  } else if (path === '/metrics') {
    send(res, 200, opts.metrics.contentType, await opts.metrics.metrics());
  } else if (path === '/configz') {
    send(res, 200, 'application/json', JSON.stringify(opts.configz()));
  } else {
    send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
  }
}

export async function startSecureServing(opts: SecureServingOptions): Promise<SecureServer> {
  const host = opts.bindAddress ?? '127.0.0.1';
  const ca = await createCa(`${opts.commonName}-ca`, 365);
  const leaf = await createLeaf(ca, {
    commonName: opts.commonName,
    usage: 'server',
    validDays: 365,
    hosts: ['localhost', host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host],
  });
  const server: Server = createServer({ cert: leaf.certPem + ca.certPem, key: leaf.keyPem }, (req, res) => {
    handle(opts, req, res).catch((err: Error) => {
      // The API server could not be asked (down, restarting): the request cannot be decided.
      opts.log(`secure serving: ${req.url ?? ''}: ${err.message}`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error\n');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    caPem: ca.certPem,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
