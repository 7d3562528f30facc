// Notices a new etcd leader while requests wait, so that they need not wait out the old one.
//
// A request that reached a follower just before the leader died is forwarded to the dead leader
// and lost; the follower answers only when etcd's request timeout ends (7 s by default), long after
// a new leader was elected (about a second). A sequential writer would stall all that time.
// Every etcd answer carries the raft term, which grows with each election: a request sent while
// the term was T and still unanswered once a member reports a term above T may have been lost,
// and is worth sending again (a read as is; a write under the checks of EtcdStorage.commit).
//
// Terms are learnt from answers as they come; while some request has waited longer than a
// healthy etcd takes (QUIET_MS), a member's status is asked for as well, so that the new term is
// seen even when every request in flight is one of the stuck ones. A slow but healthy cluster
// keeps its term, so nothing is ever sent twice merely for being slow.

/** How long a request waits before the term is asked for: longer than a healthy answer takes. */
const QUIET_MS = 750;
/** How often the term is asked for while requests keep waiting. */
const PROBE_EVERY_MS = 250;

/** The marker `race` answers with when the term moved on before the request's answer came. */
export const LEADER_CHANGED: unique symbol = Symbol('leader changed');

export class TermWatch {
  private term = 0;
  private readonly waiting = new Map<object, { since: number; started: number; resolve: () => void }>();
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  /** `probe` asks any member for its status and answers its raft term. */
  constructor(private readonly probe: () => Promise<number>) {}

  /** Records the term of an answer. */
  observe(term: string | number | undefined): void {
    const t = Number(term);
    if (!Number.isSafeInteger(t) || t <= this.term) return;
    this.term = t;
    for (const [token, w] of this.waiting) {
      if (t > w.since) {
        this.waiting.delete(token);
        w.resolve();
      }
    }
  }

  get current(): number {
    return this.term;
  }

  /**
   * The answer of `request` (sent while the term was `since`), or LEADER_CHANGED if a newer term is
   * seen first. A request left behind still settles later; its outcome is then ignored.
   */
  async race<T>(request: Promise<T>, since: number): Promise<T | typeof LEADER_CHANGED> {
    const token = {};
    const changed = new Promise<typeof LEADER_CHANGED>((resolve) => {
      this.waiting.set(token, { since, started: performance.now(), resolve: () => resolve(LEADER_CHANGED) });
    });
    this.schedule();
    try {
      const winner = await Promise.race([request, changed]);
      if (winner === LEADER_CHANGED) request.catch(() => undefined);
      return winner;
    } finally {
      this.waiting.delete(token);
    }
  }

  /** Stops asking; requests still racing wait for their own answers. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.waiting.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, PROBE_EVERY_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const now = performance.now();
    const overdue = [...this.waiting.values()].some((w) => now - w.started >= QUIET_MS);
    if (overdue && !this.probing) {
      this.probing = true;
      try {
        this.observe(await this.probe());
      } catch {
        // That member is down or busy; the next tick asks again, likely another one.
      } finally {
        this.probing = false;
      }
    }
    this.schedule();
  }
}
