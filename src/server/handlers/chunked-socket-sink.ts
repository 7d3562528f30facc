// An HTTP/1.1 streaming response written as chunks framed here, straight onto its socket. Through
// ServerResponse.write every write becomes three socket writes (size line, data, CRLF), corked
// until the next tick, which the TLS layer then copies into one buffer before encrypting it: per
// gathered watch write, a tick, three stream writes and a second copy of the whole piece. A watch
// writer that frames its piece in the buffer it assembles anyway makes one socket write of one
// buffer. The response still ends through ServerResponse.end, which writes the last chunk.

import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { EventSink } from './watch-writer.ts';

const CRLF = Buffer.from('\r\n');

/**
 * A sink writing chunked pieces to the response's socket, or undefined where that is not safe:
 * HTTP/2 (no chunks; the session frames), a response that is not chunked, one whose headers have
 * not gone out yet, or one that does not own its socket yet (a pipelined response waiting for the
 * one before it has no socket).
 */
export function chunkedSocketSink(res: unknown): EventSink | undefined {
  if (!(res instanceof ServerResponse)) return undefined;
  // Node sets chunkedEncoding once the headers are made; it is not in the typings.
  const chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
  const socket: Socket | null = res.socket;
  if (!chunked || !res.headersSent || socket === null) return undefined;
  return {
    write: (chunk, done) => socket.write(chunk, done),
    once: (event, f) => socket.once(event, f),
    off: (event, f) => socket.off(event, f),
    get writableEnded() {
      return res.writableEnded;
    },
    get destroyed() {
      return res.destroyed || socket.destroyed;
    },
    get writableLength() {
      return socket.writableLength;
    },
    frame: (length) => ({ head: Buffer.from(`${length.toString(16)}\r\n`, 'latin1'), tail: CRLF }),
  };
}
