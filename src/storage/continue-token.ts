// Continue tokens for paged lists. A token pins the revision of the first page and the key to resume
// after, so every page is read from the same snapshot. Clients treat it as opaque.

import { InvalidContinueError } from './errors.ts';
import type { Revision } from './interface.ts';

interface TokenBody {
  v: 1;
  rv: Revision;
  /** The key to start from, relative to the listed prefix. */
  start: string;
}

export interface ContinuePoint {
  revision: Revision;
  /** Absolute key at which the next page starts (inclusive). */
  startKey: string;
}

export function encodeContinue(prefix: string, lastKey: string, revision: Revision): string {
  // Resume strictly after the last key: appending NUL gives the smallest key greater than it.
  const body: TokenBody = { v: 1, rv: revision, start: `${lastKey.slice(prefix.length)}\u0000` };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeContinue(prefix: string, token: string): ContinuePoint {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidContinueError('continue key is not valid: illegal base64 or JSON data');
  }
  if (typeof body !== 'object' || body === null) {
    throw new InvalidContinueError('continue key is not valid: not an object');
  }
  const { v, rv, start } = body as Partial<TokenBody>;
  if (v !== 1) throw new InvalidContinueError('continue key is not valid: unsupported version');
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv <= 0) {
    throw new InvalidContinueError('continue key is not valid: incorrect encoded start resourceVersion');
  }
  if (typeof start !== 'string' || start.length === 0) {
    throw new InvalidContinueError('continue key is not valid: encoded start key is empty');
  }
  return { revision: rv, startKey: prefix + start };
}
