// Client certificates: the subject's CN is the user name and each O is a group. The chain itself is
// checked by the TLS layer against --client-ca-file; this authenticator reads its verdict.

import type { Authenticator, AuthnRequest, AuthnResult } from './types.ts';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EXT_KEY_USAGE_OID = '2.5.29.37.0';

export class X509Authenticator implements Authenticator {
  authenticate(req: AuthnRequest): AuthnResult {
    const cert = req.peerCertificate;
    if (cert === undefined) return null;
    if (!cert.verified)
      return { error: `verifying certificate failed: ${cert.verifyError ?? 'unknown authority'}` };
    const usages = cert.extKeyUsage;
    if (
      usages !== undefined &&
      !usages.includes(CLIENT_AUTH_OID) &&
      !usages.includes(ANY_EXT_KEY_USAGE_OID)
    ) {
      return { error: 'verifying certificate failed: certificate specifies an incompatible key usage' };
    }
    if (cert.commonName === '') return { error: 'certificate has no common name' };
    return { user: { username: cert.commonName, groups: [...cert.organizations] } };
  }
}
