// /metrics with stock kubectl 1.32 and 1.35: the admin reads it (`kubectl get --raw /metrics`) and
// Prometheus's own Python parser (Debian's python3-prometheus-client) reads every family of it; a
// user without permission gets upstream's 403, and is let in once bound to `system:monitoring`.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { KUBECTLS, kubectl, startTestServer, type TestServer, waitFor, writeTemp } from './lib/harness.ts';

/** Debian's interpreter, which sees Debian's python3-prometheus-client. */
const PYTHON = '/usr/bin/python3';
const PARSER = join(import.meta.dirname, 'python/parse_metrics.py');
const TOKEN = 'metrics-reader-token-0123456789';

try {
  execFileSync(PYTHON, ['-c', 'import prometheus_client.parser'], { stdio: 'ignore' });
} catch {
  throw new Error(`${PYTHON} cannot import prometheus_client: run scripts/setup-tools.sh (npm test runs it)`);
}

interface Family {
  type: string;
  help: string;
  /** NaN and the infinities come as strings. */
  samples: { name: string; labels: Record<string, string>; value: number | string }[];
}

function parseWithPrometheus(text: string): Promise<Record<string, Family>> {
  return new Promise((res, rej) => {
    const child = execFile(
      PYTHON,
      [PARSER],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err !== null) return rej(new Error(`${err.message}\n${stderr}`));
        res(JSON.parse(String(stdout)) as Record<string, Family>);
      },
    );
    child.stdin?.end(text);
  });
}

for (const k of KUBECTLS) {
  describe(`${k.name}: /metrics`, () => {
    let ts: TestServer;
    let reader: string;
    const tokens = mkdtempSync(join(tmpdir(), 'metrics-tokens-'));
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const asReader = (...args: string[]) => run('--kubeconfig', reader, ...args);
    before(async () => {
      writeFileSync(join(tokens, 'tokens.csv'), `${TOKEN},mona,51\n`);
      ts = await startTestServer({ tokenAuthFile: join(tokens, 'tokens.csv') });
      const admin = parseYaml(ts.server.adminConfig) as { users: { name: string; user: unknown }[] };
      admin.users = admin.users.map((u) => ({ name: u.name, user: { token: TOKEN } }));
      reader = writeTemp(ts, 'reader.config', toYaml(admin));
    });
    after(async () => {
      await ts.stop();
      rmSync(tokens, { recursive: true, force: true });
    });

    it('the admin reads it, and Prometheus parses every family', async () => {
      assert.equal((await run('get', 'namespaces')).code, 0);
      const r = await run('get', '--raw', '/metrics');
      assert.equal(r.code, 0, r.stderr);
      const families = await parseWithPrometheus(r.stdout);
      // The parser names a counter's family without its _total suffix.
      const total = families.apiserver_request;
      assert.equal(total?.type, 'counter');
      assert.match(total.help, /^\[STABLE\] Counter of apiserver requests/);
      const listNamespaces = total.samples.find(
        (s) =>
          s.name === 'apiserver_request_total' &&
          s.labels.verb === 'LIST' &&
          s.labels.resource === 'namespaces' &&
          s.labels.code === '200',
      );
      assert.ok(
        listNamespaces !== undefined && Number(listNamespaces.value) >= 1,
        'the LIST of namespaces is counted',
      );
      assert.deepEqual(Object.keys(listNamespaces.labels).sort(), [
        'code',
        'component',
        'dry_run',
        'group',
        'resource',
        'scope',
        'subresource',
        'verb',
        'version',
      ]);
      assert.equal(families.apiserver_request_duration_seconds?.type, 'histogram');
      assert.equal(families.apiserver_current_inflight_requests?.type, 'gauge');
      assert.equal(families.process_resident_memory_bytes?.type, 'gauge');
    });

    it('a user without permission is refused with 403, and let in through system:monitoring', async () => {
      const refused = await asReader('get', '--raw', '/metrics');
      assert.notEqual(refused.code, 0);
      assert.match(
        refused.stderr,
        /Error from server \(Forbidden\): forbidden: User "mona" cannot get path "\/metrics"/,
      );
      const bind = await run(
        'create',
        'clusterrolebinding',
        `mona-monitoring-${k.name.replace(/\W/g, '')}`,
        '--clusterrole=system:monitoring',
        '--user=mona',
      );
      assert.equal(bind.code, 0, bind.stderr);
      const allowed = await waitFor(
        () => asReader('get', '--raw', '/metrics'),
        (x) => x.code === 0,
        'RBAC to see the binding',
      );
      assert.match(allowed.stdout, /^# TYPE apiserver_request_total counter$/m);
    });
  });
}
