// Signs the cluster-info ConfigMap of the public namespace with every bootstrap token marked for
// signing, as upstream's bootstrapsigner: any change to that ConfigMap or to a bootstrap token
// Secret of the system namespace queues the one key; its sync recomputes the signatures from the
// caches and writes the ConfigMap when a signature is new, different or stale. Beyond upstream, a
// sync also queues itself for the moment the next signing token expires, so an expired token's
// signature goes even when no token cleaner deletes its Secret. A conflict is retried.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { realClock } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  CONFIG_MAPS,
  isNotFound,
  messageOf,
  nameOf,
  namespaceOf,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';
import { type SigningToken, tokenExpiration, tokenForSigning } from './bootstrap-token-secret.ts';
import { type ClusterInfoKeys, signedClusterInfoData } from './cluster-info.ts';

export interface BootstrapSignerNames extends ClusterInfoKeys {
  /** Where cluster-info lives, and its name. */
  configMapNamespace: string;
  configMapName: string;
  /** Where the token Secrets live, and their type. */
  tokenNamespace: string;
  tokenSecretType: string;
}

export interface BootstrapSignerOptions {
  client: ApiClient;
  secrets: SharedInformer;
  configMaps: SharedInformer;
  names: BootstrapSignerNames;
  log: ControllerLogger;
  clock?: Clock;
}

export class BootstrapSigner {
  readonly queue: RateLimitingQueue<string>;
  private readonly key: string;
  private readonly clock: Clock;
  private readonly unwatch: () => void;

  constructor(private readonly o: BootstrapSignerOptions) {
    this.clock = o.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>({ clock: this.clock, name: 'bootstrap_signer_queue' });
    const n = o.names;
    this.key = `${n.configMapNamespace}/${n.configMapName}`;
    const poke = () => this.queue.add(this.key);
    const isClusterInfo = (cm: ApiObject) =>
      nameOf(cm) === n.configMapName && namespaceOf(cm) === n.configMapNamespace;
    const isToken = (s: ApiObject) => s.type === n.tokenSecretType && namespaceOf(s) === n.tokenNamespace;
    this.unwatch = watchAll([
      [
        o.configMaps,
        {
          add: (cm) => isClusterInfo(cm) && poke(),
          update: (_old, cm) => isClusterInfo(cm) && poke(),
        },
      ],
      [
        o.secrets,
        {
          add: (s) => isToken(s) && poke(),
          update: (old, s) => (isToken(old) || isToken(s)) && poke(),
          delete: (s) => isToken(s) && poke(),
        },
      ],
    ]);
  }

  /** The tokens that may sign now, and how long until the first of them expires (0: none does). */
  signingTokens(): { tokens: SigningToken[]; nextExpiryMs: number } {
    const now = this.clock.now();
    const tokens: SigningToken[] = [];
    let nextExpiryMs = 0;
    const secrets = this.o.secrets.lister
      .list(this.o.names.tokenNamespace)
      .filter((s) => s.type === this.o.names.tokenSecretType)
      .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
    for (const secret of secrets) {
      const token = tokenForSigning(secret, now);
      if (token === undefined) continue;
      tokens.push(token);
      const { remainingMs } = tokenExpiration(secret, now);
      if (remainingMs > 0 && (nextExpiryMs === 0 || remainingMs < nextExpiryMs)) nextExpiryMs = remainingMs;
    }
    return { tokens, nextExpiryMs };
  }

  async sync(): Promise<void> {
    const { configMapNamespace, configMapName } = this.o.names;
    const cm = this.o.configMaps.lister.get(`${configMapNamespace}/${configMapName}`);
    if (cm === undefined) return;
    const { tokens, nextExpiryMs } = this.signingTokens();
    if (nextExpiryMs > 0) this.queue.addAfter(this.key, nextExpiryMs);
    const data = signedClusterInfoData(cm.data, tokens, this.o.names);
    if (data === undefined) return;
    const next = structuredClone(cm);
    next.data = data;
    try {
      await this.o.client.resource(CONFIG_MAPS, configMapNamespace).update(next);
    } catch (err) {
      // Gone: nothing to sign. A conflict (or any other failure) is retried from the caches.
      if (isNotFound(err)) return;
      throw err;
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.configMaps, this.o.secrets], signal);
    await runWorkers(this.queue, 1, () => this.sync(), signal, {
      onError: (_key, err) =>
        this.o.log.error('signing the cluster-info ConfigMap failed', { err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
