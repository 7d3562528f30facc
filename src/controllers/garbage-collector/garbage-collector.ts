// The garbage collector (upstream's pkg/controller/garbagecollector) over the client: a graph of
// ownership fed by metadata-only watches of every deletable resource, and two queues worked by
// ConcurrentGCSyncs workers each:
// - attemptToDelete: a node whose owners may be gone. Owners are judged solid (present), dangling
//   (absent: seen deleted, 404 or another uid) or waiting (being deleted in the foreground). With a
//   solid owner, dangling and waiting references are removed; otherwise the object is deleted
//   (in the foreground when a waiting owner needs it and it has dependents of its own, else as its
//   own finalizers say, else in the background). A node deleting in the foreground loses its
//   foregroundDeletion finalizer once no dependent with blockOwnerDeletion is left.
// - attemptToOrphan: an owner deleted with the orphan finalizer: its references are removed from
//   every dependent, then the finalizer.
// Discovery is asked again every 30 s so that new resources (custom resources) are watched too.

import type { ApiClient, Clock } from '../../client/api.ts';
import type { EventRecorder } from '../../client/events/recorder.ts';
import { realClock, sleep } from '../../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { NamingProfile } from '../../naming/index.ts';
import type { ControllerLogger, ResourceDiscovery } from '../controller.ts';
import { isNotFound, messageOf } from '../controller-support.ts';
import { type AttemptContext, attemptToDeleteItem, RequeueSignal } from './attempt-to-delete.ts';
import { type GraphNode, ORPHAN_FINALIZER } from './graph.ts';
import { GraphBuilder } from './graph-builder.ts';
import { GraphMonitors } from './monitors.ts';
import { GcOperations, NamespacedOwnerError } from './operations.ts';
import { deletableResources, type IgnoredResource, RestMapper, RestMappingError } from './rest-mapper.ts';

export interface GarbageCollectorOptions {
  /** Writes (deletes and patches). */
  client: ApiClient;
  /** Reads: lists, watches and gets answering metadata only. */
  metadataClient: ApiClient;
  discovery: ResourceDiscovery;
  profile: NamingProfile;
  /** GCIgnoredResources: resources neither watched nor collected. */
  ignoredResources: readonly IgnoredResource[];
  /** ConcurrentGCSyncs: workers per queue. */
  workers: number;
  /** The field manager its patches are recorded under. */
  fieldManager: string;
  log: ControllerLogger;
  /** Where the Warnings about invalid owner references go (none: not recorded). */
  recorder?: EventRecorder;
  clock?: Clock;
  /** How often discovery is asked for new or removed resources (upstream: 30 s). */
  resyncPeriodMs?: number;
  /** How long the first start waits for every watch's first list before working anyway (30 s). */
  initialSyncTimeoutMs?: number;
}

const DEFAULT_RESYNC_MS = 30_000;
const DISCOVERY_RETRY_MS = 5_000;

export class GarbageCollectorController {
  readonly graph: GraphBuilder;
  readonly attemptToDelete: RateLimitingQueue<GraphNode>;
  readonly attemptToOrphan: RateLimitingQueue<GraphNode>;
  readonly monitors: GraphMonitors;
  private readonly ops: GcOperations;
  private readonly attempt: AttemptContext;
  private readonly clock: Clock;
  private mapper: RestMapper;
  private lastError: Error | undefined;

  constructor(private readonly o: GarbageCollectorOptions) {
    this.clock = o.clock ?? realClock;
    this.attemptToDelete = new RateLimitingQueue<GraphNode>({
      clock: this.clock,
      name: 'garbage_collector_attempt_to_delete',
    });
    this.attemptToOrphan = new RateLimitingQueue<GraphNode>({
      clock: this.clock,
      name: 'garbage_collector_attempt_to_orphan',
    });
    this.graph = new GraphBuilder(
      o.profile,
      {
        attemptToDelete: (n) => this.attemptToDelete.add(n),
        attemptToDeleteLater: (n) => this.attemptToDelete.addRateLimited(n),
        attemptToOrphan: (n) => this.attemptToOrphan.add(n),
      },
      o.recorder,
    );
    this.mapper = new RestMapper([], o.profile);
    this.ops = new GcOperations(o.client, o.metadataClient, () => this.mapper, o.fieldManager);
    this.attempt = {
      graph: this.graph,
      ops: this.ops,
      profile: o.profile,
      enqueue: (n) => this.attemptToDelete.add(n),
    };
    this.monitors = new GraphMonitors(o.metadataClient, this.graph, (resource, err) =>
      o.log.error('garbage collector: watch failed', { resource, err: messageOf(err) }),
    );
  }

  /** Reads discovery and brings the watches and the REST mapper in line with it. */
  async resync(): Promise<boolean> {
    this.o.discovery.refresh();
    const found = await this.o.discovery.all();
    this.mapper = RestMapper.fromDiscovery(found, this.o.profile);
    const failed = Object.keys(found.failed);
    if (failed.length > 0)
      this.o.log.error('garbage collector: failed to discover some groups', { groups: failed.sort() });
    return this.monitors.sync(
      deletableResources(found, this.o.ignoredResources, this.o.profile),
      found.failed,
    );
  }

  /** Health: the last discovery failure, if discovery has not worked since. */
  check(): void {
    if (this.lastError !== undefined) throw this.lastError;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.resync();
        this.lastError = undefined;
        break;
      } catch (err) {
        this.lastError = new Error(`garbage collector: discovery failed: ${messageOf(err)}`);
        this.o.log.error('garbage collector: discovery failed, retrying', { err: messageOf(err) });
        await sleep(this.clock, DISCOVERY_RETRY_MS, signal).catch(() => undefined);
      }
    }
    if (signal.aborted) return this.shutDown();
    await this.waitForSync(signal);
    const resyncing = this.resyncLoop(signal);
    const opts = {
      onError: (node: GraphNode, err: unknown) => this.report(node, err),
    };
    await Promise.all([
      runWorkers(this.attemptToDelete, this.o.workers, (n) => this.deleteWorker(n), signal, opts),
      runWorkers(this.attemptToOrphan, this.o.workers, (n) => this.orphanWorker(n), signal, opts),
    ]);
    await resyncing;
    await this.shutDown();
  }

  /** Stops the queues and the watches (run() also does on abort). */
  async shutDown(): Promise<void> {
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
    await this.monitors.stop();
  }

  private async waitForSync(signal: AbortSignal): Promise<void> {
    const timeout = new AbortController();
    const timer = this.clock.setTimer(() => timeout.abort(), this.o.initialSyncTimeoutMs ?? 30_000);
    await this.monitors.whenSynced(AbortSignal.any([signal, timeout.signal]));
    timer.cancel();
    if (!signal.aborted && !this.monitors.isSynced())
      this.o.log.info('garbage collector: not all resource monitors could be synced, proceeding anyways');
  }

  private async resyncLoop(signal: AbortSignal): Promise<void> {
    const period = this.o.resyncPeriodMs ?? DEFAULT_RESYNC_MS;
    while (!signal.aborted) {
      try {
        await sleep(this.clock, period, signal);
      } catch {
        return;
      }
      try {
        if (await this.resync())
          this.o.log.info('garbage collector: resources changed', {
            watched: this.monitors.watched().length,
          });
        this.lastError = undefined;
      } catch (err) {
        this.lastError = new Error(`garbage collector: discovery failed: ${messageOf(err)}`);
        this.o.log.error('garbage collector: discovery failed', { err: messageOf(err) });
      }
    }
  }

  private report(node: GraphNode, err: unknown): void {
    if (err instanceof RequeueSignal) return;
    this.o.log.error(
      err instanceof RestMappingError ? 'garbage collector: unknown owner type' : 'error syncing item',
      {
        item: String(node),
        err: messageOf(err),
      },
    );
  }

  private async deleteWorker(node: GraphNode): Promise<void> {
    const current = this.graph.nodes.get(node.uid);
    // Removed from the graph, or replaced, since it was queued.
    if (current !== node) return;
    try {
      await attemptToDeleteItem(node, this.attempt);
    } catch (err) {
      // A cluster-scoped object naming a namespaced owner stays wrong however often it is retried.
      if (err instanceof NamespacedOwnerError) {
        this.o.log.info('garbage collector: cluster-scoped item refers to a namespaced owner', {
          item: String(node),
        });
        return;
      }
      throw err;
    }
    // A virtual node that exists on the server waits until a watch shows it (upstream #56121).
    if (!node.observed && this.graph.nodes.get(node.uid) === node) throw new RequeueSignal();
  }

  private async orphanWorker(owner: GraphNode): Promise<void> {
    const failures: string[] = [];
    const uids = new Set([owner.uid]);
    await pool(owner.dependentList(), this.o.workers, async (d) => {
      try {
        await this.ops.removeOwnerReferences(d, uids, d.observed ? stateOfNode(d) : undefined);
      } catch (err) {
        if (!isNotFound(err)) failures.push(`orphaning ${d} failed, ${messageOf(err)}`);
      }
    });
    if (failures.length > 0)
      throw new Error(`failed to orphan dependents of owner ${owner}, got errors: [${failures.join(', ')}]`);
    await this.ops.removeFinalizer(owner, ORPHAN_FINALIZER);
  }
}

/** The graph's view of a dependent, for writes computed from it. */
function stateOfNode(n: GraphNode) {
  return {
    uid: n.uid,
    resourceVersion: n.resourceVersion,
    owners: n.owners,
    finalizers: [],
    deleting: n.beingDeleted,
  };
}

/** Runs `fn` over `items`, at most `width` at a time. */
async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
}
