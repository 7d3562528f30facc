// Deletes bootstrap token Secrets whose expiration has passed, as upstream's tokencleaner: each
// token Secret of the system namespace added or updated queues its key; its sync deletes it when
// expired (an expiry that does not parse counts as passed), with its uid as precondition, and
// otherwise queues it again for the moment it expires. A conflict there means the name now holds
// another Secret, and a 404 that it is gone: both are done; other failures are retried.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { realClock } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { tokenExpiration } from '../bootstrap-signer/bootstrap-token-secret.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  isConflict,
  isNotFound,
  keyOf,
  messageOf,
  nameOf,
  namespaceOf,
  SECRETS,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';

export interface TokenCleanerOptions {
  client: ApiClient;
  secrets: SharedInformer;
  /** Where the token Secrets live, and their type. */
  tokenNamespace: string;
  tokenSecretType: string;
  log: ControllerLogger;
  clock?: Clock;
}

export class TokenCleaner {
  readonly queue: RateLimitingQueue<string>;
  private readonly clock: Clock;
  private readonly unwatch: () => void;

  constructor(private readonly o: TokenCleanerOptions) {
    this.clock = o.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>({ clock: this.clock, name: 'token_cleaner' });
    const enqueue = (s: ApiObject) => {
      if (s.type === o.tokenSecretType && namespaceOf(s) === o.tokenNamespace) this.queue.add(keyOf(s));
    };
    this.unwatch = watchAll([[o.secrets, { add: enqueue, update: (_old, s) => enqueue(s) }]]);
  }

  async sync(key: string): Promise<void> {
    const secret = this.o.secrets.lister.get(key);
    if (secret === undefined || secret.type !== this.o.tokenSecretType) return;
    const { expired, remainingMs } = tokenExpiration(secret, this.clock.now());
    if (!expired) {
      if (remainingMs > 0) this.queue.addAfter(key, remainingMs);
      return;
    }
    const uid = secret.metadata?.uid;
    try {
      await this.o.client
        .resource(SECRETS, namespaceOf(secret))
        .delete(nameOf(secret), uid ? { preconditions: { uid } } : {});
      this.o.log.info('deleted expired bootstrap token', { secret: key });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.secrets], signal);
    await runWorkers(this.queue, 1, (key) => this.sync(key), signal, {
      onError: (key, err) =>
        this.o.log.error('deleting an expired bootstrap token failed', { secret: key, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
