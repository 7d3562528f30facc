// The etcd client this backend talks through: etcd's KV, Watch and Maintenance calls, encoded
// and decoded here (messages.ts) and carried by a transport: the cluster's members on this thread
// (members.ts), or on a thread of their own (thread-transport.ts) so that HTTP/2 and gRPC framing
// run beside the main thread rather than on it.

import type { StreamCall, StreamHandlers } from './grpc.ts';
import { Members, type Transport } from './members.ts';
import {
  decodeHeaderOnly,
  decodeRangeResponse,
  decodeStatusDbSize,
  decodeStatusTerm,
  decodeTxnResponse,
  encodeCompact,
  encodePut,
  encodeRange,
  encodeTxn,
  type PutRequest,
  type RangeRequest,
  type RangeResponse,
  type ResponseHeader,
  STATUS_REQUEST,
  type TxnRequest,
  type TxnResponse,
} from './messages.ts';
import { threadTransport } from './thread-transport.ts';

export { isUnreachable, MEMBER_DOWN_MS, MemberUnreachableError } from './members.ts';

export interface EtcdClientOptions {
  /** Run the connections on an I/O thread of their own (default: on this thread). */
  ioThread?: boolean;
}

const RANGE = '/etcdserverpb.KV/Range';
const PUT = '/etcdserverpb.KV/Put';
const TXN = '/etcdserverpb.KV/Txn';
const COMPACT = '/etcdserverpb.KV/Compact';
const STATUS = '/etcdserverpb.Maintenance/Status';

export class EtcdClient {
  private readonly transport: Transport;

  constructor(endpoints: string[], opts: EtcdClientOptions = {}) {
    this.transport =
      (opts.ioThread === true ? threadTransport(endpoints) : undefined) ?? new Members(endpoints);
  }

  private unary(path: string, framed: Buffer): Promise<Buffer> {
    return this.transport.unary(path, framed);
  }

  async range(req: RangeRequest): Promise<RangeResponse> {
    return decodeRangeResponse(await this.unary(RANGE, encodeRange(req)));
  }

  async put(req: PutRequest): Promise<{ header: ResponseHeader }> {
    return decodeHeaderOnly(await this.unary(PUT, encodePut(req)));
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    return decodeTxnResponse(await this.unary(TXN, encodeTxn(req)));
  }

  async compact(revision: number, physical = false): Promise<{ header: ResponseHeader }> {
    return decodeHeaderOnly(await this.unary(COMPACT, encodeCompact(revision, physical)));
  }

  /** A member's raft term. */
  async status(): Promise<number> {
    return decodeStatusTerm(await this.unary(STATUS, STATUS_REQUEST));
  }

  /** The size of a member's database, as its status reports it. */
  async dbSize(): Promise<number> {
    return decodeStatusDbSize(await this.unary(STATUS, STATUS_REQUEST));
  }

  /** A Watch stream on the next member; `handlers` hear its answers and its end. */
  watch(handlers: StreamHandlers): StreamCall {
    return this.transport.watch(handlers);
  }

  close(): void {
    this.transport.close();
  }
}
