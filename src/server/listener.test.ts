// The listener's TLS: the suite a client gets is the one a Go server would pick, whatever order
// the client offers them in.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { type Listener, listen } from './listener.ts';
import { ensurePki } from './pki/ensure-pki.ts';

/** The suite and protocol a client that offers `ciphers` (Node's defaults when unset) ends up with. */
function negotiated(port: number, ca: string, opts: { ciphers?: string; maxVersion?: 'TLSv1.2' } = {}) {
  return new Promise<{ cipher: string; version: string }>((res, rej) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...opts }, () => {
      const c = socket.getCipher();
      socket.end();
      res({ cipher: c.standardName, version: c.version });
    });
    socket.once('error', rej);
  });
}

describe('listener TLS', () => {
  let dir: string;
  let listener: Listener;
  let ca: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'listener-tls-'));
    const pki = await ensurePki({
      dir,
      caName: 'listener-test-ca',
      hosts: ['localhost', '127.0.0.1'],
      adminUser: 'admin',
      adminGroups: [],
    });
    ca = pki.ca.certPem;
    listener = await listen({
      host: '127.0.0.1',
      port: 0,
      certPem: pki.serving.certPem,
      keyPem: pki.serving.keyPem,
      onRequest: (_req, res) => res.end(),
    });
  });
  after(async () => {
    await listener.close(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("TLS 1.3 picks AES-128-GCM over a Node client's AES-256-GCM first preference", async () => {
    assert.deepEqual(await negotiated(listener.port, ca), {
      cipher: 'TLS_AES_128_GCM_SHA256',
      version: 'TLSv1.3',
    });
  });

  it('TLS 1.3 still serves a client that offers only AES-256-GCM or only ChaCha20', async () => {
    for (const only of ['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']) {
      const got = await negotiated(listener.port, ca, { ciphers: only });
      assert.equal(got.cipher, only);
    }
  });

  it('TLS 1.2 picks an ECDHE AES-128-GCM suite', async () => {
    const got = await negotiated(listener.port, ca, { maxVersion: 'TLSv1.2' });
    assert.equal(got.version, 'TLSv1.2');
    assert.match(got.cipher, /^TLS_ECDHE_(RSA|ECDSA)_WITH_AES_128_GCM_SHA256$/);
  });
});
