import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensurePki } from './index.ts';

const root = mkdtempSync(join(tmpdir(), 'apiserver-test-pki-'));
after(() => rmSync(root, { recursive: true, force: true }));
const opts = (dir: string, hosts = ['localhost', '127.0.0.1']) => ({
  dir,
  caName: 'test-ca',
  hosts,
  adminUser: 'admin',
  adminGroups: ['system:masters'],
});

describe('pki', () => {
  it('creates a CA, a serving certificate for the hosts and an admin client certificate', async () => {
    const pki = await ensurePki(opts(join(root, 'a')));
    const ca = new X509Certificate(pki.ca.certPem);
    const serving = new X509Certificate(pki.serving.certPem);
    const admin = new X509Certificate(pki.admin.certPem);
    assert.ok(ca.ca);
    assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
    assert.ok(admin.checkIssued(ca) && admin.verify(ca.publicKey));
    assert.equal(serving.checkHost('localhost'), 'localhost');
    assert.equal(serving.checkIP('127.0.0.1'), '127.0.0.1');
    assert.match(admin.subject, /CN=admin/);
    assert.match(admin.subject, /O=system:masters/);
    assert.match(admin.keyUsage?.join(',') ?? '', /1\.3\.6\.1\.5\.5\.7\.3\.2/);
    assert.match(readFileSync(pki.files.adminKey, 'utf8'), /BEGIN PRIVATE KEY/);
  });

  it('a second start reuses every file unchanged', async () => {
    const dir = join(root, 'b');
    const first = await ensurePki(opts(dir));
    const second = await ensurePki(opts(dir));
    assert.deepEqual(second, first);
  });

  it('a serving certificate that does not cover a newly asked host is reissued by the same CA', async () => {
    const dir = join(root, 'c');
    const first = await ensurePki(opts(dir));
    const second = await ensurePki(opts(dir, ['localhost', '127.0.0.1', 'api.example']));
    assert.equal(second.ca.certPem, first.ca.certPem);
    assert.equal(second.admin.certPem, first.admin.certPem);
    assert.notEqual(second.serving.certPem, first.serving.certPem);
    assert.equal(new X509Certificate(second.serving.certPem).checkHost('api.example'), 'api.example');
  });
});
