// Reads `Authorization: Bearer <token>`; shared by every token authenticator.

import type { AuthnRequest } from './types.ts';

/** The bearer token, '' for a Bearer header with no token, undefined when there is none. */
export function bearerToken(req: AuthnRequest): string | undefined {
  const raw = req.headers.authorization;
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header === undefined) return undefined;
  const m = /^\s*bearer\s+(.*)$/i.exec(header);
  if (m === null) return undefined;
  return m[1].trim();
}
