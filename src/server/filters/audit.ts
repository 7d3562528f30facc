// Audit in the chain, as upstream's three filters:
// - auditInit, first of all: every request gets an Audit-ID (the client's own Audit-ID header, as
//   sent, or a new UUID), echoed in the response whether or not audit is on, as upstream does;
//   with audit on, its record starts here so the arrival time is the request's.
// - failedAuthenticationAudit, around authentication: a request refused 401 is recorded at the
//   policy's level (without a user) in one ResponseStarted event, as upstream's
//   WithFailedAuthenticationAudit does.
// - audit, after authentication: the policy decides the level and omitted stages from the user
//   and request info; events follow at RequestReceived, ResponseStarted (long-running requests
//   only, when their headers go out), ResponseComplete, or Panic when the handler throws something
//   that is not an API error (rethrown for recovery to answer 500).

import { randomUUID } from 'node:crypto';
import { ApiError, internalError, statusOf } from '../../machinery/status.ts';
import type { AuditPipeline } from '../audit/pipeline.ts';
import type { RequestAudit } from '../audit/request-audit.ts';
import type { Filter, RequestContext } from '../context.ts';
import { peerCertificateOf } from '../listener.ts';
import { writeError } from '../respond.ts';

const AUDIT_ID_HEADER = 'Audit-Id';

export function auditInit(pipeline: AuditPipeline | undefined): Filter {
  return (ctx, next) => {
    const given = ctx.req.headers['audit-id'];
    let id = typeof given === 'string' && given !== '' ? given : randomUUID();
    try {
      ctx.res.setHeader(AUDIT_ID_HEADER, id);
    } catch {
      // A value Node will not send back (or a stream already gone): a fresh ID is used instead,
      // so that what the client sees and what the events say stay the same.
      id = randomUUID();
      try {
        ctx.res.setHeader(AUDIT_ID_HEADER, id);
      } catch {
        // The stream is gone: nobody reads the header.
      }
    }
    pipeline?.begin(ctx, id);
    return next();
  };
}

/** Upstream's long-running requests: watches, proxies, and the streaming sub-resources. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

function isLongRunning(ctx: RequestContext): boolean {
  const info = ctx.info;
  return (
    LONG_RUNNING_VERBS.has(info.verb) ||
    (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource))
  );
}

/** API errors are answers; anything else thrown is the handler failing (upstream: a panic). */
function isAnswer(err: unknown): boolean {
  if (err instanceof ApiError) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'NotAcceptableError' || name === 'UnsupportedMediaTypeError';
}

function panicMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** ResponseStarted as the headers go out (upstream's decorated response writer). */
function emitWhenHeadersSent(ctx: RequestContext, ra: RequestAudit): void {
  const res = ctx.res;
  const original = res.writeHead;
  let seen = false;
  // One per long-running request: the stage must be emitted at the moment the stream starts.
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof original>) {
    if (!seen) {
      seen = true;
      ra.setResponseCode(args[0]);
      ra.processStage('ResponseStarted');
    }
    return original.apply(this, args);
  } as typeof original;
}

export function audit(pipeline: AuditPipeline | undefined): Filter | undefined {
  if (pipeline === undefined) return undefined;
  return async (ctx, next) => {
    const ra = pipeline.recordOf(ctx);
    if (ra === undefined || !ra.init(pipeline.evaluate(ctx), pipeline) || !ra.enabled) return next();
    ra.logRequestMetadata();
    const received = ra.processStage('RequestReceived');
    if (!(received instanceof Promise ? await received : received)) {
      pipeline.observeRejected();
      throw internalError(new Error('failed to store audit event'));
    }
    const longRunning = isLongRunning(ctx);
    if (longRunning) emitWhenHeadersSent(ctx, ra);
    try {
      await next();
    } catch (err) {
      // A request whose client left (or that the server is stopping) failing is no panic.
      if (!isAnswer(err) && !ctx.signal.aborted) {
        ra.responseStatus = {
          metadata: {},
          status: 'Failure',
          message: `APIServer panic'd: ${panicMessage(err)}`,
          reason: 'InternalError',
          code: 500,
        };
        ra.processStage('Panic');
        throw err;
      }
      // Answered here rather than by recovery, so that the event carries the answer.
      writeError(ctx, err);
    }
    if (ra.responseStatus === undefined && ctx.res.headersSent) ra.setResponseCode(ctx.res.statusCode);
    if (ra.responseStatus === undefined) {
      // Nothing was written: upstream fakes a success, and the ResponseStarted it never sent.
      ra.responseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
      if (longRunning) ra.processStage('ResponseStarted');
    }
    // A blocking webhook holds the request's end until the receiver has answered, as upstream's.
    const complete = ra.processStage('ResponseComplete');
    if (complete instanceof Promise) await complete;
  };
}

/** Upstream's summary of the credentials a refused request offered. */
export function attemptedAuthentication(ctx: RequestContext): string {
  const methods: string[] = [];
  const auth = String(ctx.req.headers.authorization ?? '').trim();
  const scheme = auth.split(' ');
  if (scheme.length > 1 && scheme[0].toLowerCase() === 'basic') methods.push('basic');
  if (scheme.length > 1 && scheme[0].toLowerCase() === 'bearer') methods.push('bearer');
  if ((ctx.query.get('access_token') ?? '').trim() !== '') methods.push('access_token');
  if (peerCertificateOf(ctx.req) !== undefined) methods.push('x509');
  return methods.length > 0
    ? `Authentication failed, attempted: ${methods.join(', ')}`
    : 'Authentication failed, no credentials provided';
}

/** Wraps the authentication filter so that its 401s are audited. */
export function failedAuthenticationAudit(
  authentication: Filter,
  pipeline: AuditPipeline | undefined,
): Filter {
  if (pipeline === undefined) return authentication;
  return async (ctx, next) => {
    let passed = false;
    try {
      await authentication(ctx, () => {
        passed = true;
        return next();
      });
    } catch (err) {
      if (passed || statusOf(err).code !== 401) throw err;
      const ra = pipeline.recordOf(ctx);
      if (ra === undefined || !ra.init(pipeline.evaluate(ctx), pipeline) || !ra.enabled) throw err;
      ra.logRequestMetadata();
      // Replaced by the 401's own Status as it is written, as upstream's writer replaces it.
      ra.responseStatus = { metadata: {}, message: attemptedAuthentication(ctx) };
      writeError(ctx, err);
      if (ctx.res.headersSent || ra.responseStatus.code !== undefined) {
        if (ra.responseStatus.code === undefined) ra.setResponseCode(ctx.res.statusCode);
        ra.processStage('ResponseStarted');
      }
    }
  };
}
