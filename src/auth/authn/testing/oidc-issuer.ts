// A test OpenID issuer on loopback: HTTPS with its own CA, a discovery document, a key set, keys
// that rotate (a new kid in, the old one out) and tokens with whatever claims and header a test
// chooses. It can also be made unreachable (503 for everything) to test start-up and refresh.

import { generateKeyPairSync, type JsonWebKey, type KeyObject, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CompactSign } from 'jose';
import { createCa, createLeaf } from '../../../server/pki/generate.ts';

export interface IssuerKey {
  kid: string;
  alg: string;
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

export interface TestIssuerOptions {
  /** Path after the origin in the issuer URL (`/tenant`); none by default. */
  path?: string;
  /** Signing algorithm of the first key (default RS256). */
  alg?: string;
  /** The `issuer` the discovery document announces (default: the issuer URL). */
  announcedIssuer?: (url: string) => string;
}

export interface SignOptions {
  /** The header's alg (default: the key's); 'none' makes an unsigned token. */
  alg?: string;
  /** The header's kid (default: the key's); null leaves it out. */
  kid?: string | null;
  /** Sign with this key instead of the current one (a key the issuer does not publish, say). */
  key?: IssuerKey;
}

export function newIssuerKey(alg = 'RS256'): IssuerKey {
  const { privateKey, publicKey } = alg.startsWith('ES')
    ? generateKeyPairSync('ec', {
        namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg] ?? 'P-256',
      })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  return {
    kid,
    alg,
    privateKey,
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg },
  };
}

export class TestOidcIssuer {
  /** Published keys; the first signs. */
  keys: IssuerKey[];
  available = true;
  /** Requests per path, to see fetches happen. */
  readonly hits = new Map<string, number>();
  url = '';
  origin = '';

  private constructor(
    private readonly server: Server,
    readonly caPem: string,
    private readonly opts: TestIssuerOptions,
  ) {
    this.keys = [newIssuerKey(opts.alg ?? 'RS256')];
  }

  static async start(opts: TestIssuerOptions = {}): Promise<TestOidcIssuer> {
    const ca = await createCa('test-oidc-ca', 1);
    const serving = await createLeaf(ca, {
      commonName: '127.0.0.1',
      hosts: ['127.0.0.1', 'localhost'],
      usage: 'server',
      validDays: 1,
    });
    let self: TestOidcIssuer | undefined;
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      self?.answer(req.url ?? '/', res);
    });
    self = new TestOidcIssuer(server, ca.certPem, opts);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    self.origin = `https://127.0.0.1:${port}`;
    self.url = `${self.origin}${opts.path ?? ''}`;
    return self;
  }

  get discoveryPath(): string {
    return `${this.opts.path ?? ''}/.well-known/openid-configuration`;
  }

  /** Where the discovery document also answers, for `issuer.discoveryURL`. */
  get altDiscoveryUrl(): string {
    return `${this.origin}/discovery/elsewhere`;
  }

  private answer(path: string, res: import('node:http').ServerResponse): void {
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    if (!this.available) {
      res.writeHead(503).end('unavailable');
      return;
    }
    const json = (v: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (path === this.discoveryPath || path === '/discovery/elsewhere') {
      json({
        issuer: this.opts.announcedIssuer?.(this.url) ?? this.url,
        jwks_uri: `${this.origin}/keys`,
        id_token_signing_alg_values_supported: [...new Set(this.keys.map((k) => k.alg))],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
      });
    } else if (path === '/keys') {
      json({ keys: this.keys.map((k) => k.publicJwk) });
    } else {
      res.writeHead(404).end('not found');
    }
  }

  fetchesOf(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  /** A new signing key with a new kid; the old keys are no longer published. */
  rotate(alg?: string): IssuerKey {
    const key = newIssuerKey(alg ?? this.keys[0].alg);
    this.keys = [key];
    return key;
  }

  /** Standard claims for `aud`, valid for an hour, merged with `claims` (undefined values removed). */
  claims(aud: string | string[], claims: Record<string, unknown> = {}): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    const all: Record<string, unknown> = {
      iss: this.url,
      aud,
      sub: 'jane',
      iat: now,
      exp: now + 3600,
      ...claims,
    };
    for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
    return all;
  }

  /** A compact JWT of exactly these claims. */
  async sign(claims: Record<string, unknown>, o: SignOptions = {}): Promise<string> {
    const key = o.key ?? this.keys[0];
    const alg = o.alg ?? key.alg;
    const header: Record<string, unknown> = { alg, typ: 'JWT' };
    if (o.kid !== null) header.kid = o.kid ?? key.kid;
    const payload = new TextEncoder().encode(JSON.stringify(claims));
    if (alg === 'none') {
      const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      return `${enc(header)}.${Buffer.from(payload).toString('base64url')}.`;
    }
    return new CompactSign(payload).setProtectedHeader(header as { alg: string }).sign(key.privateKey);
  }

  /** `claims(aud, extra)` signed with the current key. */
  issue(aud: string | string[], extra: Record<string, unknown> = {}, o: SignOptions = {}): Promise<string> {
    return this.sign(this.claims(aud, extra), o);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
