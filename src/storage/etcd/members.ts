// The members of an etcd cluster and their connections (grpc.ts), taken in turn.
//
// Fault handling is deliberately thin; the storage layer decides what is retried (faults.ts,
// EtcdStorage). A member counts as down only when it does not answer at all (connection refused or
// lost), and only for a second: calls meanwhile go to the others without paying a connection
// attempt each, and the first call after that second tries it again. What a live member answers,
// refusals included ("etcdserver: request timed out"), passes through untouched and never marks it
// down, nor drops the connection that its other calls and watches share. Nothing is retried here:
// the etcd3 library's circuit breakers and blind retries once turned a leader's death into an
// outage and a create into AlreadyExists for its own object.

import { Channel, GrpcError, type StreamCall, type StreamHandlers } from './grpc.ts';

/** How long a member that did not answer is skipped before it is tried again. */
export const MEMBER_DOWN_MS = 1000;

/** Raised while every member is known to be unreachable; nothing was sent. */
export class MemberUnreachableError extends Error {
  override name = 'MemberUnreachableError';
  constructor(host: string) {
    super(`etcd member ${host} is unreachable`);
  }
}

/** A member that did not answer at all (as opposed to one that answered with a refusal). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof GrpcError && err.code === 14 && !err.details.includes('etcdserver:');
}

/** Where calls go: the members themselves (Members) or a thread that owns them (thread-transport.ts). */
export interface Transport {
  /** A unary call: the framed request, the answer's message bytes. */
  unary(path: string, framed: Buffer): Promise<Buffer>;
  /** A Watch stream; `handlers` hear its answers and its end. */
  watch(handlers: StreamHandlers): StreamCall;
  close(): void;
}

class Member {
  readonly channel: Channel;
  downUntil = 0;

  constructor(readonly url: string) {
    this.channel = new Channel(url);
  }
}

/** `host:port` without a scheme means plain HTTP/2, as etcd's own clients take it. */
function normalize(endpoint: string): string {
  return /^[a-z]+:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`;
}

export class Members implements Transport {
  private readonly members: Member[];
  private turn = 0;

  constructor(endpoints: string[]) {
    if (endpoints.length === 0) throw new Error('no etcd endpoints given');
    this.members = endpoints.map((e) => new Member(normalize(e)));
  }

  /** The next member in turn that is not known to be down. */
  private pick(): Member {
    const now = performance.now();
    const n = this.members.length;
    for (let i = 0; i < n; i++) {
      const m = this.members[(this.turn + i) % n];
      if (now >= m.downUntil) {
        this.turn = (this.turn + i + 1) % n;
        return m;
      }
    }
    throw new MemberUnreachableError(this.members[this.turn % n].url);
  }

  async unary(path: string, framed: Buffer): Promise<Buffer> {
    const m = this.pick();
    try {
      return await m.channel.unary(path, framed);
    } catch (err) {
      if (isUnreachable(err)) m.downUntil = performance.now() + MEMBER_DOWN_MS;
      throw err;
    }
  }

  watch(handlers: StreamHandlers): StreamCall {
    const m = this.pick();
    return m.channel.stream('/etcdserverpb.Watch/Watch', {
      message: handlers.message,
      end: handlers.end,
      error: (err) => {
        if (isUnreachable(err)) m.downUntil = performance.now() + MEMBER_DOWN_MS;
        handlers.error(err);
      },
    });
  }

  close(): void {
    for (const m of this.members) m.channel.close();
  }
}
