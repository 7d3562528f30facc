// What an etcd failure means for the request that met it, and how long to wait before the next try.
//
// Whether a failed request may simply be sent again depends on what it was, which only the storage
// layer knows: a read always may; a write only when etcd certainly never took it (no connection,
// no leader to propose to), because a write that timed out in the middle of an election may still
// have been applied. So this module sorts errors for EtcdStorage, which retries reads and judges
// writes itself; the client (client.ts) retries nothing.

import { MemberUnreachableError } from './members.ts';

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

/** Answers of a live member that refused the request before proposing it to raft. */
const REFUSED_BEFORE_PROPOSAL = [
  'etcdserver: no leader',
  'etcdserver: not capable',
  'etcdserver: too many requests',
  'raft proposal dropped',
];

/** grpc.ts's words for a call that found no connection to send on. */
const NO_CONNECTION = [/No connection established/i, /ECONNREFUSED/, /connect E[A-Z]+/];

function grpcCode(err: Error): number | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  // Errors that crossed a boundary keep the code only in the message ("14 UNAVAILABLE: ...").
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

/**
 * Delay before retry number `attempt` (0-based): from 25 ms doubling to 500 ms, with jitter so that
 * many requests failed together do not return together. A leader election takes about one
 * election timeout (1 s by default), so retries stay frequent enough to notice its end quickly.
 */
export function retryDelayMs(attempt: number): number {
  const base = Math.min(500, 25 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}
