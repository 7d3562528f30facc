// Ending a response at once, dropping whatever is still queued for its client. A watch the server
// gives up on belongs to a client that does not read: closed the ordinary way, its connection
// keeps the unsent bytes in the kernel (up to a few MB a socket, sent on until the peer's window
// opens, which it never does) and the client never even sees the close. An HTTP/1.1 connection is
// reset instead (RST: the kernel drops its queue); an HTTP/2 stream is reset (RST_STREAM: its
// queued frames go), leaving the connection's other streams alone.

import { constants, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';

/** The TCP socket under a TLS one: Node keeps it as `_parent`, the only way to reach it. */
function tcpUnder(socket: Socket): Socket | undefined {
  const parent = (socket as Socket & { _parent?: unknown })._parent;
  return parent !== null && typeof parent === 'object' && 'resetAndDestroy' in parent
    ? (parent as Socket)
    : undefined;
}

export function abortResponse(res: unknown): void {
  if (res instanceof Http2ServerResponse) {
    if (!res.stream.destroyed) res.stream.close(constants.NGHTTP2_CANCEL);
    return;
  }
  const { socket } = res as { socket: Socket | null };
  if (socket === null || socket.destroyed) return;
  const tcp = tcpUnder(socket);
  if (tcp !== undefined && !tcp.destroyed) tcp.resetAndDestroy();
  socket.destroy();
}
