// The built server program as the benchmarks start it: where it is, a free loopback port for it,
// and its /readyz answer.

import { request } from 'node:https';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { componentName, namingProfile } from '../../src/naming/profile.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const PROGRAM = join(ROOT, `dist/cmd/${componentName(namingProfile('spec'), 'apiserver')}.js`);

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** The status of GET /readyz on the loopback port; 0 while nothing answers. */
export function readyz(port: number): Promise<number> {
  return new Promise((res) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, timeout: 1000 },
      (r) => {
        r.resume();
        res(r.statusCode ?? 0);
      },
    );
    req.on('error', () => res(0));
    req.end();
  });
}
