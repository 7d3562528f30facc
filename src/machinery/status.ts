// The Status error catalogue. Every error the server answers with is built here, with upstream's
// code, reason, message and details, and the key order and omitted-when-empty fields of upstream's
// JSON, so that clients which compare messages or switch on reasons behave as against upstream.

import { aggregateMessage, type FieldError, goQuote, toCauses } from './field-errors.ts';

export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

/** Cause types beyond the field error types. */
export const CAUSE_UNEXPECTED_SERVER_RESPONSE = 'UnexpectedServerResponse';
export const CAUSE_FIELD_MANAGER_CONFLICT = 'FieldManagerConflict';
export const CAUSE_RESOURCE_VERSION_TOO_LARGE = 'ResourceVersionTooLarge';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** For most errors this is the resource (`configmaps`), not the kind, as upstream does. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  /** Absent when empty, as upstream's JSON omits it. */
  message?: string;
  /** Absent for the unknown reason. */
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A Success status as a delete answers it; upstream leaves its code out. */
export type SuccessStatus = Omit<Status, 'code' | 'status'> & { status: 'Success'; code?: number };

export interface GroupResource {
  group?: string;
  resource: string;
}

export interface GroupKind {
  group?: string;
  kind: string;
}

/** `deployments.apps`, or `configmaps` for the core group. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** `Deployment.apps`, or `ConfigMap` for the core group. */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** An error that carries the Status the server answers with. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(readonly status: Status) {
    super(status.message ?? '');
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason | '' {
    return this.status.reason ?? '';
  }
}

type DetailsInput = StatusDetails;

// Builds details in upstream's key order, leaving out what upstream's omitempty leaves out. A
// details object itself is kept even when empty: upstream sends `"details":{}` in those cases.
function details(d: DetailsInput): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes !== undefined && d.causes.length > 0) out.causes = d.causes.map(cause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = Math.trunc(d.retryAfterSeconds);
  return out;
}

function cause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

function failure(code: number, reason: StatusReason | '', message: string, d?: DetailsInput): ApiError {
  const s: Partial<Status> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) s.message = message;
  if (reason) s.reason = reason;
  if (d !== undefined) s.details = details(d);
  s.code = code;
  return new ApiError(s as Status);
}

function grDetails(gr: GroupResource, name?: string): DetailsInput {
  return { name, group: gr.group, kind: gr.resource };
}

function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return String(cause);
}

// ---------------------------------------------------------------------------------------------
// Constructors (upstream's New* functions)

/** 404 NotFound: `configmaps "foo" not found`. */
export function notFound(gr: GroupResource, name: string): ApiError {
  return failure(
    404,
    'NotFound',
    `${groupResourceString(gr)} ${goQuote(name)} not found`,
    grDetails(gr, name),
  );
}

/** 409 AlreadyExists: `configmaps "foo" already exists`. */
export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return failure(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${goQuote(name)} already exists`,
    grDetails(gr, name),
  );
}

/** 409 AlreadyExists for a generated name that collided. */
export function generateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): ApiError {
  return failure(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
    { ...grDetails(gr, name), retryAfterSeconds },
  );
}

/** 401 Unauthorized; `not authorized` when no reason is given. */
export function unauthorized(reason = ''): ApiError {
  return failure(401, 'Unauthorized', reason || 'not authorized');
}

/**
 * 403 Forbidden: `configmaps "foo" is forbidden: <reason>`, `configmaps is forbidden: <reason>`
 * without a name, `forbidden: <reason>` without a resource.
 */
export function forbidden(gr: GroupResource, name: string, reason: string | Error): ApiError {
  const why = messageOf(reason);
  let message: string;
  if (!gr.resource && !gr.group) message = `forbidden: ${why}`;
  else if (!name) message = `${groupResourceString(gr)} is forbidden: ${why}`;
  else message = `${groupResourceString(gr)} ${goQuote(name)} is forbidden: ${why}`;
  return failure(403, 'Forbidden', message, grDetails(gr, name));
}

/** What an authorizer was asked; the subset the denial message names. */
export interface AuthorizationAttributes {
  user: string;
  verb: string;
  resourceRequest: boolean;
  /** Request path, for non-resource requests. */
  path?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/**
 * The authorization denial sentence: `User "x" cannot list resource "configmaps" in API group ""
 * in the namespace "ns"`, `... at the cluster scope`, or `User "x" cannot get path "/healthz"`.
 */
export function authorizationDeniedMessage(a: AuthorizationAttributes): string {
  if (!a.resourceRequest) return `User ${goQuote(a.user)} cannot ${a.verb} path ${goQuote(a.path ?? '')}`;
  const resource = a.subresource ? `${a.resource ?? ''}/${a.subresource}` : (a.resource ?? '');
  const head = `User ${goQuote(a.user)} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup ?? '')}`;
  return a.namespace ? `${head} in the namespace ${goQuote(a.namespace)}` : `${head} at the cluster scope`;
}

/** 403 for a request the authorizers denied, with the authorizer's reason appended when there is one. */
export function forbiddenByAuthorization(a: AuthorizationAttributes, reason = ''): ApiError {
  // Upstream keeps HTML-looking text out of the sentence (the reason is left as it is).
  const sentence = authorizationDeniedMessage(a).replace(
    /[&<>]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c,
  );
  const why = reason ? `${sentence}: ${reason}` : sentence;
  return forbidden({ group: a.apiGroup, resource: a.resource ?? '' }, a.name ?? '', why);
}

/** The cause of a Conflict after a stale resourceVersion. */
export const OPTIMISTIC_LOCK_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on configmaps "foo": <cause>`. */
export function conflict(gr: GroupResource, name: string, cause: string | Error): ApiError {
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${messageOf(cause)}`,
    grDetails(gr, name),
  );
}

/** 409 Conflict from server-side apply, with one cause per conflicting field. */
export function applyConflict(causes: StatusCause[], message: string): ApiError {
  return failure(409, 'Conflict', message, { causes });
}

/** 410 Gone (deprecated upstream in favour of resourceExpired, still used by a few paths). */
export function gone(message: string): ApiError {
  return failure(410, 'Gone', message);
}

/** 410 Expired: a resourceVersion or continue token that is no longer available. */
export function resourceExpired(message: string): ApiError {
  return failure(410, 'Expired', message);
}

/** 422 Invalid: `ConfigMap "foo" is invalid: <errors>` with one cause per field error. */
export function invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): ApiError {
  const agg = aggregateMessage(errs);
  const head = `${groupKindString(gk)} ${goQuote(name)} is invalid`;
  return failure(422, 'Invalid', agg ? `${head}: ${agg}` : head, {
    name,
    group: gk.group,
    kind: gk.kind,
    causes: toCauses(errs),
  });
}

/** 400 BadRequest with the reason as the message. */
export function badRequest(reason: string): ApiError {
  return failure(400, 'BadRequest', reason);
}

/** 429 TooManyRequests with a retry delay (upstream's NewTooManyRequests). */
export function tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/** 429 `Too many requests: <message>` without details (upstream's NewTooManyRequestsError). */
export function tooManyRequestsError(message: string): ApiError {
  return failure(429, 'TooManyRequests', `Too many requests: ${message}`);
}

/** 503 ServiceUnavailable with the reason as the message. */
export function serviceUnavailable(reason: string): ApiError {
  return failure(503, 'ServiceUnavailable', reason);
}

export const METHOD_NOT_ALLOWED_MESSAGE = 'the server does not allow this method on the requested resource';

/**
 * 405 MethodNotAllowed. With an action: `create is not supported on resources of kind
 * "configmaps"` (upstream's NewMethodNotSupported); without: the generic sentence clients print.
 */
export function methodNotSupported(gr?: GroupResource, action?: string): ApiError {
  if (gr === undefined || action === undefined)
    return failure(405, 'MethodNotAllowed', METHOD_NOT_ALLOWED_MESSAGE);
  return failure(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind ${goQuote(groupResourceString(gr))}`,
    { group: gr.group, kind: gr.resource },
  );
}

/** 406: `only the following media types are accepted: a, b`. */
export function notAcceptable(accepted: readonly string[]): ApiError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 406 for a representation (Table) that cannot be produced in the asked-for media type. */
export function notAcceptableConversion(target: string, accepted: readonly string[]): ApiError {
  return failure(
    406,
    'NotAcceptable',
    `only the following media types are accepted when converting to ${target}: ${accepted.join(', ')}`,
  );
}

/** 415: `the body of the request was in an unknown format - accepted media types include: a, b`. */
export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 413: `Request entity too large: <message>`. */
export function requestEntityTooLarge(message: string): ApiError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/**
 * 500 ServerTimeout (a transient storage failure; clients retry): `The get operation against
 * configmaps could not be completed at this time, please try again.`
 */
export function serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): ApiError {
  return failure(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    { name: operation, group: gr.group, kind: gr.resource, retryAfterSeconds },
  );
}

/** 500 InternalError: `Internal error occurred: <message>`, the message also as the only cause. */
export function internalError(err: unknown): ApiError {
  const msg = messageOf(err);
  return failure(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

/** 504 Timeout: `Timeout: <message>`. */
export function timeout(message: string, retryAfterSeconds = 0): ApiError {
  return failure(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
}

/**
 * 504 for a read at a resourceVersion the store has not reached yet: `Timeout: Too large resource
 * version: 12, current: 7`, with a ResourceVersionTooLarge cause and a one-second retry.
 */
export function tooLargeResourceVersion(
  requested: number | bigint | string,
  current: number | bigint | string,
  retryAfterSeconds = 1,
): ApiError {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: CAUSE_RESOURCE_VERSION_TOO_LARGE, message: 'Too large resource version' }],
    retryAfterSeconds,
  });
}

/** Whether the error is the too-large-resourceVersion timeout. */
export function isTooLargeResourceVersion(err: unknown): boolean {
  return (
    reasonOf(err) === 'Timeout' &&
    (err as ApiError).status.details?.causes?.some((c) => c.reason === CAUSE_RESOURCE_VERSION_TOO_LARGE) ===
      true
  );
}

const GENERIC_MESSAGES: Record<number, [StatusReason, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', METHOD_NOT_ALLOWED_MESSAGE],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
};

/**
 * A Status for a response that carried none (upstream's NewGenericServerResponse): used where
 * another server's plain answer (a webhook, an aggregated server) must be passed on.
 */
export function genericServerResponse(
  code: number,
  verb: string,
  gr: GroupResource | undefined,
  name: string,
  serverMessage: string,
  retryAfterSeconds = 0,
  unexpected = false,
): ApiError {
  let reason: StatusReason | '' = '';
  let message = `the server responded with the status code ${code} but did not return more information`;
  const known = GENERIC_MESSAGES[code];
  if (known !== undefined) {
    [reason, message] = known;
  } else if (code === 409) {
    reason = verb === 'POST' ? 'AlreadyExists' : 'Conflict';
    message = 'the server reported a conflict';
  } else if (code === 403) {
    reason = 'Forbidden';
    message = serverMessage;
  } else if (code === 406) {
    reason = 'NotAcceptable';
    message =
      serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
  } else if (code === 415) {
    reason = 'UnsupportedMediaType';
    message = serverMessage;
  } else if (code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
  }
  const hasResource = gr !== undefined && (gr.resource !== '' || (gr.group ?? '') !== '');
  if (hasResource && name) message = `${message} (${verb.toLowerCase()} ${groupResourceString(gr)} ${name})`;
  else if (hasResource) message = `${message} (${verb.toLowerCase()} ${groupResourceString(gr)})`;
  return failure(code, reason, message, {
    name,
    group: gr?.group,
    kind: gr?.resource,
    causes: unexpected ? [{ reason: CAUSE_UNEXPECTED_SERVER_RESPONSE, message: serverMessage }] : undefined,
    retryAfterSeconds,
  });
}

/** The Success status a delete answers with when it does not return the object. */
export function successStatus(
  d: { name?: string; group?: string; kind?: string; uid?: string },
  code?: number,
): SuccessStatus {
  const s: SuccessStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: details(d),
  };
  if (code !== undefined) s.code = code;
  return s;
}

/** An ApiError from a Status received from elsewhere (a webhook, a stored response). */
export function fromStatus(s: Partial<Status>): ApiError {
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: s.status === 'Success' ? 'Success' : 'Failure',
    ...(s.message ? { message: s.message } : {}),
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.details !== undefined ? { details: s.details } : {}),
    code: s.code || (s.status === 'Success' ? 200 : 500),
  });
}

// ---------------------------------------------------------------------------------------------
// Inspection

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** The reason of an ApiError, '' (upstream's unknown reason) for anything else. */
export function reasonOf(err: unknown): StatusReason | '' {
  return err instanceof ApiError ? err.reason : '';
}

/** The code of an ApiError, 0 for anything else. */
export function codeOf(err: unknown): number {
  return err instanceof ApiError ? err.code : 0;
}

/**
 * The Status to answer with for anything thrown. An ApiError answers with its own; anything else
 * is an internal error whose message is the thrown value's message (never its stack).
 */
export function statusOf(err: unknown): Status {
  if (err instanceof ApiError) return err.status;
  return internalError(err).status;
}

export function isNotFound(err: unknown): boolean {
  return reasonOf(err) === 'NotFound';
}

export function isAlreadyExists(err: unknown): boolean {
  return reasonOf(err) === 'AlreadyExists';
}

export function isConflict(err: unknown): boolean {
  return reasonOf(err) === 'Conflict';
}

export function isInvalid(err: unknown): boolean {
  return reasonOf(err) === 'Invalid';
}
