import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { groupName, namingProfile } from '../../../naming/profile.ts';
import type { AuditBackend } from '../event-types.ts';
import type { AuditLogOptions } from '../options.ts';
import { createAuditBackend } from './index.ts';
import { eventString, goQuote } from './legacy-format.ts';
import { backupTimestamp } from './rotating-file.ts';
import { makeEvent, metricValue, SPEC, SPEC_AUDIT_VERSION } from './test-support.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'audit-log-'));
  dirs.push(d);
  return d;
}

async function logBackend(log: AuditLogOptions, metrics = new MetricsRegistry()): Promise<AuditBackend> {
  const b = await createAuditBackend({ log }, { metrics, profile: SPEC });
  assert.ok(b !== undefined);
  return b;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('audit log backend', () => {
  it('is undefined when neither backend is configured', async () => {
    assert.equal(await createAuditBackend({}, { metrics: new MetricsRegistry(), profile: SPEC }), undefined);
    assert.equal(
      await createAuditBackend({ log: { path: '' } }, { metrics: new MetricsRegistry(), profile: SPEC }),
      undefined,
    );
  });

  it('writes one JSON Event per line in the profile audit group, file mode 0600', async () => {
    const file = join(tempDir(), 'sub', 'audit.log');
    const b = await logBackend({ path: file });
    assert.equal(b.name, 'ignoreErrors<log>');
    assert.equal(b.processEvents(makeEvent(1), makeEvent(2)), true);
    // An event in another group's version is written in the profile's.
    const upstreamVersion = `${groupName(namingProfile('upstream'), 'audit')}/v1`;
    assert.equal(b.processEvents(makeEvent(3, { apiVersion: upstreamVersion })), true);
    await b.shutdown();
    const got = lines(file).map((l) => JSON.parse(l));
    assert.equal(got.length, 3);
    assert.deepEqual(got[0], makeEvent(1));
    assert.deepEqual(Object.keys(got[0]).slice(0, 2), ['kind', 'apiVersion']);
    assert.equal(got[2].apiVersion, SPEC_AUDIT_VERSION);
    assert.equal(got[2].auditID, makeEvent(3).auditID);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(file, '..')).mode & 0o777, 0o700);
  });

  it('blocking lines reach the file by the end of the event loop turn; blocking-strict before returning', async () => {
    const dir = tempDir();
    const blocking = await logBackend({ path: join(dir, 'b.log') });
    blocking.processEvents(makeEvent(1));
    await new Promise((r) => setImmediate(r));
    assert.equal(lines(join(dir, 'b.log')).length, 1);
    const strict = await logBackend({ path: join(dir, 's.log'), mode: 'blocking-strict' });
    assert.equal(strict.name, 'log');
    assert.equal(strict.processEvents(makeEvent(1)), true);
    assert.equal(lines(join(dir, 's.log')).length, 1);
    await blocking.shutdown();
    await strict.shutdown();
    assert.equal(strict.processEvents(makeEvent(2)), false, 'a shut down strict backend refuses');
  });

  it('writes the legacy one-line format as upstream EventString', async () => {
    const file = join(tempDir(), 'legacy.log');
    const b = await logBackend({ path: file, format: 'legacy' });
    b.processEvents(
      makeEvent(1),
      makeEvent(2, {
        user: { username: '' },
        impersonatedUser: { username: 'bob', groups: [] },
        objectRef: undefined,
        responseStatus: undefined,
        sourceIPs: [],
        stage: 'RequestReceived',
        requestReceivedTimestamp: '2026-11-26T17:00:00.000000Z',
        userAgent: 'say "hi"\n\u0001é',
      }),
    );
    await b.shutdown();
    assert.deepEqual(lines(file), [
      '2026-11-26T17:00:00.1234Z AUDIT: id="00000000-0000-0000-0000-000000000001" stage="ResponseComplete" ' +
        'ip="127.0.0.1" method="get" user="alice" groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" ' +
        'asgroups="<lookup>" user-agent="test/1.0" namespace="default" ' +
        'uri="/api/v1/namespaces/default/configmaps/cm-1" response="200"',
      '2026-11-26T17:00:00Z AUDIT: id="00000000-0000-0000-0000-000000000002" stage="RequestReceived" ' +
        'ip="<unknown>" method="get" user="<none>" groups="<none>" as="bob" asgroups="" ' +
        'user-agent="say \\"hi\\"\\n\\x01é" namespace="<none>" ' +
        'uri="/api/v1/namespaces/default/configmaps/cm-2" response="<deferred>"',
    ]);
    assert.equal(eventString(makeEvent(1)), lines(file)[0]);
  });

  it('quotes as Go %q', () => {
    assert.equal(goQuote('plain'), '"plain"');
    assert.equal(goQuote('a\\b"c\t\u007f\u0085\u2028😀'), '"a\\\\b\\"c\\t\\x7f\\u0085\\u2028😀"');
    assert.equal(goQuote('\ud800x'), '"\\ufffdx"');
  });

  it('writes to standard output for path -', () => {
    const script = [
      "import { MetricsRegistry } from './src/machinery/metrics/index.ts';",
      "import { namingProfile } from './src/naming/profile.ts';",
      "import { createAuditBackend } from './src/server/audit/backends/index.ts';",
      "import { makeEvent } from './src/server/audit/backends/test-support.ts';",
      "const b = await createAuditBackend({ log: { path: '-', format: 'legacy' } }, { metrics: new MetricsRegistry(), profile: namingProfile('spec') });",
      'b.processEvents(makeEvent(1)); b.processEvents(makeEvent(2));',
      'await b.shutdown();',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..', '..', '..', '..'),
      encoding: 'utf8',
    });
    assert.deepEqual(
      out.split('\n').filter((l) => l !== ''),
      [eventString(makeEvent(1)), eventString(makeEvent(2))],
    );
  });

  it('rotates by size into lumberjack-named backups, keeping maxBackups', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.log');
    // About 10 KiB a file: every fresh file takes whole lines only.
    const b = await logBackend({ path: file, maxSizeMB: 0.01, maxBackups: 3, maxAgeDays: 0 });
    const lineBytes = Buffer.byteLength(`${JSON.stringify(makeEvent(1000))}\n`);
    const total = 300;
    for (let i = 1000; i < 1000 + total; i++) b.processEvents(makeEvent(i));
    await b.shutdown();
    const names = readdirSync(dir).sort();
    const backups = names.filter((n) => n !== 'audit.log');
    assert.equal(backups.length, 3, names.join(' '));
    for (const n of backups) {
      assert.match(n, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
      assert.equal(statSync(join(dir, n)).mode & 0o777, 0o600);
    }
    const max = Math.round(0.01 * 1024 * 1024);
    const perFile = Math.floor(max / lineBytes);
    for (const n of [...backups, 'audit.log']) {
      const size = statSync(join(dir, n)).size;
      assert.ok(size <= max, `${n} is ${size} bytes`);
      assert.equal(size % lineBytes, 0, `${n} holds whole lines`);
    }
    // The newest backups are kept, and with the current file they end with the last event.
    const kept = [...backups, 'audit.log'].flatMap((n) =>
      lines(join(dir, n)).map((l) => JSON.parse(l).auditID),
    );
    assert.equal(kept.at(-1), makeEvent(1000 + total - 1).auditID);
    for (const n of backups) assert.equal(lines(join(dir, n)).length, perFile);
  });

  it('removes backups older than maxAge and gzips the rest when compress is on', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.log');
    const day = 24 * 60 * 60 * 1000;
    const old = join(dir, `audit-${backupTimestamp(Date.now() - 3 * day)}.log`);
    const recent = join(dir, `audit-${backupTimestamp(Date.now() - day / 2)}.log`);
    const unrelated = join(dir, 'audit-notatimestamp.log');
    for (const f of [old, recent, unrelated]) writeFileSync(f, 'x\n', { mode: 0o600 });
    const metrics = new MetricsRegistry();
    const b = await logBackend(
      { path: file, maxSizeMB: 0.001, maxBackups: 0, maxAgeDays: 2, compress: true, mode: 'blocking-strict' },
      metrics,
    );
    const lineBytes = Buffer.byteLength(`${JSON.stringify(makeEvent(1))}\n`);
    const perFile = Math.floor(Math.round(0.001 * 1024 * 1024) / lineBytes);
    for (let i = 0; i < perFile + 1; i++) b.processEvents(makeEvent(i));
    // A line larger than the whole file is refused, as lumberjack refuses it, and counted.
    assert.equal(b.processEvents(makeEvent(99, { userAgent: 'x'.repeat(2000) })), false);
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="log"}'), 1);
    await b.shutdown();
    const names = readdirSync(dir).sort();
    assert.ok(!names.includes(old.slice(dir.length + 1)), names.join(' '));
    assert.ok(names.includes('audit-notatimestamp.log'));
    const gz = names.filter((n) => n.endsWith('.log.gz'));
    assert.equal(gz.length, 2, names.join(' '));
    assert.ok(gz.includes(`${recent.slice(dir.length + 1)}.gz`));
    assert.equal(names.filter((n) => /^audit-\d.*\.log$/.test(n)).length, 0, 'originals removed');
    const rotated = gz.find((n) => n !== `${recent.slice(dir.length + 1)}.gz`) as string;
    const text = gunzipSync(readFileSync(join(dir, rotated))).toString();
    assert.equal(text.split('\n').filter((l) => l !== '').length, perFile);
    assert.equal(statSync(join(dir, rotated)).mode & 0o777, 0o600);
    assert.equal(lines(file).length, 1);
  });

  it('batch mode writes away from the request and drops past the buffer', async () => {
    const file = join(tempDir(), 'batch.log');
    const metrics = new MetricsRegistry();
    const b = await logBackend({ path: file, mode: 'batch', batch: { bufferSize: 5 } }, metrics);
    assert.equal(b.name, 'buffered<log>');
    for (let i = 0; i < 8; i++) assert.equal(b.processEvents(makeEvent(i)), true);
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="buffered"}'), 3);
    await b.shutdown();
    assert.equal(lines(file).length, 5);
  });

  it('refuses a log file it cannot create', async () => {
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, '');
    await assert.rejects(
      logBackend({ path: join(notADir, 'audit.log') }),
      /^Error: ensureLogFile: (EEXIST|ENOTDIR)/,
    );
  });

  it('refuses invalid options with upstream messages', async () => {
    const metrics = new MetricsRegistry();
    const path = join(tempDir(), 'x.log');
    const cases: [AuditLogOptions, RegExp][] = [
      [{ path, format: 'xml' as 'json' }, /invalid audit log format xml, allowed formats are "legacy,json"/],
      [{ path, maxAgeDays: -1 }, /--audit-log-maxage -1 can't be a negative number/],
      [
        { path, mode: 'sync' as 'batch' },
        /invalid audit log mode sync, allowed modes are "batch,blocking,blocking-strict"/,
      ],
      [{ path, mode: 'batch', batch: { bufferSize: 0 } }, /invalid audit batch log buffer size 0/],
      [{ path, mode: 'batch', batch: { throttleEnable: true } }, /invalid audit batch log throttle QPS 0/],
      [
        { path, truncate: { maxEventSize: 10, maxBatchSize: 5 } },
        /max batch size 5, must be greater than max event size \(10\)/,
      ],
      [{ path, version: 'v2' }, /invalid group version/],
    ];
    for (const [log, re] of cases)
      await assert.rejects(createAuditBackend({ log }, { metrics, profile: SPEC }), re);
  });
});
