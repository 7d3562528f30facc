// GET /openapi/v2 as upstream's handler answers it (k8s.io/kube-openapi pkg/handler/handler.go, its
// bytes through Go's http.ServeContent and a gzip handler): JSON or gnostic protobuf by Accept, an
// empty 406 when Accept names neither, ETag and Last-Modified on both, 304 for a matching
// If-None-Match (or, without one, an If-Modified-Since not older than the document), gzip for
// clients that accept it. Byte ranges, which ServeContent also serves, are not: clients fetch the
// whole document. This module loads with the routes; the document, its encodings and the protobuf
// encoder load with the first request, as the rest of the OpenAPI generator does.

import type { RequestContext } from '../context.ts';
import { acceptsGzip, sendWarnings } from '../respond.ts';
import { negotiateOpenApiV2, OPENAPI_V2_PROTOBUF } from './v2-negotiation.ts';
import type { OpenApiV2Representations } from './v2-representations.ts';

type Generator = typeof import('./index.ts');
let generator: Promise<Generator> | undefined;

/** Go's gzip handler (github.com/NYTimes/gziphandler) leaves bodies under this size alone. */
const GZIP_MIN_BYTES = 1400;

/** Upstream's API server sets this on every answer (its cache-control filter). */
const CACHE_CONTROL = 'no-cache, private';

/** The entity tags of an If-None-Match list; `*` stands for any. */
function etagsOf(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => (t.startsWith('W/') ? t.slice(2) : t));
}

/** Go's checkIfNoneMatch then checkIfModifiedSince, for GET and HEAD: whether to answer 304. */
function notModified(ctx: RequestContext, reps: OpenApiV2Representations): boolean {
  const inm = ctx.req.headers['if-none-match'];
  if (inm !== undefined && inm.trim() !== '') {
    return etagsOf(inm).some((t) => t === '*' || t === reps.etag);
  }
  const ims = ctx.req.headers['if-modified-since'];
  if (ims === undefined || ims === '') return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(reps.lastModified) <= since;
}

/** Answers GET or HEAD /openapi/v2 with the document `document` resolves to. */
export async function serveOpenApiV2(ctx: RequestContext, document: () => Promise<unknown>): Promise<void> {
  const format = negotiateOpenApiV2(ctx.req.headers.accept);
  // Go's gzip handler adds Accept-Encoding, upstream's handler Accept.
  const vary = 'Accept-Encoding, Accept';
  if (format === undefined) {
    // Upstream writes the status alone, with no Status body, and so does this.
    ctx.res.writeHead(406, { vary, 'cache-control': CACHE_CONTROL, 'content-length': '0' });
    ctx.res.end();
    return;
  }
  const doc = await document();
  generator ??= import('./index.ts');
  const reps = (await generator).openApiV2Representations(doc as object);
  if (ctx.res.headersSent) return;
  sendWarnings(ctx);
  const validators = { etag: reps.etag, vary, 'cache-control': CACHE_CONTROL };
  if (notModified(ctx, reps)) {
    ctx.res.writeHead(304, validators);
    ctx.res.end();
    return;
  }
  const { bytes, gzipped } = format === 'json' ? reps.json : reps.protobuf();
  const zip = bytes.length >= GZIP_MIN_BYTES && acceptsGzip(ctx);
  const sent = zip ? await gzipped() : bytes;
  if (ctx.res.headersSent || ctx.signal.aborted) return;
  const headers: Record<string, string> = {
    ...validators,
    'content-type': format === 'json' ? 'application/json' : OPENAPI_V2_PROTOBUF,
    'last-modified': reps.lastModified,
    'content-length': String(sent.length),
  };
  if (zip) headers['content-encoding'] = 'gzip';
  ctx.res.writeHead(200, headers);
  if (ctx.method === 'HEAD') ctx.res.end();
  else ctx.res.end(sent);
}
