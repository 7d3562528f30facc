// The API server's request and failure lines, as upstream's apiserver 1.35 writes them. Every request
// is one `"HTTP"` line at V(3) when it ends (a watch when it closes), whatever its status: a 5xx
// is not logged at a lower level by this line; at V(3) upstream adds the error body it wrote
// (`addedInfo`). Below V(3) upstream does not even wrap the request, so the check comes first and
// costs one comparison. Failures are logged at any level by their own lines: an error that is
// not a Status ("Unhandled Error", logger UnhandledError) and a handler that panicked ("Observed a
// panic" with its stack, then "apiserver panic'd" naming the request); logHandlerFailure picks
// between the two for an error that became a 500.

import { goDuration } from './encode.ts';
import { loggerFor } from './logger.ts';

/** httplog's withLoggingLevel. */
export const REQUEST_LOG_LEVEL = 3;

const httplog = loggerFor('server/httplog');
const runtime = loggerFor('util/runtime');
const filters = loggerFor('server/filters');

/** Whether request lines are on: guard the building of RequestLogFields with it on hot paths. */
export function requestLogEnabled(): boolean {
  return httplog.enabled(REQUEST_LOG_LEVEL);
}

export interface RequestLogFields {
  /** Upstream's normalized verb: the method upper-cased, GET as LIST or WATCH, PATCH as APPLY. */
  verb: string;
  /** The request URI as the client sent it, query included. */
  uri: string;
  /** From receipt to the end of the response. */
  latencyMs: number;
  userAgent: string;
  /** The request's audit ID (cut to 64 characters here, as upstream logs it). */
  auditID: string;
  /** The client's `ip:port`, as Go's RemoteAddr. */
  srcIP: string;
  /** The status written; absent when the connection was upgraded (logged as hijacked=true). */
  status?: number;
  /** Extra pairs upstream's filters add (apf_pl, apf_fs, ...), before the status. */
  added?: Readonly<Record<string, unknown>>;
  /** For a status < 200 or >= 500 (not 101): the body written, logged as upstream's addedInfo. */
  errorOutput?: string;
}

const MAX_AUDIT_ID_LOG_LENGTH = 64;

/** Go's RemoteAddr for a socket's address and port: `127.0.0.1:54321`, `[::1]:54321`. */
export function remoteAddr(ip: string | undefined, port: number | undefined): string {
  const host = ip ?? '';
  return `${host.includes(':') ? `[${host}]` : host}:${port ?? 0}`;
}

/** The `"HTTP"` line of one finished request at V(3); nothing (one comparison) below that. */
export function logRequest(f: RequestLogFields): void {
  const v = httplog.v(REQUEST_LOG_LEVEL);
  if (!v.enabled) return;
  const kv: Record<string, unknown> = {
    verb: f.verb,
    URI: f.uri,
    latency: goDuration(f.latencyMs),
    userAgent: f.userAgent,
    'audit-ID':
      f.auditID.length > MAX_AUDIT_ID_LOG_LENGTH ? f.auditID.slice(0, MAX_AUDIT_ID_LOG_LENGTH) : f.auditID,
    srcIP: f.srcIP,
    ...f.added,
  };
  if (f.status === undefined) kv.hijacked = true;
  else {
    kv.resp = f.status;
    const failed = (f.status < 200 || f.status >= 500) && f.status !== 101;
    if (failed && f.errorOutput !== undefined) {
      kv.addedInfo = `logging error output: ${JSON.stringify(f.errorOutput)}\n`;
    }
  }
  v.info('HTTP', kv);
}

/**
 * An error a handler returned that is not a Status (it became a 500): upstream's HandleError of
 * "apiserver received an error that is not an metav1.Status", logged at any level.
 */
export function logServerError(err: unknown): void {
  const text = err instanceof Error ? err.message : String(err);
  runtime
    .withName('UnhandledError')
    .error(new Error(`apiserver received an error that is not an metav1.Status: ${text}`), 'Unhandled Error');
}

export interface PanicFields {
  method: string;
  uri: string;
  auditID: string;
}

/** A handler that threw past every error path (upstream: a panic): the value and stack, then the request. */
export function logPanic(thrown: unknown, req: PanicFields): void {
  const value = thrown instanceof Error ? thrown.message : String(thrown);
  const stack = thrown instanceof Error && thrown.stack !== undefined ? thrown.stack : '';
  runtime.error(undefined, 'Observed a panic', { panic: value, stacktrace: stack });
  const auditID = req.auditID.slice(0, MAX_AUDIT_ID_LOG_LENGTH);
  filters.error(undefined, "apiserver panic'd", { method: req.method, URI: req.uri, auditID });
}

export interface FailedStatusFields extends PanicFields {
  code: number;
  reason: string;
  message: string;
}

/**
 * A request answered with a 5xx Status (storage unavailable, a timeout, an internal error): one
 * line at any level naming the request and the error. Upstream logs such answers only in the
 * V(3) request line; an operator at the default level would see nothing of a failing store, so
 * this line is ours.
 */
export function logFailedStatus(f: FailedStatusFields): void {
  httplog.error(new Error(f.message), 'Request failed', {
    method: f.method,
    URI: f.uri,
    auditID: f.auditID.slice(0, MAX_AUDIT_ID_LOG_LENGTH),
    code: f.code,
    reason: f.reason,
  });
}

/** JavaScript's equivalents of a Go runtime panic: errors only a bug throws. */
function isProgrammerError(err: unknown): boolean {
  return (
    err instanceof TypeError ||
    err instanceof ReferenceError ||
    err instanceof RangeError ||
    err instanceof SyntaxError
  );
}

/**
 * One call for any error that became a 500 without being a Status: a bug's error (TypeError and
 * kin) is logged as upstream logs a panic, anything else as upstream's "Unhandled Error".
 */
export function logHandlerFailure(err: unknown, req: PanicFields): void {
  if (isProgrammerError(err)) logPanic(err, req);
  else logServerError(err);
}
