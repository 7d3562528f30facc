// Audit at server start: a bad policy file or bad options stop startServer with upstream's message
// (the field path for a policy), and a policy with a log file writes Metadata events as JSON lines.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { startServer } from '../server.ts';
import { client, startTestApiServer, waitFor } from '../testing/index.ts';
import { auditGroup } from './policy-types.ts';

const V1 = `${auditGroup(namingProfile('spec'))}/v1`;

describe('audit at server start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an invalid policy file stops the start, naming the field; the data directory is released', async () => {
    const policy = join(dir, 'bad-policy.yaml');
    writeFileSync(policy, `apiVersion: ${V1}\nkind: Policy\nrules:\n  - level: Loud\n`);
    const dataDir = join(dir, 'data');
    await assert.rejects(
      startServer({
        dataDir,
        securePort: 0,
        audit: { policyFile: policy, log: { path: join(dir, 'never.log') } },
      }),
      (err: Error) => {
        assert.match(err.message, /^loading audit policy file: rules\[0\]\.level: Unsupported value: "Loud"/);
        assert.match(err.message, /: from file .*bad-policy\.yaml$/);
        return true;
      },
    );
    // Nothing was left holding the directory.
    const s = await startServer({ dataDir, securePort: 0 });
    await s.stop();
  });

  it('an invalid webhook configuration stops the start; without a policy it is not read, as upstream, and audit is off', async () => {
    const policy = join(dir, 'ok-policy.yaml');
    writeFileSync(policy, `apiVersion: ${V1}\nkind: Policy\nrules:\n  - level: Metadata\n`);
    const hook = join(dir, 'hook.yaml');
    writeFileSync(
      hook,
      'clusters: [{name: a, cluster: {}}]\ncontexts: [{name: c, context: {cluster: a}}]\ncurrent-context: c\n',
    );
    const dataDir = join(dir, 'data3');
    await assert.rejects(
      startServer({ dataDir, securePort: 0, audit: { policyFile: policy, webhook: { configFile: hook } } }),
      /^Error: initializing audit webhook: .*hook\.yaml/,
    );
    const s = await startServer({ dataDir, securePort: 0, audit: { webhook: { configFile: hook } } });
    try {
      // Audit off: the Audit-ID header is sent all the same, as upstream's outermost filter does.
      await s.ready;
      const r = await client(s, dataDir)({ path: '/healthz' });
      assert.equal(r.status, 200);
      assert.match(
        String(r.headers['audit-id']),
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const own = await client(s, dataDir)({ path: '/healthz', headers: { 'audit-id': 'abc' } });
      assert.equal(own.headers['audit-id'], 'abc');
    } finally {
      await s.stop();
    }
  });

  it("invalid options stop the start with upstream's messages", async () => {
    await assert.rejects(
      startServer({
        dataDir: join(dir, 'data2'),
        securePort: 0,
        audit: { log: { path: join(dir, 'a.log'), format: 'xml' as never, maxSizeMB: -1 } },
      }),
      {
        message:
          '[invalid audit log format xml, allowed formats are "legacy,json", --audit-log-maxsize -1 can\'t be a negative number]',
      },
    );
  });

  it('a policy and a log file: JSON lines, one per stage, their auditID the Audit-ID header', async () => {
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, `apiVersion: ${V1}\nkind: Policy\nrules:\n  - level: Metadata\n`);
    const logPath = join(dir, 'audit.log');
    const t = await startTestApiServer({ audit: { policyFile: policy, log: { path: logPath } } });
    try {
      const r = await t.call({ path: '/api/v1/namespaces/default' });
      assert.equal(r.status, 200);
      const id = String(r.headers['audit-id']);
      const lines = await waitFor(
        () =>
          readFileSync(logPath, 'utf8')
            .split('\n')
            .filter((l) => l.includes(id)),
        (l) => l.length === 2,
        'two events of the request in the log',
      );
      const events = lines.map((l) => JSON.parse(l));
      assert.deepEqual(
        events.map((e) => [e.stage, e.level, e.verb, e.objectRef?.name]),
        [
          ['RequestReceived', 'Metadata', 'get', 'default'],
          ['ResponseComplete', 'Metadata', 'get', 'default'],
        ],
      );
    } finally {
      await t.stop();
    }
  });
});
