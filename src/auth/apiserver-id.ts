// The API server's identity as upstream derives it, and the hashes its metrics label with. Upstream
// (with the APIServerIdentity gate, on by default) names a server `apiserver-` followed by a
// base32 digest of its host name and its component name, so the id is stable across restarts of
// one server and differs between hosts; metrics never show it bare, only as `sha256:<hex>` in an
// `apiserver_id_hash` label. We have no identity lease yet, so this is the one place the id is
// made; servers on one host share it, as upstream's would.

import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { componentName, type NamingProfile, namingProfile } from '../naming/profile.ts';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower case (upstream lower-cases the standard alphabet). */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A string prefixed with its length as two big-endian bytes, as upstream frames the hash input. */
function lengthPrefixed(s: string): Buffer {
  const body = Buffer.from(s, 'utf8');
  const head = Buffer.alloc(2);
  head.writeUInt16BE(body.length);
  return Buffer.concat([head, body]);
}

/**
 * `apiserver-<base32 of the first 16 bytes of sha256(host name, component name)>`. The component is
 * the profile's name for the API server (upstream's fixed word is its own component name).
 */
export function apiServerId(
  profile: NamingProfile = namingProfile('spec'),
  host: string = hostname(),
): string {
  const digest = createHash('sha256')
    .update(Buffer.concat([lengthPrefixed(host), lengthPrefixed(componentName(profile, 'apiserver'))]))
    .digest();
  return `apiserver-${base32(digest.subarray(0, 16))}`;
}

/** `sha256:<hex>` of the text; empty for empty text (upstream's getHash in its metrics packages). */
export function metricHash(data: string): string {
  if (data === '') return '';
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
