// The request line at V(3) only, its fields in upstream's order, and the failure lines at any level.

process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  captureLogs,
  logHandlerFailure,
  logPanic,
  logRequest,
  logServerError,
  remoteAddr,
  requestLogEnabled,
} from './index.ts';

const NOW = Date.UTC(2026, 10, 26, 17, 5, 0) + 123.456;
const HEAD = 'I1126 17:05:00.123456      42 httplog:0]';

const FIELDS = {
  verb: 'LIST',
  uri: '/api/v1/namespaces?limit=500',
  latencyMs: 1.234567,
  userAgent: 'kubectl/v1.35.0 (linux/amd64)',
  auditID: 'a1b2',
  srcIP: '127.0.0.1:54321',
  status: 200,
};

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function capture(verbosity: number, format: 'text' | 'json' = 'text'): string[] {
  const c = captureLogs({ verbosity, format, now: () => NOW, pid: 42 });
  restore = c.restore;
  return c.lines;
}

describe('logRequest', () => {
  it('writes nothing below -v=3', () => {
    const lines = capture(2);
    assert.equal(requestLogEnabled(), false);
    logRequest(FIELDS);
    logRequest({ ...FIELDS, status: 500, errorOutput: 'boom' });
    assert.deepEqual(lines, []);
  });

  it('at -v=3 writes the "HTTP" line with upstream keys in order', () => {
    const lines = capture(3);
    assert.equal(requestLogEnabled(), true);
    logRequest(FIELDS);
    logRequest({
      ...FIELDS,
      verb: 'GET',
      uri: '/livez',
      status: 500,
      added: { apf_pl: 'exempt' },
      errorOutput: '{"kind":"Status"}',
    });
    logRequest({ ...FIELDS, verb: 'WATCH', status: undefined, auditID: 'x'.repeat(70) });
    assert.deepEqual(lines, [
      `${HEAD} "HTTP" verb="LIST" URI="/api/v1/namespaces?limit=500" latency="1.234567ms" userAgent="kubectl/v1.35.0 (linux/amd64)" audit-ID="a1b2" srcIP="127.0.0.1:54321" resp=200\n`,
      `${HEAD} "HTTP" verb="GET" URI="/livez" latency="1.234567ms" userAgent="kubectl/v1.35.0 (linux/amd64)" audit-ID="a1b2" srcIP="127.0.0.1:54321" apf_pl="exempt" resp=500 addedInfo=<\n\tlogging error output: "{\\"kind\\":\\"Status\\"}"\n >\n`,
      `${HEAD} "HTTP" verb="WATCH" URI="/api/v1/namespaces?limit=500" latency="1.234567ms" userAgent="kubectl/v1.35.0 (linux/amd64)" audit-ID="${'x'.repeat(64)}" srcIP="127.0.0.1:54321" hijacked=true\n`,
    ]);
  });

  it("spells srcIP as Go's RemoteAddr", () => {
    assert.equal(remoteAddr('127.0.0.1', 54321), '127.0.0.1:54321');
    assert.equal(remoteAddr('::1', 443), '[::1]:443');
  });

  it('in JSON', () => {
    const lines = capture(3, 'json');
    logRequest(FIELDS);
    assert.deepEqual(lines, [
      '{"ts":1795712700123.456,"caller":"server/httplog:0","msg":"HTTP","v":3,"verb":"LIST","URI":"/api/v1/namespaces?limit=500","latency":"1.234567ms","userAgent":"kubectl/v1.35.0 (linux/amd64)","audit-ID":"a1b2","srcIP":"127.0.0.1:54321","resp":200}\n',
    ]);
  });
});

describe('failure lines', () => {
  it('are written at -v=0', () => {
    const lines = capture(0);
    logServerError(new Error('disk full'));
    logPanic(new Error('bad'), { method: 'GET', uri: '/api', auditID: 'id' });
    assert.equal(
      lines[0],
      'E1126 17:05:00.123456      42 runtime:0] "Unhandled Error" err="apiserver received an error that is not an metav1.Status: disk full" logger="UnhandledError"\n',
    );
    assert.match(
      lines[1],
      /^E1126 17:05:00\.123456 {6}42 runtime:0\] "Observed a panic" panic="bad" stacktrace=<\n\tError: bad\n/,
    );
    assert.equal(
      lines[2],
      `E1126 17:05:00.123456      42 filters:0] "apiserver panic'd" method="GET" URI="/api" auditID="id"\n`,
    );
  });

  it('a bug is logged as a panic, any other error as an unhandled one', () => {
    const lines = capture(0);
    const req = { method: 'PUT', uri: '/x', auditID: 'a' };
    logHandlerFailure(new TypeError('x is undefined'), req);
    logHandlerFailure(new Error('database is locked'), req);
    assert.deepEqual(
      lines.map((l) => /\] "([^"]+)"/.exec(l)?.[1]),
      ['Observed a panic', "apiserver panic'd", 'Unhandled Error'],
    );
  });
});
