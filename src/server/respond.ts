// Writing responses. Every error body goes through writeError, which turns whatever was thrown into
// a Status from the machinery catalogue; nothing else writes an error body.

import { createRequire } from 'node:module';
import { NotAcceptableError, negotiateOutput, UnsupportedMediaTypeError } from '../codec/negotiation.ts';
import type { Serializer } from '../codec/serializers.ts';
import { logFailedStatus, logHandlerFailure } from '../machinery/logging/index.ts';
import { ApiError, notAcceptable, type Status, statusOf, unsupportedMediaType } from '../machinery/status.ts';
import { auditResponse } from './audit/request-audit.ts';
import type { RequestContext } from './context.ts';
import { warningHeaders } from './warnings.ts';

// zlib loads with the first large response: about half a megabyte an idle server need not hold.
const requireBuiltin = createRequire(import.meta.url);
let zlibModule: typeof import('node:zlib') | undefined;
function zlib(): typeof import('node:zlib') {
  zlibModule ??= requireBuiltin('node:zlib') as typeof import('node:zlib');
  return zlibModule;
}

/** Upstream compresses at gzip's fastest level: a list is sent once, and CPU is the scarcer resource. */
const GZIP_LEVEL = 1;

function gzip(body: string | Buffer, done: (err: Error | null, out: Buffer) => void): void {
  zlib().gzip(body, { level: GZIP_LEVEL }, done);
}

/** A gzip stream at upstream's level, for bodies written piece by piece. */
export function gzipStream(): import('node:zlib').Gzip {
  return zlib().createGzip({ level: GZIP_LEVEL });
}

/** Upstream compresses object responses above 128 KiB: below that, gzip costs more than it saves. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/**
 * Whether the client has gone: its HTTP/2 stream was reset or closed, or its HTTP/1.1 connection
 * closed. Work for such a response stops (Http2ServerResponse has no `destroyed`; its stream does).
 */
export function responseGone(res: RequestContext['res']): boolean {
  const r = res as unknown as { destroyed?: boolean; stream?: { destroyed: boolean } };
  return r.destroyed === true || r.stream?.destroyed === true;
}

export function acceptsGzip(ctx: RequestContext): boolean {
  const header = String(ctx.req.headers['accept-encoding'] ?? '');
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    return coding.trim().toLowerCase() === 'gzip' && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

/** Sends an object body, gzipped (off the event loop) when it is large and the client accepts it. */
function sendBody(ctx: RequestContext, status: number, contentType: string, body: string | Buffer): void {
  const headers = { 'content-type': contentType, 'cache-control': 'no-cache, private' };
  if (ctx.method === 'HEAD') {
    ctx.res.writeHead(status, headers);
    ctx.res.end();
    return;
  }
  const limit = ctx.gzipAboveBytes;
  if (limit === undefined || body.length <= limit || !acceptsGzip(ctx)) {
    ctx.res.writeHead(status, headers);
    ctx.res.end(body);
    return;
  }
  gzip(body, (err, zipped) => {
    if (ctx.res.headersSent || responseGone(ctx.res)) return;
    if (err !== null) {
      ctx.res.writeHead(status, headers);
      ctx.res.end(body);
      return;
    }
    ctx.res.writeHead(status, { ...headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    ctx.res.end(zipped);
  });
}

export function sendWarnings(ctx: RequestContext): void {
  if (ctx.warnings.length > 0 && !ctx.res.headersSent) {
    // Bounded as upstream bounds them: a body with 300k unknown fields is not 300k headers.
    ctx.res.setHeader('warning', warningHeaders(ctx.warnings));
  }
}

export function writeText(ctx: RequestContext, status: number, body: string): void {
  if (ctx.res.headersSent || responseGone(ctx.res)) return;
  sendWarnings(ctx);
  ctx.res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache, private',
  });
  if (ctx.method === 'HEAD') ctx.res.end();
  else ctx.res.end(body);
}

export function writeJson(
  ctx: RequestContext,
  status: number,
  value: unknown,
  contentType = 'application/json',
): void {
  // Nobody reads it: encoding a large list for a reset stream is the work a rapid reset costs.
  if (ctx.res.headersSent || responseGone(ctx.res)) return;
  auditResponse(ctx, status, value);
  sendWarnings(ctx);
  const pretty = ctx.query.get('pretty');
  const body =
    pretty === 'true' || pretty === '1'
      ? `${JSON.stringify(value, null, 2)}\n`
      : `${JSON.stringify(value)}\n`;
  sendBody(ctx, status, contentType, body);
}

/** Writes `value` with a negotiated serializer (JSON pretty-printed on `?pretty=true`). */
export function writeEncoded(
  ctx: RequestContext,
  status: number,
  value: unknown,
  serializer: Serializer,
): void {
  if (ctx.res.headersSent || responseGone(ctx.res)) return;
  auditResponse(ctx, status, value);
  sendWarnings(ctx);
  if (serializer.binary) {
    sendBody(ctx, status, serializer.mediaType, serializer.encode(value));
    return;
  }
  const pretty = ctx.query.get('pretty');
  const body = serializer.encode(value, pretty === 'true' || pretty === '1');
  sendBody(ctx, status, serializer.mediaType, body);
}

/** Every 5xx leaves a line with its error, whatever the level: a bug's as a panic, a Status as a failed request. */
function logFailure(ctx: RequestContext, err: unknown, status: Status): void {
  const request = { method: ctx.method, uri: ctx.url, auditID: String(ctx.res.getHeader('audit-id') ?? '') };
  if (err instanceof ApiError) {
    logFailedStatus({
      ...request,
      code: status.code,
      reason: status.reason ?? '',
      message: status.message ?? '',
    });
  } else {
    logHandlerFailure(err, request);
  }
}

/** Codec failures are plain errors below the server; here they become their Status. */
function asApiError(err: unknown): unknown {
  if (err instanceof NotAcceptableError) return notAcceptable(err.accepted);
  if (err instanceof UnsupportedMediaTypeError) return unsupportedMediaType(err.accepted);
  return err;
}

export function writeError(ctx: RequestContext, err: unknown): void {
  const apiError = asApiError(err);
  const status = statusOf(apiError);
  if (responseGone(ctx.res)) return;
  if (status.code >= 500) logFailure(ctx, apiError, status);
  if (ctx.res.headersSent) {
    ctx.res.end();
    return;
  }
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && retry > 0) ctx.res.setHeader('retry-after', String(retry));
  // As upstream, a Status goes out in the encoding the client asked for where the endpoint serves
  // it (a protobuf client gets a protobuf Status), and in JSON when Accept names nothing served.
  if (ctx.codecs !== undefined) {
    let serializer: Serializer | undefined;
    try {
      serializer = negotiateOutput(ctx.req.headers.accept, {
        metaGroups: [],
        tables: false,
        codecs: ctx.codecs,
      }).serializer;
    } catch {
      serializer = undefined;
    }
    if (serializer?.binary === true) {
      writeEncoded(ctx, status.code, status, serializer);
      return;
    }
  }
  writeJson(ctx, status.code, status);
}
