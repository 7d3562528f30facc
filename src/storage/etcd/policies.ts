// The etcd3 client's fault handling, replaced. Its defaults cost a leader failover an outage:
//
// - Each member sits behind a circuit breaker that opens for 5 s after three consecutive
//   UNAVAILABLE errors. Writes that reached a follower just before the leader died wait for etcd's
//   request timeout (5 s + 2 election timeouts = 7 s) and then all fail together with
//   "etcdserver: request timed out" (UNAVAILABLE). That is the live members answering, but it
//   trips their breakers at once, and with the dead member's breaker already open every request
//   fails "circuit breaker is open" for the next 5 s: measured, 7 s to 12 s after the kill.
// - The client retries every UNAVAILABLE up to three times on other members, writes included,
//   though a write that timed out may have been applied: a create retried that way answered
//   AlreadyExists for an object it had created itself.
// - Every UNAVAILABLE also closes the member's gRPC channels, so a live member's refusal drops
//   the connection that every other request and watch to that member shares.
//
// Here a member counts as down only when it does not answer at all, and only for a short while;
// what a live member answers passes through untouched (wrapped so the library keeps the
// connection); and the library retries nothing, because only the storage layer knows whether a
// request is safe to send again (faults.ts, EtcdStorage).

import type etcd3 from 'etcd3';
import {
  isMemberUnavailableAnswer,
  isUnreachable,
  MemberAnsweredError,
  MemberUnreachableError,
} from './faults.ts';

type FaultHandling = NonNullable<etcd3.IOptions['faultHandling']>;
type Policy = NonNullable<FaultHandling['global']>;
type PolicyContext = Parameters<Parameters<Policy['execute']>[0]>[0];

/** How long a member that did not answer is skipped before it is tried again. */
const MEMBER_DOWN_MS = 1000;

/** cockatiel's event shape: subscribing returns a disposable. Nothing here emits. */
const noEvents = () => ({ dispose() {} });

/** Runs the call once, as is. */
class PassThrough implements Policy {
  declare readonly _altReturn: never;
  readonly onSuccess = noEvents;
  readonly onFailure = noEvents;

  async execute<T>(fn: (context: PolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> {
    return fn({ signal: signal ?? new AbortController().signal });
  }
}

/**
 * One per member. Skips the member for a second after it failed to answer (connection refused,
 * connection lost), so requests go to the others without paying a connection attempt each; the
 * first request after that second tries it again. Answers from the member, refusals included,
 * never mark it down.
 */
class MemberGuard implements Policy {
  declare readonly _altReturn: never;
  readonly onSuccess = noEvents;
  readonly onFailure = noEvents;
  private downUntil = 0;

  constructor(private readonly host: string) {}

  async execute<T>(fn: (context: PolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> {
    if (performance.now() < this.downUntil) throw new MemberUnreachableError(this.host);
    try {
      return await fn({ signal: signal ?? new AbortController().signal });
    } catch (err) {
      if (isUnreachable(err)) this.downUntil = performance.now() + MEMBER_DOWN_MS;
      else if (isMemberUnavailableAnswer(err)) throw new MemberAnsweredError(err);
      throw err;
    }
  }
}

export function faultHandling(): FaultHandling {
  return { global: new PassThrough(), host: (host: string) => new MemberGuard(host) };
}

/**
 * gRPC channel options. Messages are unlimited because values and range pages may be large.
 * Keepalive pings (as upstream's etcd client: every 30 s, 10 s to answer) notice a member that
 * vanished without closing its connections (a host that lost power, a partition), where only
 * the operating system's TCP timeouts would otherwise end the calls waiting on it.
 */
export const grpcOptions = {
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
};
