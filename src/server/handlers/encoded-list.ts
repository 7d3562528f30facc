// A JSON list written from the watch cache's bytes: the list's head, then the items' JSON bodies as
// the cache holds them, comma-separated (whole blocks of them come already joined), copied into
// pieces of about a megabyte, waiting for the socket between pieces. Nothing is decoded or encoded
// per item, and memory for the response stays at one piece however long the list. The bytes are
// those JSON.stringify gives for the same list.

import type { Writable } from 'node:stream';
import type { ListObject } from '../../registry/generic-store.ts';
import { type EncodedRun, isJoined } from '../../storage/encoded.ts';
import type { RequestContext } from '../context.ts';
import { acceptsGzip, gzipStream, responseGone, sendWarnings } from '../respond.ts';

/** Bytes gathered before a write: large enough that per-write costs vanish, small enough to stream. */
const PIECE_BYTES = 1 << 20;

const COMMA = 0x2c;

/** Resolves when `out` can take more, or it or the response is gone (a reset stream never drains). */
function drained(out: Writable, res: RequestContext['res']): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      res.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
    out.once('error', done);
    res.once('close', done);
  });
}

/** Thrown inside writeEncodedList when the client has gone: the list is abandoned. */
const GONE = Symbol('gone');

export async function writeEncodedList(
  ctx: RequestContext,
  list: ListObject,
  runs: readonly EncodedRun[],
): Promise<void> {
  if (ctx.res.headersSent || responseGone(ctx.res)) return;
  sendWarnings(ctx);
  const { apiVersion, kind, metadata } = list;
  const head = Buffer.from(`${JSON.stringify({ apiVersion, kind, metadata }).slice(0, -1)},"items":[`);
  const tail = Buffer.from(']}\n');
  let length = head.length + tail.length + Math.max(0, runs.length - 1);
  for (const run of runs) length += isJoined(run) ? run.joined.length : run.bytes;
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'cache-control': 'no-cache, private',
  };
  const limit = ctx.gzipAboveBytes;
  const zipped = limit !== undefined && length > limit && acceptsGzip(ctx);
  if (zipped) {
    headers['content-encoding'] = 'gzip';
    headers.vary = 'Accept-Encoding';
  } else {
    headers['content-length'] = length;
  }
  ctx.res.writeHead(200, headers);
  if (ctx.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  const out: Writable = zipped ? gzipStream() : ctx.res;
  if (zipped) (out as ReturnType<typeof gzipStream>).pipe(ctx.res);
  // A reset stream or closed connection stops the copying at the next piece: nothing more is
  // encoded or compressed for it, and its pieces and compressor are let go at once.
  const gone = () => responseGone(ctx.res) || out.destroyed;
  // Runs are copied into pieces of PIECE_BYTES: a joined run spans as many as it needs, an item
  // larger than a piece gets one of its own size.
  let piece = takePiece(head.length);
  let used = head.copy(piece, 0);
  const send = async () => {
    if (gone()) throw GONE;
    const full = piece;
    const chunk = full.subarray(0, used);
    piece = takePiece(0);
    used = 0;
    // The piece is reused once the socket is done with it.
    if (!out.write(chunk, () => givePiece(full))) await drained(out, ctx.res);
    if (gone()) throw GONE;
  };
  try {
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i];
      if (i > 0) {
        if (used === piece.length) await send();
        piece[used++] = COMMA;
      }
      if (isJoined(run)) {
        const { joined } = run;
        for (let from = 0; from < joined.length; ) {
          if (used === piece.length) await send();
          const n = joined.copy(piece, used, from);
          used += n;
          from += n;
        }
        continue;
      }
      if (used + run.bytes > piece.length) {
        if (used > 0) await send();
        if (run.bytes > piece.length) piece = Buffer.allocUnsafe(run.bytes);
      }
      used += run.copyTo(piece, used);
    }
    if (used + tail.length > piece.length) await send();
    used += tail.copy(piece, used);
    await send();
    givePiece(piece);
    out.end();
  } catch (err) {
    if (err !== GONE) throw err;
    givePiece(piece);
    if (zipped) out.destroy();
  }
}

/**
 * Pieces the socket has finished with, for the next ones: a 140 MB list then costs a few pieces
 * of memory instead of 140 MB of garbage that stays resident until the next full collection.
 */
const freePieces: Buffer[] = [];
const MAX_FREE_PIECES = 8;

function takePiece(atLeast: number): Buffer {
  if (atLeast > PIECE_BYTES) return Buffer.allocUnsafe(atLeast);
  return freePieces.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
}

function givePiece(piece: Buffer): void {
  if (piece.length === PIECE_BYTES && freePieces.length < MAX_FREE_PIECES) freePieces.push(piece);
}

/** Whether a list can be written from cached bytes: plain JSON, not pretty-printed, cache-served. */
export function canWriteEncoded(
  ctx: RequestContext,
  list: ListObject,
): list is ListObject & {
  runs: readonly EncodedRun[];
} {
  const pretty = ctx.query.get('pretty');
  return list.runs !== undefined && pretty !== 'true' && pretty !== '1';
}
