// The built program as users run it: bundled the way `npm run build` bundles it, spawned with only
// a data directory and a port, reached by stock kubectl through the configuration file it writes.

import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { componentName, namingProfile } from '../../src/naming/profile.ts';
import { KUBECTLS } from './lib/harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NAME = componentName(namingProfile('spec'), 'apiserver');

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

describe('the bundled program', () => {
  // Inside the repository so that the bundle's external packages resolve from node_modules.
  const outdir = join(ROOT, 'dist', `test-bundle-${process.pid}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'apiserver-test-program-'));
  let child: ChildProcess | undefined;
  let stdout = '';

  before(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), '--outdir', outdir], { cwd: ROOT });
  });
  after(() => {
    child?.kill('SIGTERM');
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps optional storage out of the main file', () => {
    const chunks = readdirSync(join(outdir, 'chunks'));
    assert.ok(
      chunks.some((f) => f.startsWith('etcd-')),
      chunks.join(' '),
    );
    assert.ok(existsSync(join(outdir, `${NAME}.js`)));
  });

  it('serves on the given port and prints a kubectl line that works', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [
      join(outdir, `${NAME}.js`),
      '--data-dir',
      dataDir,
      '--secure-port',
      String(port),
    ]);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const deadline = Date.now() + 20_000;
    while (!/kubectl --kubeconfig (\S+)/.test(stdout)) {
      assert.ok(Date.now() < deadline, `no kubectl line in ${JSON.stringify(stdout)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const config = /kubectl --kubeconfig (\S+)/.exec(stdout)![1];
    assert.equal(config, join(dataDir, `admin.${namingProfile('spec').clientConfig}`));
    const out = execFileSync(KUBECTLS[0].path, ['--kubeconfig', config, 'get', 'namespaces', '-o', 'name'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: dataDir },
    });
    assert.match(out, /^namespace\/default$/m);
  });
});
