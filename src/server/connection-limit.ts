// The bound on open connections. Each TLS connection costs tens of kilobytes however idle it is,
// and the process has a bounded number of file descriptors, so past `max` connections a new one is
// refused. The refusal is made clear where it can be: a refused connection completes its
// handshake, its first request is answered 429 with Retry-After (which client-go and kubectl
// retry), and the connection is closed. Only a few refusals are in progress at once, and each has
// a short deadline; past that, connections are closed on accept, before any TLS work.

/** How long a refused connection may take to send the request its refusal answers. */
export const REFUSAL_DEADLINE_MS = 5_000;

/** What the bound counts: anything that reports its end. */
export interface Connection {
  once(event: 'close', listener: () => void): unknown;
}

export class ConnectionLimit {
  private open = 0;
  private refusing = 0;
  private readonly refused = new WeakSet<object>();

  constructor(readonly max: number) {}

  /** Refusals answered at once, beyond which connections are closed on accept. */
  get refusalSlots(): number {
    return Math.max(16, Math.ceil(this.max / 10));
  }

  /** Connections accepted for TCP beyond which they are closed on accept (net.Server.maxConnections). */
  get acceptLimit(): number {
    return this.max + this.refusalSlots;
  }

  get connections(): number {
    return this.open;
  }

  /**
   * A connection whose TLS handshake finished (an HTTP/1.1 socket or an HTTP/2 session): counted,
   * or marked refused (true) and given its deadline.
   */
  admit(conn: Connection, destroy: () => void): boolean {
    if (this.open < this.max) {
      this.open++;
      conn.once('close', () => this.open--);
      return false;
    }
    if (this.refusing >= this.refusalSlots) {
      destroy();
      return true;
    }
    this.refusing++;
    this.refused.add(conn);
    const deadline = setTimeout(destroy, REFUSAL_DEADLINE_MS);
    deadline.unref();
    conn.once('close', () => {
      this.refusing--;
      clearTimeout(deadline);
    });
    return true;
  }

  /** Whether requests on this connection are to be refused. */
  isRefused(socket: object | null | undefined): boolean {
    return socket !== null && socket !== undefined && this.refused.has(socket);
  }
}
