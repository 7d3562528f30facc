// Reading user-describing request headers, shared by the authenticating proxy's X-Remote-*
// headers (request-header.ts) and the server's Impersonate-* headers (server/filters/
// impersonation.ts): every value of a repeated header kept apart, and extra keys percent-decoded
// as upstream decodes them. Imports nothing.

/** Headers by lowercase name, every value apart and in order (Node joins repeated ones with ', '). */
export function headerValues(rawHeaders: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const k = rawHeaders[i].toLowerCase();
    const list = out.get(k);
    if (list === undefined) out.set(k, [rawHeaders[i + 1]]);
    else list.push(rawHeaders[i + 1]);
  }
  return out;
}

/**
 * An extra key from the rest of a header's name, as Go's url.PathUnescape decodes it: %XX decoded;
 * a malformed escape leaves the key as it came.
 */
export function unescapeExtraKey(key: string): string {
  if (!key.includes('%') || /%(?![0-9a-fA-F]{2})/.test(key)) return key;
  const bytes: number[] = [];
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '%') {
      bytes.push(Number.parseInt(key.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(key[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
