// The idle timeout of an HTTP/2 connection: closed (GOAWAY, then the socket) once it has had no
// open stream for `ms`, as Go's server does. Node's own session timeout counts any traffic instead,
// so it would cut a quiet watch and keep a connection that only pings; this one counts streams.

import type { Http2Session, ServerHttp2Stream } from 'node:http2';

export function closeWhenIdle(session: Http2Session, ms: number): void {
  if (ms <= 0) return;
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      if (!session.closed && !session.destroyed) session.close();
    }, ms);
    timer.unref();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    clearTimeout(timer);
    stream.once('close', () => {
      open--;
      if (open === 0) arm();
    });
  });
  session.once('close', () => clearTimeout(timer));
  arm();
}
