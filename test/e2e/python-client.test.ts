// The Python client (Debian's python3-kubernetes, run by Debian's own python3) with a service
// account's token from TokenRequest in a client configuration the test writes: it lists namespaces
// and reads its identity with a SelfSubjectReview under the upstream group name, and a token that
// was tampered with is refused with 401 Unauthorized.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { client } from '../../src/server/testing/http-client.ts';
import { startTestServer, type TestServer, waitFor, writeTemp } from './lib/harness.ts';

/** Debian's interpreter, which sees Debian's python3-kubernetes (another on the PATH may not). */
const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'python/whoami.py');

try {
  execFileSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' });
} catch {
  throw new Error(`${PYTHON} cannot import kubernetes: run scripts/setup-tools.sh (npm test runs it)`);
}

interface Seen {
  namespaces?: string[];
  via?: string;
  username?: string;
  groups?: string[];
  status?: number;
  body?: { kind: string; reason: string; code: number; message: string };
}

function python(configPath: string, home: string): Promise<Seen> {
  return new Promise((res, rej) => {
    execFile(
      PYTHON,
      [SCRIPT, configPath],
      { timeout: 60_000, env: { ...process.env, HOME: home } },
      (err, stdout, stderr) => {
        if (err !== null) return rej(new Error(`${err.message}\n${stderr}`));
        res(JSON.parse(String(stdout)) as Seen);
      },
    );
  });
}

/** A client configuration for the server with a bearer token, the CA by file. */
function tokenConfig(ts: TestServer, token: string, file: string): string {
  return writeTemp(
    ts,
    file,
    toYaml({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'local',
          cluster: { server: ts.server.url, 'certificate-authority': join(ts.dir, 'ca.crt') },
        },
      ],
      users: [{ name: 'robot', user: { token } }],
      contexts: [{ name: 'robot', context: { cluster: 'local', user: 'robot' } }],
      'current-context': 'robot',
    }),
  );
}

describe('Python client with a service account token', () => {
  let ts: TestServer;
  let token = '';

  before(async () => {
    ts = await startTestServer();
    const http = client(ts.server, ts.dir);
    const ns = await http({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ metadata: { name: 'robots' } }),
    });
    assert.equal(ns.status, 201, ns.body);
    const sa = await http({
      method: 'POST',
      path: '/api/v1/namespaces/robots/serviceaccounts',
      body: JSON.stringify({ metadata: { name: 'reader' } }),
    });
    assert.equal(sa.status, 201, sa.body);
    const tr = await http({
      method: 'POST',
      path: '/api/v1/namespaces/robots/serviceaccounts/reader/token',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
    });
    assert.equal(tr.status, 201, tr.body);
    token = (tr.json().status as { token: string }).token;
    // The default policy (RBAC) lets a service account list nothing: namespaces are cluster-wide,
    // so the account gets a ClusterRoleBinding to view, as an operator would grant it.
    const bind = await http({
      method: 'POST',
      path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      body: JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'reader-view' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'robots' }],
      }),
    });
    assert.equal(bind.status, 201, bind.body);
    // RBAC learns the binding (and view its aggregated rules) from its watches.
    await waitFor(
      () =>
        http({ path: '/api/v1/namespaces', anonymous: true, headers: { authorization: `Bearer ${token}` } }),
      (r) => r.status === 200,
      'the binding to take effect',
    );
  });
  after(() => ts.stop());

  it('lists namespaces and reads its own identity with a SelfSubjectReview', async () => {
    const seen = await python(tokenConfig(ts, token, 'reader.config'), ts.dir);
    assert.equal(seen.status, undefined, JSON.stringify(seen));
    assert.ok(seen.namespaces?.includes('robots'), JSON.stringify(seen.namespaces));
    assert.ok(seen.namespaces?.includes('default'), JSON.stringify(seen.namespaces));
    // Debian bookworm's client (22.6) predates the typed call and posts through call_api.
    assert.ok(seen.via === 'typed' || seen.via === 'call_api', seen.via);
    assert.equal(seen.username, 'system:serviceaccount:robots:reader');
    assert.deepEqual(seen.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:robots',
      'system:authenticated',
    ]);
  });

  it('a tampered token is 401 Unauthorized', async () => {
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const seen = await python(tokenConfig(ts, `${header}.${payload}.${flipped}`, 'tampered.config'), ts.dir);
    assert.equal(seen.status, 401, JSON.stringify(seen));
    assert.equal(seen.body?.kind, 'Status');
    assert.equal(seen.body?.reason, 'Unauthorized');
    assert.equal(seen.body?.code, 401);
  });
});
