// What an etcd failure means for the request that met it, and how long to wait before the next try.
//
// Whether a failed request may simply be sent again depends on what it was, which only the storage
// layer knows: a read always may; a write only when etcd certainly never took it (no connection,
// no leader to propose to), because a write that timed out in the middle of an election may still
// have been applied. So the client library's own retries are off (see policies.ts) and this module
// sorts errors for EtcdStorage, which retries reads and judges writes itself.

/**
 * - `unsent`: etcd certainly did not apply the request (it never reached a member, or the member
 *   refused it before proposing it): any request may be sent again.
 * - `ambiguous`: the request may or may not have been applied (a timeout, a connection lost while
 *   waiting for the answer): reads may be sent again; a write only with a check of its outcome.
 * - `final`: an answer about the request itself (compacted, invalid): trying again changes nothing.
 */
export type FailureKind = 'unsent' | 'ambiguous' | 'final';

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_RESOURCE_EXHAUSTED = 8;
const GRPC_UNAVAILABLE = 14;

/** Raised by the host policy while a member is known to be unreachable; nothing was sent. */
export class MemberUnreachableError extends Error {
  override name = 'MemberUnreachableError';
  constructor(host: string) {
    super(`etcd member ${host} is unreachable`);
  }
}

/**
 * A live member's UNAVAILABLE answer ("etcdserver: request timed out", "no leader"), wrapped so
 * that the client library neither drops the connection to that healthy member nor retries on its
 * own (it does both for any error it takes for UNAVAILABLE). The message stays etcd's.
 */
export class MemberAnsweredError extends Error {
  override name = 'MemberAnsweredError';
  constructor(err: Error) {
    super(err.message, { cause: err });
  }
}

/** Answers of a live member that refused the request before proposing it to raft. */
const REFUSED_BEFORE_PROPOSAL = [
  'etcdserver: no leader',
  'etcdserver: not capable',
  'etcdserver: too many requests',
  'raft proposal dropped',
];

/** gRPC's words for a call that found no connection to send on. */
const NO_CONNECTION = [
  /No connection established/i,
  /ECONNREFUSED/,
  /connect E[A-Z]+/,
  /Name resolution failed/i,
];

function grpcCode(err: Error): number | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  // The client library re-types gRPC errors and keeps the code only in the message ("14 UNAVAILABLE: ...").
  const m = /^(?:[A-Za-z]+: )?(\d+) [A-Z_]+:/.exec(err.message);
  return m ? Number(m[1]) : undefined;
}

export function classifyFailure(err: unknown): FailureKind {
  if (!(err instanceof Error)) return 'final';
  if (err instanceof MemberUnreachableError) return 'unsent';
  const message = err.message;
  if (REFUSED_BEFORE_PROPOSAL.some((s) => message.includes(s))) return 'unsent';
  const code = grpcCode(err);
  if (code === GRPC_UNAVAILABLE) return NO_CONNECTION.some((re) => re.test(message)) ? 'unsent' : 'ambiguous';
  if (code === GRPC_DEADLINE_EXCEEDED) return 'ambiguous';
  if (code === GRPC_RESOURCE_EXHAUSTED) return 'unsent';
  return 'final';
}

/** A member that did not answer at all (as opposed to one that answered with a refusal). */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof Error) || err instanceof MemberAnsweredError) return false;
  if (err.message.includes('etcdserver:')) return false;
  const code = grpcCode(err);
  return code === GRPC_UNAVAILABLE;
}

/** A live member's answer that the client library would take for the member's failure. */
export function isMemberUnavailableAnswer(err: unknown): err is Error {
  return err instanceof Error && err.message.includes('etcdserver:') && grpcCode(err) === GRPC_UNAVAILABLE;
}

/**
 * Delay before retry number `attempt` (0-based): from 25 ms doubling to 500 ms, with jitter so that
 * many requests failed together do not return together. A leader election takes about one
 * election timeout (1 s by default), so retries stay frequent enough to notice its end quickly.
 */
export function retryDelayMs(attempt: number): number {
  const base = Math.min(500, 25 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}
