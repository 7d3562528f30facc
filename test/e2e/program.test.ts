// The built programs as users run them: bundled the way `npm run build` bundles them, spawned with
// only a data directory and a port, reached by stock kubectl through the configuration file they
// write. plat-control-plane is the README's first command: a newcomer's namespace gets its default
// ServiceAccount and CA bundle from the controllers, and `kubectl create token` works.

import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { componentName, namingProfile } from '../../src/naming/profile.ts';
import { KUBECTLS, waitUntil } from './lib/harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const profile = namingProfile('spec');
const NAME = componentName(profile, 'apiserver');
const CONTROL_PLANE = componentName(profile, 'control-plane');

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

// Inside the repository so that the bundle's external packages resolve from node_modules.
const outdir = join(ROOT, 'dist', `test-bundle-${process.pid}`);
const children: ChildProcess[] = [];
const dirs: string[] = [];

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), '--outdir', outdir], { cwd: ROOT });
});
after(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(outdir, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts a bundled program on a free port; resolves with its kubeconfig once it prints the kubectl line. */
async function run(program: string): Promise<{ config: string; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apiserver-test-program-'));
  dirs.push(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, [
    join(outdir, `${program}.js`),
    '--data-dir',
    dataDir,
    '--secure-port',
    String(port),
  ]);
  children.push(child);
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  await waitUntil(() => /kubectl --kubeconfig (\S+)/.test(stdout), `the kubectl line of ${program}`);
  return { config: /kubectl --kubeconfig (\S+)/.exec(stdout)![1], dataDir };
}

function kubectl(dataDir: string, config: string, ...args: string[]): string {
  return execFileSync(KUBECTLS[0].path, ['--kubeconfig', config, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function succeeds(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}

describe('the bundled programs', () => {
  it('keeps optional storage out of the main file', () => {
    const chunks = readdirSync(join(outdir, 'chunks'));
    assert.ok(
      chunks.some((f) => f.startsWith('etcd-')),
      chunks.join(' '),
    );
    assert.ok(existsSync(join(outdir, `${NAME}.js`)));
    assert.ok(existsSync(join(outdir, `${CONTROL_PLANE}.js`)));
  });

  it('the API server serves on the given port and prints a kubectl line that works', async () => {
    const { config, dataDir } = await run(NAME);
    assert.equal(config, join(dataDir, `admin.${profile.clientConfig}`));
    assert.match(kubectl(dataDir, config, 'get', 'namespaces', '-o', 'name'), /^namespace\/default$/m);
  });

  it('the control plane reconciles: a new namespace gets its default account and CA bundle, and a token', async () => {
    const { config, dataDir } = await run(CONTROL_PLANE);
    kubectl(dataDir, config, 'create', 'namespace', 'newcomer');
    await waitUntil(
      () => succeeds(() => kubectl(dataDir, config, 'get', 'serviceaccount', 'default', '-n', 'newcomer')),
      'the default ServiceAccount',
    );
    await waitUntil(
      () =>
        succeeds(() =>
          kubectl(
            dataDir,
            config,
            'get',
            'configmap',
            `${profile.componentPrefix}root-ca.crt`,
            '-n',
            'newcomer',
          ),
        ),
      'the CA bundle ConfigMap',
    );
    const token = kubectl(dataDir, config, 'create', 'token', 'default', '-n', 'newcomer').trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    // The token alone (the admin configuration's certificate would authenticate first).
    const server = /server: "?([^"\s]+)"?/.exec(readFileSync(config, 'utf8'))![1];
    const who = execFileSync(
      KUBECTLS[0].path,
      [
        '--kubeconfig=/dev/null',
        `--server=${server}`,
        `--certificate-authority=${join(dataDir, 'ca.crt')}`,
        `--token=${token}`,
        'auth',
        'whoami',
        '-o',
        'jsonpath={.status.userInfo.username}',
      ],
      { encoding: 'utf8', env: { ...process.env, HOME: dataDir } },
    );
    assert.equal(who, 'system:serviceaccount:newcomer:default');

    kubectl(dataDir, config, 'create', 'configmap', 'c1', '-n', 'newcomer');
    kubectl(dataDir, config, 'delete', 'namespace', 'newcomer', '--wait=false');
    await waitUntil(
      () => !succeeds(() => kubectl(dataDir, config, 'get', 'namespace', 'newcomer')),
      'the namespace to be emptied and removed',
    );
  });
});
