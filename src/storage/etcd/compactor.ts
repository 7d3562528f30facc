// Compacts etcd's history on an interval, as kube-apiserver does, so that etcd's size stays bounded
// and a watch from an old resourceVersion answers 410 instead of replaying everything.
//
// Several API servers share one etcd, and one compaction per interval is enough, so they agree
// through one key outside every prefix, `compact_rev_key` (upstream's name, so that our servers and
// upstream ones on the same etcd also agree). Its value is the revision last compacted to and its
// version (how many times it was written) is a logical clock. Each interval, every replica tries a
// transaction "if the key's version is still the one I last saw, write it": exactly one replica
// wins per version. The winner compacts to the revision it noted one interval earlier, so the last
// interval's history is always kept; the losers adopt the new version and note the current
// revision. If the winner stops, the others' next try finds the version unchanged and one of them
// takes over, so a compaction is never more than two intervals late.

import type { Revision } from '../interface.ts';
import type { EtcdClient } from './client.ts';

export const COMPACT_REV_KEY = 'compact_rev_key';

export interface CompactorOptions {
  /** Time between rounds; the first round runs one interval after start. */
  intervalMs: number;
  /** Told of every compaction, this replica's or one another replica recorded. */
  onCompacted?: (revision: Revision) => void;
  /** Told of a round that failed (etcd unreachable); the next round tries again. */
  onError?: (err: unknown) => void;
}

/** What a compactor has done, for tests and metrics. */
export interface CompactorStats {
  /** Rounds run, won or lost. */
  rounds: number;
  /** Compactions this replica made. */
  compactions: number;
  /** Revision of the latest compaction known to this replica (its own or recorded by another). */
  compactRevision: Revision;
}

export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** The key's version as this replica last saw it. */
  private version = 0;
  /** The revision noted at the last round: the next compaction's target. */
  private noted: Revision = 0;
  private readonly stats: CompactorStats = { rounds: 0, compactions: 0, compactRevision: 0 };

  constructor(
    private readonly client: EtcdClient,
    private readonly opts: CompactorOptions,
  ) {}

  start(): void {
    if (this.stopped || this.timer !== undefined || this.opts.intervalMs <= 0) return;
    this.schedule();
  }

  /** Stops the rounds and waits for one under way, so the client may be closed after. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  get statistics(): Readonly<CompactorStats> {
    return { ...this.stats };
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((err) => this.opts.onError?.(err))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule();
        });
    }, this.opts.intervalMs);
    // A compactor alone never keeps the process alive.
    this.timer.unref();
  }

  /** One round: try to take this interval's turn; compact if taken, else learn who did. */
  private async round(): Promise<void> {
    this.stats.rounds++;
    const key = Buffer.from(COMPACT_REV_KEY);
    const res = await this.client.txn({
      compare: [{ key, target: 'version', result: 'equal', version: this.version }],
      success: [{ put: { key, value: Buffer.from(String(this.noted)) } }],
      failure: [{ range: { key } }],
    });
    const current = res.header.revision;
    const target = this.noted;
    // Whatever happens next, the next round's target is the revision as of this round.
    this.noted = current;
    if (!res.succeeded) {
      // Another replica took the turn: adopt its clock and the revision it compacted to.
      const kv = res.responses[0]?.range?.kvs[0];
      this.version = kv === undefined ? 0 : kv.version;
      const recorded = kv === undefined ? Number.NaN : Number(kv.value.toString());
      if (Number.isSafeInteger(recorded) && recorded > 0) this.learn(recorded);
      return;
    }
    this.version++;
    // The first turn only notes a revision: nothing is old enough to compact yet.
    if (target === 0 || this.stopped) return;
    try {
      await this.client.compact(target);
    } catch (err) {
      // Someone compacted further already (an operator, etcd's own auto-compaction): not a failure.
      if (!(err instanceof Error && /required revision has been compacted/.test(err.message))) throw err;
      return;
    }
    this.stats.compactions++;
    this.learn(target);
  }

  private learn(revision: Revision): void {
    if (revision <= this.stats.compactRevision) return;
    this.stats.compactRevision = revision;
    this.opts.onCompacted?.(revision);
  }
}
