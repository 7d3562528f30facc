// The hostile scenario's own kinds of load, as plain data for its worker threads (hostile-threads.ts):
// watchers that never read, connections that sit idle, HTTP/2 streams reset as soon as they are
// sent, and gets for as long as the rest goes on. Each is bounded in count and time, and each counts
// what the server did to it (closed, refused, sent GOAWAY) rather than failing on it: a server that
// defends itself is doing its job.

import { type ClientHttp2Session, connect, constants } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { census, getRequest, openTls, readHeadThenPause, serverPort } from './hostile-sockets.ts';
import { apiClient } from './http-client.ts';
import { cmPath } from './jobs.ts';
import type { Endpoint } from './target.ts';

export type HostileJob =
  | {
      /** Opens watches on `path`, one connection each, then never reads them again. */
      kind: 'slow-watch';
      path: string;
      watchers: number;
      /** Handshakes in flight at once while opening. */
      openConcurrency: number;
      maxMs: number;
    }
  | {
      /** Opens connections and leaves them idle, after one request on each or none at all. */
      kind: 'idle-connections';
      count: number;
      /** The request each connection makes before going idle; none when absent. */
      path?: string;
      openConcurrency: number;
      maxMs: number;
    }
  | {
      /** Over HTTP/2, opens `streams` requests of `path` in bursts, resetting each at once. */
      kind: 'rapid-reset';
      path: string;
      streams: number;
      burst: number;
      /** The pause between bursts. */
      pauseMs: number;
      /** Sessions opened at most: the server may GOAWAY one after another. */
      maxSessions: number;
      maxMs: number;
    }
  | {
      /** Random gets of `objects` from `concurrency` clients until stopped. */
      kind: 'get-for';
      objects: [string, string][];
      concurrency: number;
      maxMs: number;
    };

/** What holding connections saw: slow-watch and idle-connections. */
export interface HeldResult {
  /** Connections set up (for a watch or a request, with a 200). */
  opened: number;
  /** Connections refused, failed, or answered with another status, by error code or status. */
  refused: Record<string, number>;
  /** Of the opened ones, those the server closed while they were held. */
  closedByServer: number;
  /**
   * How long after its opening each such connection was closed: when its close event came, or (a
   * paused slow watcher hears nothing) when the once-a-second look at the kernel's table saw it.
   */
  closedAfterMs: number[];
  /** slow-watch: bytes the kernel held unread for the watchers at the end. */
  unreadBytes: number;
  /** slow-watch: bytes the server's kernel held queued to them at the end (in no RSS). */
  serverQueuedBytes: number;
  /** How long opening them all took. */
  openMs: number;
}

export interface ResetResult {
  /** Streams sent and reset, in bursts the server answered a PING after: all of them reached it. */
  resets: number;
  /** Streams sent and reset in bursts after which the session went (GOAWAY, error) unanswered. */
  unanswered: number;
  sessions: number;
  /** Each GOAWAY the server sent: its error code and after how many of this run's resets. */
  goaways: { code: number; afterResets: number }[];
  /** Session errors and refused connections, by code. */
  errors: Record<string, number>;
  elapsedMs: number;
}

export interface GetResult {
  latencies: number[];
  ok: number;
  failed: number;
  elapsedMs: number;
}

export interface HostileResults {
  'slow-watch': HeldResult;
  'idle-connections': HeldResult;
  'rapid-reset': ResetResult;
  'get-for': GetResult;
}

const HANDSHAKE_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};
const codeOf = (err: unknown) => String((err as NodeJS.ErrnoException).code ?? (err as Error).message);

/** Resolves after `ms`, or as soon as `stop` aborts. */
function holdUntil(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise((res) => {
    if (stop?.aborted) return res();
    const timer = setTimeout(res, ms);
    stop?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        res();
      },
      { once: true },
    );
  });
}

/** Runs `work(i)` for i in [0, count) with `concurrency` in flight. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, Math.max(count, 1)) }, async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  });
  await Promise.all(lanes);
}

/**
 * Opens the connections of a slow-watch or idle-connections job, holds them until `stop` (or the
 * job's bound), and counts what the server did meanwhile.
 */
async function hold(
  e: Endpoint,
  job: Extract<HostileJob, { kind: 'slow-watch' | 'idle-connections' }>,
  onReady: () => void,
  stop?: AbortSignal,
): Promise<HeldResult> {
  const start = performance.now();
  const r: HeldResult = {
    opened: 0,
    refused: {},
    closedByServer: 0,
    closedAfterMs: [],
    unreadBytes: 0,
    serverQueuedBytes: 0,
    openMs: 0,
  };
  /** Each held socket by its local port, with when it opened. */
  const held = new Map<number, { socket: TLSSocket; openedAt: number }>();
  const slow = job.kind === 'slow-watch';
  const deadline = start + job.maxMs;
  let releasing = false;
  await pool(slow ? job.watchers : job.count, job.openConcurrency, async () => {
    if (stop?.aborted || performance.now() > deadline) return;
    let socket: TLSSocket;
    try {
      socket = await openTls(e, HANDSHAKE_TIMEOUT_MS);
    } catch (err) {
      bump(r.refused, codeOf(err));
      return;
    }
    if (job.path !== undefined) {
      socket.write(getRequest(e, job.path));
      const status = await readHeadThenPause(socket, HANDSHAKE_TIMEOUT_MS);
      if (status !== 200) {
        bump(r.refused, status === 0 ? 'no response' : `HTTP ${status}`);
        socket.destroy();
        return;
      }
    }
    const openedAt = performance.now();
    if (socket.localPort === undefined) {
      socket.destroy();
      return;
    }
    r.opened++;
    held.set(socket.localPort, { socket, openedAt });
    // A slow watcher stays paused for good (the kernel's table tells when the server closes it);
    // an idle connection reads and drops whatever comes, so that it hears the server's close.
    if (!slow) {
      socket.on('data', () => {});
      socket.resume();
      socket.once('close', () => {
        if (releasing) return;
        r.closedByServer++;
        r.closedAfterMs.push(performance.now() - openedAt);
      });
    }
  });
  r.openMs = performance.now() - start;
  onReady();
  const ports = new Set(held.keys());
  const remote = serverPort(e);
  const counted = new Set<number>();
  const look = () => {
    const c = census(ports, remote);
    for (const port of c.closedPorts) {
      if (counted.has(port)) continue;
      counted.add(port);
      r.closedAfterMs.push(performance.now() - (held.get(port)?.openedAt ?? start));
    }
    r.closedByServer = counted.size;
    r.unreadBytes = c.unreadBytes;
    r.serverQueuedBytes = c.serverQueuedBytes;
  };
  const timer = slow ? setInterval(look, 1000) : undefined;
  await holdUntil(Math.max(0, deadline - performance.now()), stop);
  clearInterval(timer);
  if (slow) look();
  releasing = true;
  for (const { socket } of held.values()) socket.destroy();
  return r;
}

/** Whether the server answers a PING within 10 s (false when the session is gone or closing). */
function pingAnswered(session: ClientHttp2Session): Promise<boolean> {
  return new Promise((res) => {
    if (session.closed || session.destroyed) return res(false);
    const timer = setTimeout(() => res(false), 10_000);
    const sent = session.ping((err) => {
      clearTimeout(timer);
      res(err === null);
    });
    if (!sent) {
      clearTimeout(timer);
      res(false);
    }
  });
}

/** Resets of a large LIST over HTTP/2, session after session until the count or a bound is reached. */
async function rapidReset(
  e: Endpoint,
  job: Extract<HostileJob, { kind: 'rapid-reset' }>,
  stop?: AbortSignal,
): Promise<ResetResult> {
  const start = performance.now();
  const r: ResetResult = { resets: 0, unanswered: 0, sessions: 0, goaways: [], errors: {}, elapsedMs: 0 };
  const headers = {
    ':method': 'GET',
    ':path': job.path,
    accept: 'application/json',
    ...(e.token === undefined ? {} : { authorization: `Bearer ${e.token}` }),
  };
  while (
    r.resets < job.streams &&
    r.sessions < job.maxSessions &&
    performance.now() - start < job.maxMs &&
    !stop?.aborted
  ) {
    r.sessions++;
    const session = connect(e.url, { ca: e.ca, cert: e.cert, key: e.key, rejectUnauthorized: !e.insecure });
    let gone = false;
    session.on('goaway', (code) => {
      gone = true;
      r.goaways.push({ code, afterResets: r.resets });
    });
    session.on('error', (err) => {
      gone = true;
      bump(r.errors, codeOf(err));
    });
    session.on('close', () => {
      gone = true;
    });
    const connected = await new Promise<boolean>((res) => {
      session.once('connect', () => res(true));
      session.once('close', () => res(false));
    });
    if (!connected) continue;
    while (!gone && r.resets < job.streams && performance.now() - start < job.maxMs && !stop?.aborted) {
      let sent = 0;
      for (let i = 0; i < job.burst && r.resets + sent < job.streams && !gone; i++) {
        try {
          const req = session.request(headers, { endStream: true });
          req.on('error', () => {});
          // Closed at once: nghttp2 still sends the HEADERS, then RST_STREAM (CANCEL) right after.
          req.close(constants.NGHTTP2_CANCEL);
          sent++;
        } catch (err) {
          bump(r.errors, codeOf(err));
          gone = true;
        }
      }
      // A PING after each burst, its answer awaited: the server answers it only after reading the
      // burst, so every reset counted reached it, and a GOAWAY it sends in between is seen rather
      // than lost with a session this side closed first.
      if (await pingAnswered(session)) r.resets += sent;
      else r.unanswered += sent;
      if (job.pauseMs > 0) await sleep(job.pauseMs);
    }
    session.destroy();
  }
  r.elapsedMs = performance.now() - start;
  return r;
}

/** Gets, closed loop, until stopped; failures (the server refusing, resetting) are counted. */
async function getFor(
  e: Endpoint,
  job: Extract<HostileJob, { kind: 'get-for' }>,
  onReady: () => void,
  stop?: AbortSignal,
): Promise<GetResult> {
  const client = apiClient(e, 'http1', job.concurrency);
  const r: GetResult = { latencies: [], ok: 0, failed: 0, elapsedMs: 0 };
  // Connections open before the timed part: their handshakes are not the gets' latency.
  await Promise.all(
    Array.from({ length: job.concurrency }, (_, i) => {
      const [ns, name] = job.objects[i % job.objects.length];
      return client.request('GET', cmPath(ns, name)).catch(() => undefined);
    }),
  );
  onReady();
  const start = performance.now();
  const deadline = start + job.maxMs;
  try {
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (!stop?.aborted && performance.now() < deadline) {
          const [ns, name] = job.objects[Math.floor(Math.random() * job.objects.length)];
          const t0 = performance.now();
          try {
            const reply = await client.request('GET', cmPath(ns, name));
            r.latencies.push(performance.now() - t0);
            if (reply.status === 200) r.ok++;
            else r.failed++;
          } catch {
            r.failed++;
            // A refused or reset connection: a moment's pause rather than a spin of failures.
            await sleep(10);
          }
        }
      }),
    );
  } finally {
    r.elapsedMs = performance.now() - start;
    client.close();
  }
  return r;
}

export function isHostileJob(job: { kind: string }): job is HostileJob {
  return ['slow-watch', 'idle-connections', 'rapid-reset', 'get-for'].includes(job.kind);
}

/** Runs one hostile job; `onReady` hears its connections are open, `stop` ends it early. */
export async function runHostileJob<J extends HostileJob>(
  e: Endpoint,
  job: J,
  onReady: () => void = () => {},
  stop?: AbortSignal,
): Promise<HostileResults[J['kind']]> {
  // The switch narrows `job` but not the generic result type: each case returns its kind's result.
  type R = HostileResults[J['kind']];
  const j: HostileJob = job;
  switch (j.kind) {
    case 'slow-watch':
    case 'idle-connections':
      return (await hold(e, j, onReady, stop)) as R;
    case 'rapid-reset': {
      onReady();
      return (await rapidReset(e, j, stop)) as R;
    }
    case 'get-for':
      return (await getFor(e, j, onReady, stop)) as R;
  }
}
