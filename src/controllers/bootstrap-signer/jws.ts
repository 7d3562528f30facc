// The detached JWS (RFC 7515, appendix F) that signs the cluster-info ConfigMap's client
// configuration for one bootstrap token: a compact HS256 JWS whose protected header is
// {"alg":"HS256","kid":<token id>}, with the payload part left empty (`header..signature`). A
// joining machine that knows the token puts the base64url payload back between the periods and
// verifies it with HMAC-SHA256.
//
// The key is the full token `<id>.<secret>`, as 2-authn-authz.md (and upstream's documentation)
// describe verification. Upstream's signer keys the HMAC with the secret part alone; where the two
// differ the spec wins (DESIGN.md), so a verifier written to the spec checks our signatures.
//
// Signing is synchronous (node's HMAC) because the signer recomputes every signature on each
// pass; the header bytes are the ones go-jose writes (keys in that order, no spaces), so a
// signature over unchanged content and token is byte-identical from one pass to the next.

import { createHmac, timingSafeEqual } from 'node:crypto';

function headerOf(tokenId: string): string {
  return Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })).toString('base64url');
}

/** `header..signature` over `content` with HS256 keyed by the full token `<tokenId>.<tokenSecret>`. */
export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = headerOf(tokenId);
  const payload = Buffer.from(content, 'utf8').toString('base64url');
  const sig = createHmac('sha256', `${tokenId}.${tokenSecret}`)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}..${sig}`;
}

/** Whether `detached` is the signature this token gives `content` (constant time in the signature). */
export function detachedSignatureIsValid(
  detached: string,
  content: string,
  tokenId: string,
  tokenSecret: string,
): boolean {
  const want = Buffer.from(computeDetachedSignature(content, tokenId, tokenSecret));
  const got = Buffer.from(detached);
  return want.length === got.length && timingSafeEqual(want, got);
}
