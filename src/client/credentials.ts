// Credentials that come from the configuration itself: a bearer token, a token file, a client
// certificate and key (inline or as files). Files are re-read as they rotate (a projected service
// account token is replaced well before it expires): the token file about every minute, as
// client-go's cached file token source does, the certificate files every five minutes, as its
// certificate reloading does. A 401 makes the next request re-read the token file at once.

import { readFileSync } from 'node:fs';
import type { Clock, CredentialSource, Credentials } from './api.ts';
import { realClock } from './work-queue/clock.ts';

export interface StaticCredentialOptions {
  token?: string;
  /** Read (trimmed) in preference to `token`, which stays the fallback while the file is unreadable. */
  tokenFile?: string;
  clientCertificatePem?: string;
  clientKeyPem?: string;
  clientCertificateFile?: string;
  clientKeyFile?: string;
  clock?: Clock;
  /** How long a token read from the file is used before reading it again (default 1 minute). */
  tokenFileRefreshMs?: number;
  /** How long certificate files are used before reading them again (default 5 minutes). */
  certificateFileRefreshMs?: number;
}

export const TOKEN_FILE_REFRESH_MS = 60_000;
export const CERTIFICATE_FILE_REFRESH_MS = 5 * 60_000;

interface Cached<T> {
  value: T;
  readAt: number;
}

/** Whether two sets of credentials would authenticate the same way. */
export function sameCredentials(a: Credentials, b: Credentials): boolean {
  return (
    a.token === b.token &&
    a.clientCertificatePem === b.clientCertificatePem &&
    a.clientKeyPem === b.clientKeyPem
  );
}

/** Reads a token file as client-go does: trimmed, and an empty file is an error. */
export function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`failed to read token file "${file}": ${(err as Error).message}`);
  }
  const token = text.trim();
  if (token === '') throw new Error(`read empty token from file "${file}"`);
  return token;
}

export class StaticCredentialSource implements CredentialSource {
  private readonly clock: Clock;
  private token: Cached<string> | undefined;
  private cert: Cached<{ cert: string; key: string }> | undefined;

  constructor(private readonly opts: StaticCredentialOptions = {}) {
    this.clock = opts.clock ?? realClock;
    const hasCert = opts.clientCertificatePem !== undefined || opts.clientCertificateFile !== undefined;
    const hasKey = opts.clientKeyPem !== undefined || opts.clientKeyFile !== undefined;
    if (hasCert !== hasKey) throw new Error('a client certificate and its key must be given together');
    // Read now, so a missing file fails where the client is made rather than on its first request.
    if (opts.tokenFile !== undefined && opts.token === undefined) this.fileToken();
    if (opts.clientCertificateFile !== undefined || opts.clientKeyFile !== undefined) this.certificate();
  }

  async current(): Promise<Credentials> {
    const out: Credentials = {};
    const token = this.opts.tokenFile !== undefined ? this.fileToken() : this.opts.token;
    if (token !== undefined) out.token = token;
    const cert = this.certificate();
    if (cert !== undefined) {
      out.clientCertificatePem = cert.cert;
      out.clientKeyPem = cert.key;
    }
    return out;
  }

  unauthorized(used: Credentials): void {
    // Only a token read from a file can have changed; forget it if the rejected request used it.
    if (this.token !== undefined && used.token === this.token.value) this.token = undefined;
  }

  private fileToken(): string | undefined {
    const now = this.clock.now();
    const period = this.opts.tokenFileRefreshMs ?? TOKEN_FILE_REFRESH_MS;
    if (this.token !== undefined && now - this.token.readAt < period) return this.token.value;
    try {
      this.token = { value: readTokenFile(this.opts.tokenFile as string), readAt: now };
    } catch (err) {
      // A file being replaced may be briefly unreadable: keep what was read, else the static token.
      if (this.token !== undefined) return this.token.value;
      if (this.opts.token !== undefined) return this.opts.token;
      throw err;
    }
    return this.token.value;
  }

  private certificate(): { cert: string; key: string } | undefined {
    const { clientCertificatePem, clientKeyPem, clientCertificateFile, clientKeyFile } = this.opts;
    if (clientCertificateFile === undefined && clientKeyFile === undefined) {
      if (clientCertificatePem === undefined || clientKeyPem === undefined) return undefined;
      return { cert: clientCertificatePem, key: clientKeyPem };
    }
    const now = this.clock.now();
    const period = this.opts.certificateFileRefreshMs ?? CERTIFICATE_FILE_REFRESH_MS;
    if (this.cert !== undefined && now - this.cert.readAt < period) return this.cert.value;
    const read = (file: string, what: string) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (err) {
        throw new Error(`unable to read ${what} ${file}: ${(err as Error).message}`);
      }
    };
    try {
      const value = {
        cert: clientCertificatePem ?? read(clientCertificateFile as string, 'client-cert'),
        key: clientKeyPem ?? read(clientKeyFile as string, 'client-key'),
      };
      this.cert = { value, readAt: now };
      return value;
    } catch (err) {
      if (this.cert !== undefined) return this.cert.value;
      throw err;
    }
  }
}
