// --use-service-account-credentials: each controller talks to the API server as its own service
// account in the system namespace, so RBAC's system:controller:* roles bound to those accounts
// decide what it may do. As upstream's dynamic client builder does, the manager (with its own
// credentials) makes sure the account exists and asks for a bound token through TokenRequest; the
// token is renewed before it expires and after a 401.

import type { ApiClient, CredentialSource, Credentials } from '../../client/api.ts';
import { ApiError } from '../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../naming/index.ts';

/** Upstream's token lifetime for controllers. */
export const CONTROLLER_TOKEN_SECONDS = 3600;
/** Renew once this share of the lifetime has passed. */
const RENEW_AT = 0.8;

const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' } as const;

export interface ServiceAccountCredentialOptions {
  /** The manager's own client, which creates accounts and tokens. */
  root: ApiClient;
  profile: NamingProfile;
  namespace: string;
  name: string;
  expirationSeconds?: number;
  now?: () => number;
}

export class ServiceAccountCredentialSource implements CredentialSource {
  private cached: { credentials: Credentials; renewAt: number } | undefined;
  private pending: Promise<Credentials> | undefined;

  constructor(private readonly opts: ServiceAccountCredentialOptions) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  current(): Promise<Credentials> {
    if (this.cached !== undefined && this.now() < this.cached.renewAt) {
      return Promise.resolve(this.cached.credentials);
    }
    this.pending ??= this.issue().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  unauthorized(used: Credentials): void {
    if (this.cached !== undefined && this.cached.credentials.token === used.token) this.cached = undefined;
  }

  private async ensureAccount(): Promise<void> {
    const accounts = this.opts.root.resource(SERVICE_ACCOUNTS, this.opts.namespace);
    try {
      await accounts.get(this.opts.name);
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 404) throw err;
    }
    try {
      await accounts.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: this.opts.name, namespace: this.opts.namespace },
      });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 409) throw err;
    }
  }

  private async issue(): Promise<Credentials> {
    await this.ensureAccount();
    const group = groupName(this.opts.profile, 'authentication');
    const seconds = this.opts.expirationSeconds ?? CONTROLLER_TOKEN_SECONDS;
    const started = this.now();
    const review = await this.opts.root
      .resource(SERVICE_ACCOUNTS, this.opts.namespace)
      .create(
        { apiVersion: `${group}/v1`, kind: 'TokenRequest', spec: { expirationSeconds: seconds } },
        { subresource: 'token', name: this.opts.name },
      );
    const status = (review.status ?? {}) as { token?: string; expirationTimestamp?: string };
    if (typeof status.token !== 'string' || status.token === '') {
      throw new Error(
        `no token in the TokenRequest for service account ${this.opts.namespace}/${this.opts.name}`,
      );
    }
    const expires = Date.parse(status.expirationTimestamp ?? '');
    const lifetime = Number.isFinite(expires) ? Math.max(0, expires - started) : seconds * 1000;
    const credentials: Credentials = { token: status.token };
    this.cached = { credentials, renewAt: started + lifetime * RENEW_AT };
    return credentials;
  }
}
