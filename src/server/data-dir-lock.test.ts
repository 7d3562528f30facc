import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { componentName, namingProfile } from '../naming/profile.ts';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';
import { startTestApiServer } from './testing/index.ts';

const program = resolve(
  import.meta.dirname,
  `../cmd/${componentName(namingProfile('spec'), 'apiserver')}.ts`,
);

interface Exit {
  code: number | null;
  stderr: string;
}

function run(args: string[]): Promise<Exit> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', program, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the program did not exit: ${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(bound);
      done({ code, stderr });
    });
  });
}

/** A process that holds the lock on `dir` until killed; resolves once it holds it. */
function holder(dir: string): Promise<ChildProcess> {
  const script = `import { lockDataDir } from ${JSON.stringify(resolve(import.meta.dirname, 'data-dir-lock.ts'))};
lockDataDir(${JSON.stringify(dir)}); process.stdout.write('held\\n'); setInterval(() => {}, 1000);`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.once('data', () => done(child));
    child.once('exit', (code) => fail(new Error(`holder exited ${code}`)));
  });
}

/** Every file's name, and size, time and mode of those the running server itself leaves alone. */
function snapshot(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir).map((f) => {
      if (f.startsWith('store.db')) return [f, 'the first server writes here'];
      const st = statSync(join(dir, f));
      return [f, `${st.size}:${st.mtimeMs}:${st.mode}`];
    }),
  );
}

describe('one server per data directory', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'apiserver-lock-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a second program on a directory in use exits 1 naming it and the holder, touching nothing', async () => {
    const t = await startTestApiServer();
    try {
      const before = snapshot(t.dir);
      const config = readFileSync(t.server.adminConfigPath, 'utf8');
      const r = await run(['--data-dir', t.dir, '--secure-port', '0']);
      assert.equal(r.code, 1, r.stderr);
      assert.ok(r.stderr.includes(t.dir), r.stderr);
      assert.ok(r.stderr.includes(`pid ${process.pid}`), r.stderr);
      assert.deepEqual(snapshot(t.dir), before);
      assert.equal(readFileSync(t.server.adminConfigPath, 'utf8'), config);
      // The first server still writes.
      const created = await t.call({
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } }),
      });
      assert.equal(created.status, 201, created.body);
    } finally {
      await t.stop();
    }
  });

  it('a second server in the same process is refused, and the directory is free again after stop', async () => {
    const t = await startTestApiServer();
    const dir = t.dir;
    try {
      assert.throws(
        () => lockDataDir(dir),
        (e) => e instanceof DataDirInUseError && e.holderPid === process.pid,
      );
    } finally {
      await t.server.stop();
    }
    assert.equal(existsSync(join(dir, 'lock')), false);
    lockDataDir(dir).release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('another live process holds it; once that process is killed, the lock is taken over', async () => {
    const dir = fresh();
    const child = await holder(dir);
    try {
      assert.throws(
        () => lockDataDir(dir),
        (e) => e instanceof DataDirInUseError && e.holderPid === child.pid && e.dir === resolve(dir),
      );
    } finally {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
    // kill -9 left the file behind; its holder is gone.
    assert.equal(existsSync(join(dir, 'lock')), true);
    const lock = lockDataDir(dir);
    assert.equal(readFileSync(join(dir, 'lock'), 'utf8').split('\n')[0], String(process.pid));
    lock.release();
  });

  it('a lock naming a pid that now belongs to another process started later is stale', () => {
    const dir = fresh();
    // pid 1 exists, but not with this start time.
    writeFileSync(join(dir, 'lock'), '1\n999999999999\n');
    lockDataDir(dir).release();
    assert.equal(existsSync(join(dir, 'lock')), false);
  });

  it('creates a missing directory private to its owner', () => {
    const dir = join(fresh(), 'new');
    const lock = lockDataDir(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    lock.release();
  });
});
