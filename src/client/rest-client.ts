// The REST client: requests to the API over the transport, bodies through the client codec, and
// answers turned into objects or into machinery's ApiError carrying the server's Status. A failure
// answered without a Status gets one built as client-go builds it ("the server could not find the
// requested resource"). 429s and 5xxs that carry Retry-After are retried after it, up to ten times,
// as client-go does. `resource()` gives the ResourceClient for one resource (resource-client.ts).

import type { IncomingHttpHeaders } from 'node:http2';
import type { SchemaLookup } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { ApiError, type GroupResource, genericServerResponse, type Status } from '../machinery/status.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { ApiClient, Clock, CredentialSource, GroupVersionResource, ResourceClient } from './api.ts';
import { ClientCodec } from './client-codec.ts';
import { type ClientRateLimiter, rateLimiterFor } from './rate-limiter.ts';
import { HttpResourceClient } from './resource-client.ts';
import { Transport, type TransportOptions } from './transport.ts';
import { decodeWatch, type HttpWatchStream } from './watch-stream.ts';
import { realClock } from './work-queue/clock.ts';

export interface RestClientOptions extends Omit<TransportOptions, 'rateLimiter' | 'credentials'> {
  credentials?: CredentialSource;
  /** Requests per second and burst (ClientConnectionConfiguration): 0 is 5 and 10; qps < 0 no limit. */
  qps?: number;
  burst?: number;
  /** Replaces the limiter qps and burst would make. */
  rateLimiter?: ClientRateLimiter;
  contentType?: string;
  acceptContentTypes?: string;
  protobufSchemas?: SchemaLookup;
  /** Decides the protobuf media type's schemas' group names (default the spec profile). */
  profile?: NamingProfile;
  /** The namespace of the configuration's context, for callers that want one. */
  namespace?: string;
  /** Called with each server warning (the Warning header's text); default: dropped. */
  warningHandler?: (message: string) => void;
  /** Retries of a 429/5xx answered with Retry-After (client-go: 10). */
  maxRetries?: number;
  clock?: Clock;
}

export interface RestRequest {
  method: string;
  /** Path from the server root (`/api/v1/namespaces/default/pods`). */
  path: string;
  query?: URLSearchParams;
  /** An object to encode with the client's content type. */
  body?: unknown;
  /** A body already encoded, with its content type (patches). */
  rawBody?: { data: string | Buffer; contentType: string };
  signal?: AbortSignal;
  /** For error messages built when the server sends no Status. */
  groupResource?: GroupResource;
  name?: string;
  /** Accept header override (discovery). */
  accept?: string;
}

export interface RestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Warning headers' texts: `299 - "text"` (quoted-string escapes undone). */
export function parseWarnings(h: IncomingHttpHeaders): string[] {
  const raw = h.warning;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const v of values) {
    for (const m of v.matchAll(/(\d{3}) \S+ "((?:[^"\\]|\\.)*)"/g))
      out.push((m[2] as string).replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** client-go's cap on the text of a non-Status error body it quotes. */
const MAX_QUOTED_BODY = 2048;

export class RestClient implements ApiClient {
  readonly transport: Transport;
  readonly codec: ClientCodec;
  readonly namespace: string;
  private readonly clock: Clock;

  constructor(readonly options: RestClientOptions) {
    this.clock = options.clock ?? realClock;
    this.transport = new Transport({
      ...options,
      rateLimiter: options.rateLimiter ?? rateLimiterFor(options.qps, options.burst, this.clock),
    });
    this.codec = new ClientCodec(options);
    this.namespace = options.namespace ?? 'default';
  }

  resource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    namespace?: string,
  ): ResourceClient<T> {
    return new HttpResourceClient<T>(this, gvr, namespace);
  }

  /** Closes the connections; the client is unusable afterwards. */
  close(): void {
    this.transport.close();
  }

  private target(req: RestRequest): string {
    const q = req.query?.toString() ?? '';
    return q === '' ? req.path : `${req.path}?${q}`;
  }

  private async encoded(req: RestRequest): Promise<{ data?: string | Buffer; contentType?: string }> {
    if (req.rawBody !== undefined) return req.rawBody;
    if (req.body === undefined) return {};
    const { body, contentType } = await this.codec.encode(req.body);
    return { data: body, contentType };
  }

  /** Sends a request; resolves with any 2xx answer, rejects with an ApiError for the rest. */
  async send(req: RestRequest): Promise<RestResponse> {
    const { data, contentType } = await this.encoded(req);
    const headers: Record<string, string> = { accept: req.accept ?? this.codec.accept };
    if (contentType !== undefined) headers['content-type'] = contentType;
    const maxRetries = this.options.maxRetries ?? 10;
    for (let attempt = 0; ; attempt++) {
      const res = await this.transport.request({
        method: req.method,
        path: this.target(req),
        headers,
        body: data,
        signal: req.signal,
      });
      this.warn(res.headers);
      if (res.status >= 200 && res.status < 300) return res;
      const wait = retryAfterSeconds(res.status, res.headers);
      if (wait !== undefined && attempt < maxRetries) {
        await this.sleep(wait * 1000, req.signal);
        continue;
      }
      throw await this.error(req, res.status, res.headers, res.body);
    }
  }

  /** Sends a request and decodes the answer's object. */
  async call<T = unknown>(req: RestRequest): Promise<T> {
    const res = await this.send(req);
    return (await this.codec.decode(res.body, header(res.headers, 'content-type'))) as T;
  }

  /** Opens a watch: resolves once the server has answered 200, with the stream of its events. */
  async watch<T extends ApiObject>(req: RestRequest): Promise<HttpWatchStream<T>> {
    const target = this.target(req);
    const res = await this.transport.stream({
      method: 'GET',
      path: target,
      headers: { accept: req.accept ?? this.codec.accept },
      signal: req.signal,
    });
    this.warn(res.headers);
    if (res.status !== 200) {
      const chunks: Buffer[] = [];
      try {
        for await (const c of res.body) chunks.push(c);
      } finally {
        res.close();
      }
      throw await this.error(req, res.status, res.headers, Buffer.concat(chunks));
    }
    return decodeWatch<T>(res, header(res.headers, 'content-type'), this.codec, req.signal);
  }

  private warn(headers: IncomingHttpHeaders): void {
    const handler = this.options.warningHandler;
    if (handler !== undefined && headers.warning !== undefined)
      for (const w of parseWarnings(headers)) handler(w);
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        timer.cancel();
        reject(signal?.reason);
      };
      const timer = this.clock.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The server's Status as an ApiError, or one built from the code when the body holds none. */
  async error(req: RestRequest, code: number, headers: IncomingHttpHeaders, body: Buffer): Promise<ApiError> {
    const contentType = header(headers, 'content-type');
    try {
      const decoded = (await this.codec.decode(body, contentType)) as Partial<Status> | undefined;
      if (decoded?.kind === 'Status' && (decoded.apiVersion ?? 'v1') === 'v1') {
        return new ApiError({
          ...decoded,
          kind: 'Status',
          apiVersion: 'v1',
          metadata: decoded.metadata ?? {},
          status: 'Failure',
          code: decoded.code || code,
        } as Status);
      }
    } catch {
      // Not a Status: built below from the code, as client-go does.
    }
    const text = /^text\//i.test(contentType ?? '')
      ? body.subarray(0, MAX_QUOTED_BODY).toString('utf8').trim()
      : '';
    return genericServerResponse(
      code,
      req.method,
      req.groupResource,
      req.name ?? '',
      text,
      retryAfterSeconds(code, headers) ?? 0,
      true,
    );
  }
}

/** A 429 or 5xx's Retry-After in whole seconds, when it has one (client-go's checkWait). */
function retryAfterSeconds(code: number, headers: IncomingHttpHeaders): number | undefined {
  if (code !== 429 && code < 500) return undefined;
  const v = header(headers, 'retry-after');
  if (v === undefined || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v);
}
