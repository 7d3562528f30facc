// The namespace controller, as upstream's: the namespaces informer (resynced every
// NamespaceSyncPeriod) queues each namespace being deleted, 5 s later so that objects created at
// the last moment are seen; ConcurrentNamespaceSyncs workers each run one deletion pass. A pass that
// leaves content behind comes back after half its estimate plus a second; any other failure comes
// back with the queue's backoff (5 ms doubling to 60 s, and 10 per second overall).

import type { Clock, SharedInformer } from '../../client/api.ts';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
} from '../../client/work-queue/rate-limiters.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import { messageOf, nameOf, waitForInformers, watchAll } from '../controller-support.ts';
import { type NamespacedResourcesDeleter, ResourcesRemainingError } from './namespaced-resources-deleter.ts';

/** upstream's namespaceDeletionGracePeriod. */
export const NAMESPACE_DELETION_GRACE_MS = 5000;

export interface NamespaceControllerOptions {
  namespaces: SharedInformer;
  deleter: NamespacedResourcesDeleter;
  /** ConcurrentNamespaceSyncs. */
  workers: number;
  /** NamespaceSyncPeriod: how often every namespace is looked at again. */
  resyncPeriodMs: number;
  log: ControllerLogger;
  clock?: Clock;
  /** The wait before a namespace seen deleting is worked on (upstream: 5 s). */
  deletionGraceMs?: number;
}

export class NamespaceController {
  readonly queue: RateLimitingQueue<string>;
  private readonly unwatch: () => void;

  constructor(private readonly o: NamespaceControllerOptions) {
    const clock = o.clock;
    this.queue = new RateLimitingQueue<string>({
      clock,
      name: 'namespace',
      rateLimiter: new MaxOfRateLimiter<string>(
        new ItemExponentialFailureRateLimiter<string>(5, 60_000),
        new BucketRateLimiter<string>(10, 100, clock),
      ),
    });
    const grace = o.deletionGraceMs ?? NAMESPACE_DELETION_GRACE_MS;
    const enqueue = (ns: ApiObject) => {
      const ts = ns.metadata?.deletionTimestamp;
      if (ts === undefined || ts === null || ts === '') return;
      const name = nameOf(ns);
      if (name !== '') this.queue.addAfter(name, grace);
    };
    this.unwatch = watchAll([
      [o.namespaces, { add: enqueue, update: (_old, ns) => enqueue(ns) }, o.resyncPeriodMs],
    ]);
  }

  async sync(name: string): Promise<void> {
    // Gone from the cache: nothing left to do (the deleter re-reads the namespace itself).
    if (this.o.namespaces.lister.get(name) === undefined) return;
    try {
      await this.o.deleter.delete(name);
    } catch (err) {
      if (!(err instanceof ResourcesRemainingError)) throw err;
      this.queue.addAfter(name, (Math.floor(err.estimate / 2) + 1) * 1000);
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.namespaces], signal);
    await runWorkers(this.queue, this.o.workers, (ns) => this.sync(ns), signal, {
      onError: (ns, err) =>
        this.o.log.error('deletion of namespace failed', { namespace: ns, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
