// The server's request lines as an operator sees them: one "HTTP" line per request at -v=3 (none
// below), naming the verb, URI, audit ID, peer and status. (5xx lines: respond.test.ts.)

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { captureLogs } from '../machinery/logging/index.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';
import { waitUntil } from './testing/wait-for.ts';

describe('request log lines', () => {
  let api: TestApiServer;
  before(async () => {
    api = await startTestApiServer();
  });
  after(async () => {
    await api.stop();
  });

  it('writes one "HTTP" line per request at -v=3 and none at -v=2', async () => {
    const quiet = captureLogs({ verbosity: 2 });
    try {
      assert.equal((await api.call({ path: '/api/v1/namespaces' })).status, 200);
    } finally {
      quiet.restore();
    }
    assert.deepEqual(
      quiet.lines.filter((l) => l.includes('"HTTP"')),
      [],
    );

    const loud = captureLogs({ verbosity: 3 });
    let auditId = '';
    try {
      const r = await api.call({
        path: '/api/v1/namespaces/default',
        headers: { 'user-agent': 'log-test/1' },
      });
      assert.equal(r.status, 200);
      auditId = String(r.headers['audit-id']);
      // The line is written when the response closes, which may follow the client's read.
      await waitUntil(() => loud.lines.some((l) => l.includes(auditId)), 'the request line');
    } finally {
      loud.restore();
    }
    const line = loud.lines.find((l) => l.includes(auditId)) ?? '';
    assert.match(
      line,
      new RegExp(
        `^I\\d{4} [\\d:.]+ +\\d+ httplog:0\\] "HTTP" verb="GET" URI="/api/v1/namespaces/default" latency="[^"]+" userAgent="log-test/1" audit-ID="${auditId}" srcIP="127\\.0\\.0\\.1:\\d+" resp=200\n$`,
      ),
    );
  });
});
