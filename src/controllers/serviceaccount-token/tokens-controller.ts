// Keeps legacy service account token Secrets whole, as upstream's token controller: a token Secret
// (the token type, naming its account) gets its `token` (signed legacy claims), `namespace` and
// `ca.crt` filled in and the account's uid annotation set; a token whose account is gone (or has
// another uid) is deleted; an account deleted takes its tokens with it; a token deleted leaves its
// account's `secrets` list. Two queues (accounts, Secrets), each key retried at most 10 times with
// upstream's retry rules: a write that lost a race (conflict) is retried, a 404 is done.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { realClock, sleep } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  isConflict,
  isNotFound,
  messageOf,
  nameOf,
  SECRETS,
  SERVICE_ACCOUNTS,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';
import {
  type AccountRef,
  accountKey,
  anyNeeded,
  isServiceAccountToken,
  parseAccountKey,
  parseSecretKey,
  populatedSecret,
  type SecretRef,
  secretKey,
  secretReferences,
  secretUpdateNeeded,
  type TokenNames,
} from './token-secret.ts';

/** Upstream's default bound on retries of one key. */
export const MAX_RETRIES = 10;
/** Upstream's RemoveTokenBackoff: 10 tries, 100 ms apart with up to 100% jitter. */
const REMOVE_REFERENCE_STEPS = 10;
const REMOVE_REFERENCE_PAUSE_MS = 100;

export interface TokensControllerOptions {
  client: ApiClient;
  serviceAccounts: SharedInformer;
  secrets: SharedInformer;
  /** Signs the legacy claims of a token held by `secretName`. */
  generateToken(sa: AccountRef, secretName: string): Promise<string>;
  /** The CA bundle every token Secret carries ('' for none). */
  rootCA: string;
  names: TokenNames;
  log: ControllerLogger;
  workers?: number;
  clock?: Clock;
}

/** A failure worth another try (thrown to the work queue); others are logged and dropped. */
class Retry extends Error {}

export class TokensController {
  readonly accountQueue: RateLimitingQueue<string>;
  readonly secretQueue: RateLimitingQueue<string>;
  private readonly clock: Clock;
  private readonly unwatch: () => void;

  constructor(private readonly o: TokensControllerOptions) {
    this.clock = o.clock ?? realClock;
    this.accountQueue = new RateLimitingQueue<string>({
      clock: this.clock,
      name: 'serviceaccount_tokens_service',
    });
    this.secretQueue = new RateLimitingQueue<string>({
      clock: this.clock,
      // Upstream 1.35 names this queue as the accounts' one, so both feed one set of series.
      name: 'serviceaccount_tokens_service',
    });
    const queueAccount = (sa: ApiObject) => {
      const key = accountKey(sa);
      if (key !== undefined) this.accountQueue.add(key);
    };
    const queueSecret = (s: ApiObject) => {
      if (s.type !== o.names.tokenSecretType) return;
      const key = secretKey(s, o.names);
      if (key !== undefined) this.secretQueue.add(key);
    };
    this.unwatch = watchAll([
      [
        o.serviceAccounts,
        { add: queueAccount, update: (_old, sa) => queueAccount(sa), delete: queueAccount },
      ],
      [o.secrets, { add: queueSecret, update: (_old, s) => queueSecret(s), delete: queueSecret }],
    ]);
  }

  /** An account: when it is gone, delete its tokens. */
  async syncAccount(key: string): Promise<void> {
    const ref = parseAccountKey(key);
    if (this.cachedAccount(ref.namespace, ref.name, ref.uid) !== undefined) return;
    const failures: string[] = [];
    let retry = false;
    for (const token of this.tokensOf(ref)) {
      try {
        await this.deleteToken(ref.namespace, nameOf(token), String(token.metadata?.uid ?? ''));
      } catch (err) {
        failures.push(messageOf(err));
        if (err instanceof Retry) retry = true;
      }
    }
    if (failures.length === 0) return;
    const msg = `deleting the tokens of service account ${ref.namespace}/${ref.name}: ${failures.join('; ')}`;
    if (retry) throw new Retry(msg);
    this.o.log.error(msg);
  }

  /** A token Secret: fill it in, delete it when its account is gone, or unlist it when it is gone. */
  async syncSecret(key: string): Promise<void> {
    const ref = parseSecretKey(key);
    const secret = this.cachedSecret(ref);
    if (secret === undefined) {
      if (this.cachedAccount(ref.namespace, ref.saName, ref.saUid) !== undefined) {
        try {
          await this.removeSecretReference(ref);
        } catch (err) {
          this.o.log.error('removing a secret reference failed', {
            secret: `${ref.namespace}/${ref.name}`,
            err: messageOf(err),
          });
        }
      }
      return;
    }
    const sa = await this.liveAccount(ref.namespace, ref.saName, ref.saUid);
    if (sa === undefined) {
      await this.deleteToken(ref.namespace, ref.name, ref.uid);
      return;
    }
    await this.generateTokenIfNeeded(
      { namespace: ref.namespace, name: ref.saName, uid: String(sa.metadata?.uid ?? '') },
      secret,
    );
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.serviceAccounts, this.o.secrets], signal);
    const workers = this.o.workers ?? 5;
    const onError = (what: string) => (key: string, err: unknown) =>
      this.o.log.error(`syncing ${what} failed`, { key, err: messageOf(err) });
    const handle = (sync: (key: string) => Promise<void>) => async (key: string) => {
      try {
        await sync(key);
      } catch (err) {
        if (err instanceof Retry) throw err;
        // Not worth another try (upstream's retry=false): report and drop.
        this.o.log.error('syncing failed', { key, err: messageOf(err) });
      }
    };
    await Promise.all([
      runWorkers(
        this.accountQueue,
        workers,
        handle((k) => this.syncAccount(k)),
        signal,
        {
          maxRetries: MAX_RETRIES,
          onError: onError('service account'),
        },
      ),
      runWorkers(
        this.secretQueue,
        workers,
        handle((k) => this.syncSecret(k)),
        signal,
        {
          maxRetries: MAX_RETRIES,
          onError: onError('token secret'),
        },
      ),
    ]);
  }

  stop(): void {
    this.unwatch();
    this.accountQueue.shutDown();
    this.secretQueue.shutDown();
  }

  private cachedAccount(namespace: string, name: string, uid: string): ApiObject | undefined {
    const sa = this.o.serviceAccounts.lister.get(`${namespace}/${name}`);
    if (sa === undefined) return undefined;
    return uid === '' || uid === sa.metadata?.uid ? sa : undefined;
  }

  /** The account from the cache, or else from the server (the cache may not have seen it yet). */
  private async liveAccount(namespace: string, name: string, uid: string): Promise<ApiObject | undefined> {
    const cached = this.cachedAccount(namespace, name, uid);
    if (cached !== undefined) return cached;
    let sa: ApiObject;
    try {
      sa = await this.o.client.resource(SERVICE_ACCOUNTS, namespace).get(name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new Retry(messageOf(err));
    }
    return uid === '' || uid === sa.metadata?.uid ? sa : undefined;
  }

  private cachedSecret(ref: SecretRef): ApiObject | undefined {
    const s = this.o.secrets.lister.get(`${ref.namespace}/${ref.name}`);
    if (s === undefined) return undefined;
    return ref.uid === '' || ref.uid === s.metadata?.uid ? s : undefined;
  }

  private tokensOf(sa: AccountRef): ApiObject[] {
    return this.o.secrets.lister.list(sa.namespace).filter((s) => isServiceAccountToken(s, sa, this.o.names));
  }

  /** Deletes one token, only if it is still the Secret with `uid`. */
  private async deleteToken(namespace: string, name: string, uid: string): Promise<void> {
    try {
      await this.o.client
        .resource(SECRETS, namespace)
        .delete(name, uid !== '' ? { preconditions: { uid } } : {});
    } catch (err) {
      // Gone already, or the name holds another Secret now: done either way.
      if (isNotFound(err) || isConflict(err)) return;
      throw new Retry(messageOf(err));
    }
  }

  private async generateTokenIfNeeded(sa: AccountRef, cached: ApiObject): Promise<void> {
    if (!anyNeeded(secretUpdateNeeded(cached, this.o.rootCA))) return;
    const secrets = this.o.client.resource(SECRETS, sa.namespace);
    let live: ApiObject;
    try {
      live = await secrets.get(nameOf(cached));
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Retry(messageOf(err));
    }
    // A cache behind the server: the event that brings it up to date queues the Secret again.
    if (live.metadata?.resourceVersion !== cached.metadata?.resourceVersion) return;
    const needed = secretUpdateNeeded(live, this.o.rootCA);
    if (!anyNeeded(needed)) return;
    // A token that cannot be signed will not sign on a retry either (upstream: no retry).
    const token = needed.token ? await this.o.generateToken(sa, nameOf(live)) : undefined;
    try {
      await secrets.update(populatedSecret(live, sa, needed, this.o.rootCA, token, this.o.names));
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Retry(messageOf(err));
    }
  }

  /** Takes `ref` out of its account's `secrets`, re-reading and retrying on conflict. */
  private async removeSecretReference(ref: SecretRef): Promise<void> {
    const accounts = this.o.client.resource(SERVICE_ACCOUNTS, ref.namespace);
    for (let attempt = 1; ; attempt++) {
      let sa: ApiObject;
      try {
        sa = await accounts.get(ref.saName);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      if (ref.saUid !== '' && ref.saUid !== sa.metadata?.uid) return;
      if (!secretReferences(sa).has(ref.name)) return;
      const next = structuredClone(sa);
      next.secrets = (sa.secrets as unknown[]).filter(
        (r) => (r as { name?: unknown } | null)?.name !== ref.name,
      );
      try {
        await accounts.update(next);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= REMOVE_REFERENCE_STEPS) throw err;
      }
      await sleep(this.clock, REMOVE_REFERENCE_PAUSE_MS * (1 + Math.random()));
    }
  }
}
