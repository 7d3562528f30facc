// Which CA bundle a client certificate chains to. The TLS layer accepts certificates of both the
// client CA (--client-ca-file: the certificate names the user) and the authenticating proxy's CA
// (--requestheader-client-ca-file: the certificate lets headers name the user), because clients
// only send a certificate whose issuer the server lists. Its single verdict cannot say which of
// the two vouched for a certificate, so the authenticator of each verifies the chain against its
// own bundle here, as Go's x509 Verify would: signatures up to a certificate of the bundle through
// the intermediates the client sent, every certificate in its validity period, intermediates
// marked as CAs, and no certificate on the path limited to other uses than client authentication.

import { X509Certificate } from 'node:crypto';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EXT_KEY_USAGE_OID = '2.5.29.37.0';
const MAX_DEPTH = 10;

/** Every certificate of a PEM bundle; throws when there is none or one does not parse. */
export function parseCertificateBundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${source}: no certificates found`);
  return blocks.map((b, i) => {
    try {
      return new X509Certificate(b);
    } catch (err) {
      throw new Error(`${source}: certificate ${i + 1}: ${(err as Error).message}`);
    }
  });
}

function validAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

function allowsClientAuth(cert: X509Certificate): boolean {
  const usages = cert.keyUsage;
  // Node reports no extended key usage extension as undefined (or, on some versions, an empty list).
  if (usages === undefined || usages.length === 0) return true;
  return usages.includes(CLIENT_AUTH_OID) || usages.includes(ANY_EXT_KEY_USAGE_OID);
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Whether `chain` (the leaf first, then what the client sent with it) leads to one of `anchors`.
 * Undefined when it does; why not, in Go's words, when it does not.
 */
export function chainProblem(
  chain: readonly X509Certificate[],
  anchors: readonly X509Certificate[],
  now: number = Date.now(),
): string | undefined {
  const [leaf, ...intermediates] = chain;
  if (leaf === undefined) return 'no certificate';
  if (!validAt(leaf, now)) return 'x509: certificate has expired or is not yet valid';
  if (!allowsClientAuth(leaf)) return 'x509: certificate specifies an incompatible key usage';
  const reaches = (cert: X509Certificate, used: Set<X509Certificate>, depth: number): boolean => {
    if (anchors.some((a) => a.raw.equals(cert.raw) || (issuedBy(cert, a) && validAt(a, now)))) return true;
    if (depth >= MAX_DEPTH) return false;
    for (const next of intermediates) {
      if (used.has(next) || !next.ca || !validAt(next, now) || !allowsClientAuth(next)) continue;
      if (!issuedBy(cert, next)) continue;
      used.add(next);
      if (reaches(next, used, depth + 1)) return true;
      used.delete(next);
    }
    return false;
  };
  return reaches(leaf, new Set(), 0) ? undefined : 'x509: certificate signed by unknown authority';
}
