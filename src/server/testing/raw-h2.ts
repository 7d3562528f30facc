// A bare HTTP/2 client that writes frames as a test asks, without the flow control and stream
// bookkeeping a real client does: it can open more streams than the server allows, reset them the
// moment they are opened, and never read what comes back, as an abusive client would. It records
// what the server answers: stream resets, response headers and GOAWAY. Imported by tests only.

import { connect, type TLSSocket } from 'node:tls';

const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7 } as const;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;
const ACK = 0x1;
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

function frame(type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** An HPACK string literal, not Huffman-coded (short strings only: the length fits 7 bits). */
function literal(s: string): Buffer {
  const bytes = Buffer.from(s, 'latin1');
  if (bytes.length >= 127) throw new Error('raw-h2: header string too long for this encoder');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

/** A header block: static-table method and scheme, literal path and authority (never indexed). */
function headerBlock(method: 'GET' | 'POST', path: string, extra: Record<string, string>): Buffer {
  const parts: Buffer[] = [Buffer.from([method === 'GET' ? 0x82 : 0x83, 0x87])];
  parts.push(Buffer.from([0x04]), literal(path)); // :path, name from static index 4
  parts.push(Buffer.from([0x01]), literal('localhost')); // :authority, static index 1
  for (const [name, value] of Object.entries(extra)) {
    parts.push(Buffer.from([0x00]), literal(name.toLowerCase()), literal(value));
  }
  return Buffer.concat(parts);
}

export interface GoAway {
  lastStreamId: number;
  code: number;
}

export class RawH2Client {
  /** RST_STREAM codes the server sent, by stream. */
  readonly resets = new Map<number, number>();
  /** Streams the server sent response headers on. */
  readonly answered = new Set<number>();
  /** The first GOAWAY the server sent. */
  goaway: GoAway | undefined;
  /** Resolves when the connection is closed, by either side. */
  readonly closed: Promise<void>;
  private received: Buffer = Buffer.alloc(0);
  private pongs: (() => void)[] = [];
  private nextStream = 1;

  private constructor(readonly socket: TLSSocket) {
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        for (const pong of this.pongs.splice(0)) pong();
        resolve();
      }),
    );
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => this.read(chunk));
  }

  /** Connects as the holder of `credentials` (a client certificate and key), or anonymously. */
  static connect(
    port: number,
    ca: string | Buffer,
    credentials: { cert: string | Buffer; key: string | Buffer } | undefined = undefined,
  ): Promise<RawH2Client> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: '127.0.0.1',
        port,
        ca,
        ...credentials,
        servername: 'localhost',
        ALPNProtocols: ['h2'],
      });
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          reject(new Error(`raw-h2: server chose ${String(socket.alpnProtocol)}, not h2`));
          return;
        }
        socket.write(Buffer.concat([PREFACE, frame(FRAME.SETTINGS, 0, 0)]));
        resolve(new RawH2Client(socket));
      });
    });
  }

  /** The frames opening a stream (not written yet); `open` leaves the request side open. */
  request(
    path: string,
    opts: { method?: 'GET' | 'POST'; open?: boolean; headers?: Record<string, string> } = {},
  ): { id: number; frames: Buffer } {
    const id = this.nextStream;
    this.nextStream += 2;
    const flags = END_HEADERS | (opts.open ? 0 : END_STREAM);
    return {
      id,
      frames: frame(FRAME.HEADERS, flags, id, headerBlock(opts.method ?? 'GET', path, opts.headers ?? {})),
    };
  }

  /** The frame resetting a stream (8 is CANCEL, what a client sends when it gives up). */
  reset(id: number, code = 8): Buffer {
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(code, 0);
    return frame(FRAME.RST_STREAM, 0, id, payload);
  }

  /** Body bytes for a stream. */
  data(id: number, bytes: Buffer, end = false): Buffer {
    return frame(FRAME.DATA, end ? END_STREAM : 0, id, bytes);
  }

  send(...frames: Buffer[]): void {
    if (!this.socket.destroyed) this.socket.write(Buffer.concat(frames));
  }

  /**
   * Resolves when the server has answered a PING: it has then read everything sent before it (and
   * what it does after each read, such as forgetting closed streams, has had its turn).
   */
  ping(): Promise<void> {
    return new Promise((resolve) => {
      this.pongs.push(resolve);
      this.send(frame(FRAME.PING, 0, 0, Buffer.alloc(8)));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    while (this.received.length >= 9) {
      const length = this.received.readUIntBE(0, 3);
      if (this.received.length < 9 + length) return;
      const type = this.received[3];
      const flags = this.received[4];
      const stream = this.received.readUInt32BE(5) & 0x7fffffff;
      const payload = this.received.subarray(9, 9 + length);
      this.received = this.received.subarray(9 + length);
      if (type === FRAME.SETTINGS && (flags & ACK) === 0) this.send(frame(FRAME.SETTINGS, ACK, 0));
      else if (type === FRAME.PING && (flags & ACK) === 0) this.send(frame(FRAME.PING, ACK, 0, payload));
      else if (type === FRAME.PING) this.pongs.shift()?.();
      else if (type === FRAME.RST_STREAM) this.resets.set(stream, payload.readUInt32BE(0));
      else if (type === FRAME.HEADERS) this.answered.add(stream);
      else if (type === FRAME.GOAWAY) {
        // The first one says why; a second only confirms the end.
        this.goaway ??= { lastStreamId: payload.readUInt32BE(0) & 0x7fffffff, code: payload.readUInt32BE(4) };
      }
    }
  }
}
