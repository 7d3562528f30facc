// Everything a request carries through the filter chain. Filters fill it in order (request info,
// then the user, ...); handlers read it. One object per request, passed explicitly.

import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { UserInfo } from '../auth/authn/types.ts';
import type { CodecSet } from '../codec/negotiation.ts';
import type { RequestAudit } from './audit/request-audit.ts';
import type { RequestInfo } from './request-info.ts';

export interface RequestContext {
  req: Http2ServerRequest;
  res: Http2ServerResponse;
  method: string;
  /** Path and query as sent. */
  url: string;
  query: URLSearchParams;
  info: RequestInfo;
  user?: UserInfo;
  /** Warning header values collected while handling; sent with the response. */
  warnings: string[];
  /** Aborted when the client goes away or the request times out. */
  signal: AbortSignal;
  /** Gzip response bodies above this many bytes for clients that accept it (APIResponseCompression). */
  gzipAboveBytes?: number;
  /** The encodings an error body may take (those of the endpoint); JSON alone when absent. */
  codecs?: CodecSet;
  /** Bytes of the request body once read (readBody): large bodies pace their work (breathe.ts). */
  bodyBytes?: number;
  /**
   * Annotations for the request's audit events (the authorization decision, a deprecated API,
   * admission's); set through addAuditAnnotation, whether or not audit is on.
   */
  auditAnnotations?: Record<string, string>;
  /** The request's audit record while audit is on for it (audit/request-audit.ts). */
  audit?: RequestAudit;
}

/** Records an annotation for the request's audit events; the first value for a key stays, as upstream keeps it. */
export function addAuditAnnotation(ctx: RequestContext, key: string, value: string): void {
  ctx.auditAnnotations ??= {};
  if (!(key in ctx.auditAnnotations)) ctx.auditAnnotations[key] = value;
}

/** One step of the chain: do something, then call `next` to continue (or answer and stop). */
export type Filter = (ctx: RequestContext, next: () => Promise<void>) => Promise<void>;
export type Handler = (ctx: RequestContext) => Promise<void>;

/** Runs `filters` in order, ending in `handler`. */
export function compose(filters: Filter[], handler: Handler): Handler {
  return (ctx) => {
    const step = (i: number): Promise<void> =>
      i === filters.length ? handler(ctx) : filters[i](ctx, () => step(i + 1));
    return step(0);
  };
}
