// The authenticating proxy (--requestheader-*): a front proxy that has authenticated the user
// itself names them in request headers (X-Remote-User, X-Remote-Group, X-Remote-Extra-<key>...).
// Those headers are believed only from a connection whose client certificate chains to the
// proxy's own CA (--requestheader-client-ca-file) and, when --requestheader-allowed-names is set,
// carries one of those common names; from anyone else they are ignored and the request is judged
// by its other credentials. As upstream: the first non-empty user name header wins, groups are
// every non-empty value of every group header, extra keys are the rest of the header name after
// the prefix, lowercased and percent-decoded; once the user is taken from them, the headers are
// removed so that nothing later mistakes them for the client's own.

import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { headerValues, unescapeExtraKey } from './headers.ts';
import type { RequestHeaderOptions } from './options.ts';
import { chainProblem, parseCertificateBundle } from './request-header-chain.ts';
import type { Authenticator, AuthnRequest, AuthnResult, UserInfo } from './types.ts';

export interface RequestHeaderConfig {
  /** The proxy's CA certificates. */
  anchors: readonly X509Certificate[];
  allowedNames: readonly string[];
  usernameHeaders: readonly string[];
  uidHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeaderPrefixes: readonly string[];
  /** The clock, for tests. */
  now?: () => number;
}

function trimmed(flag: string, names: readonly string[] | undefined): string[] {
  return (names ?? []).map((n) => {
    const t = n.trim();
    if (t === '') throw new Error(`--${flag}: empty header ${JSON.stringify(n)}`);
    return t.toLowerCase();
  });
}

/** Headers by lowercase name, every value kept apart and in order. */
function requestHeaderValues(req: AuthnRequest): Map<string, string[]> {
  if (req.rawHeaders !== undefined) return headerValues(req.rawHeaders);
  const raw: string[] = [];
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) raw.push(k, one);
  }
  return headerValues(raw);
}

export class RequestHeaderAuthenticator implements Authenticator {
  constructor(private readonly config: RequestHeaderConfig) {}

  static fromOptions(o: RequestHeaderOptions): RequestHeaderAuthenticator {
    let pem: string;
    try {
      pem = readFileSync(o.clientCaFile, 'utf8');
    } catch (err) {
      throw new Error(`--requestheader-client-ca-file: ${(err as Error).message}`);
    }
    return new RequestHeaderAuthenticator({
      anchors: parseCertificateBundle(pem, o.clientCaFile),
      allowedNames: (o.allowedNames ?? []).map((n) => n.trim()),
      usernameHeaders: trimmed('requestheader-username-headers', o.usernameHeaders),
      uidHeaders: trimmed('requestheader-uid-headers', o.uidHeaders),
      groupHeaders: trimmed('requestheader-group-headers', o.groupHeaders),
      extraHeaderPrefixes: trimmed('requestheader-extra-headers-prefix', o.extraHeaderPrefixes),
    });
  }

  authenticate(req: AuthnRequest): AuthnResult {
    const cert = req.peerCertificate;
    if (cert === undefined) return null;
    const c = this.config;
    const problem =
      cert.chain === undefined
        ? 'x509: certificate signed by unknown authority'
        : chainProblem(cert.chain, c.anchors, (c.now ?? Date.now)());
    // The certificate may still be a user's own: the client certificate authenticator comes next.
    if (problem !== undefined) return { error: problem };
    if (c.allowedNames.length > 0 && !c.allowedNames.includes(cert.commonName))
      return { error: `x509: subject with cn=${cert.commonName} is not in the allowed list` };

    const headers = requestHeaderValues(req);
    const first = (names: readonly string[]) => {
      for (const n of names) {
        const v = headers.get(n)?.[0];
        if (v !== undefined && v !== '') return v;
      }
      return '';
    };
    const username = first(c.usernameHeaders);
    if (username === '') return null;
    const uid = first(c.uidHeaders);
    const groups = c.groupHeaders.flatMap((n) => (headers.get(n) ?? []).filter((v) => v !== ''));
    const extra: Record<string, string[]> = {};
    for (const prefix of c.extraHeaderPrefixes) {
      for (const [name, values] of headers) {
        if (!name.startsWith(prefix)) continue;
        const key = unescapeExtraKey(name.slice(prefix.length));
        extra[key] = [...(extra[key] ?? []), ...values];
      }
    }
    this.clear(req);
    const user: UserInfo = { username, groups };
    if (uid !== '') user.uid = uid;
    if (Object.keys(extra).length > 0) user.extra = extra;
    return { user };
  }

  private clear(req: AuthnRequest): void {
    const c = this.config;
    for (const name of Object.keys(req.headers)) {
      const n = name.toLowerCase();
      if (
        c.usernameHeaders.includes(n) ||
        c.uidHeaders.includes(n) ||
        c.groupHeaders.includes(n) ||
        c.extraHeaderPrefixes.some((p) => n.startsWith(p))
      )
        delete req.headers[name];
    }
  }
}
