import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotAcceptableError } from '../codec/negotiation.ts';
import { captureLogs } from '../machinery/logging/index.ts';
import { notFound, serviceUnavailable } from '../machinery/status.ts';
import type { RequestContext } from './context.ts';
import { parseRequestInfo } from './request-info.ts';
import { writeError, writeJson, writeText } from './respond.ts';

/** Just enough of a response to see what was written. */
function fakeContext(method = 'GET', url = '/api/v1/namespaces/a/configmaps/x') {
  const written = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const res = {
    headersSent: false,
    setHeader(k: string, v: unknown) {
      written.headers[k] = v;
    },
    getHeader(k: string) {
      return written.headers[k];
    },
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      Object.assign(written.headers, headers);
      res.headersSent = true;
    },
    end(body?: string) {
      written.body = body ?? '';
    },
  };
  const q = url.indexOf('?');
  const ctx = {
    res,
    method,
    url,
    query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
    info: parseRequestInfo(method, url),
    warnings: [],
  } as unknown as RequestContext;
  return { ctx, written };
}

describe('responses', () => {
  it('errors are Status objects with the catalogue code', () => {
    const { ctx, written } = fakeContext();
    writeError(ctx, notFound({ resource: 'configmaps' }, 'x'));
    assert.equal(written.status, 404);
    const body = JSON.parse(written.body);
    assert.equal(body.kind, 'Status');
    assert.equal(body.reason, 'NotFound');
    assert.equal(body.message, 'configmaps "x" not found');
  });

  it('codec failures become 406 and unknown errors 500, never a crash', () => {
    const a = fakeContext();
    writeError(a.ctx, new NotAcceptableError(['application/json']));
    assert.equal(a.written.status, 406);
    assert.equal(JSON.parse(a.written.body).reason, 'NotAcceptable');
    const b = fakeContext();
    b.written.headers['audit-id'] = 'a-1';
    const logs = captureLogs();
    try {
      writeError(b.ctx, new Error('boom'));
      writeError(fakeContext('PUT').ctx, serviceUnavailable('the store is down'));
    } finally {
      logs.restore();
    }
    assert.equal(b.written.status, 500);
    // Every 5xx leaves a line at the default level, with its error and the request.
    assert.equal(logs.lines.length, 2);
    assert.match(
      logs.lines[0],
      /^E\d{4} .*"Unhandled Error" err="apiserver received an error that is not an metav1\.Status: boom"/,
    );
    assert.match(
      logs.lines[1],
      /^E\d{4} .*"Request failed" err="the store is down" method="PUT" URI="\/api\/v1\/namespaces\/a\/configmaps\/x" auditID="" code=503 reason="ServiceUnavailable"/,
    );
  });

  it('pretty printing, warnings and HEAD without a body', () => {
    const a = fakeContext('GET', '/api/v1/namespaces/a/configmaps/x?pretty=true');
    a.ctx.warnings.push('unknown field "spec.x"');
    writeJson(a.ctx, 200, { a: 1 });
    assert.equal(a.written.body, '{\n  "a": 1\n}\n');
    assert.deepEqual(a.written.headers.warning, ['299 - "unknown field \\"spec.x\\""']);
    const b = fakeContext('HEAD', '/healthz');
    writeText(b.ctx, 200, 'ok');
    assert.equal(b.written.body, '');
  });
});
