// The cluster-info signatures verified as 2-authn-authz.md tells a joining machine to: put the
// base64url client configuration (no padding) between the periods and verify HS256 with the full
// token as the shared secret, HS256 required. Checked with jose, not with our own signing code.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactVerify, decodeProtectedHeader, errors } from 'jose';
import { computeDetachedSignature, detachedSignatureIsValid } from './jws.ts';

const ID = 'abcdef';
const SECRET = '0123456789abcdef';
const CONTENT =
  'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: ""\n';

function attach(detached: string, content: string): string {
  const [header, payload, sig] = detached.split('.');
  assert.equal(payload, '', 'the payload part is empty');
  const encoded = Buffer.from(content).toString('base64url');
  assert.ok(!encoded.endsWith('='));
  return `${header}.${encoded}.${sig}`;
}

const key = (token: string) => new TextEncoder().encode(token);

describe('bootstrap detached JWS', () => {
  it('verifies with HS256 keyed by the full token, payload put back between the periods', async () => {
    const detached = computeDetachedSignature(CONTENT, ID, SECRET);
    assert.match(detached, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    const { payload, protectedHeader } = await compactVerify(
      attach(detached, CONTENT),
      key(`${ID}.${SECRET}`),
      {
        algorithms: ['HS256'],
      },
    );
    assert.equal(new TextDecoder().decode(payload), CONTENT);
    assert.deepEqual(protectedHeader, { alg: 'HS256', kid: ID });
  });

  it('has the header go-jose writes, byte for byte', () => {
    const [header] = computeDetachedSignature(CONTENT, ID, SECRET).split('.');
    assert.equal(Buffer.from(header, 'base64url').toString(), '{"alg":"HS256","kid":"abcdef"}');
    assert.deepEqual(decodeProtectedHeader(`${header}..`), { alg: 'HS256', kid: ID });
  });

  it('fails with the secret alone, another token, or other content', async () => {
    const full = attach(computeDetachedSignature(CONTENT, ID, SECRET), CONTENT);
    for (const k of [SECRET, `${ID}.fedcba9876543210`, `ghijkl.${SECRET}`]) {
      await assert.rejects(
        compactVerify(full, key(k), { algorithms: ['HS256'] }),
        errors.JWSSignatureVerificationFailed,
      );
    }
    const other = attach(computeDetachedSignature(CONTENT, ID, SECRET), `${CONTENT}#`);
    await assert.rejects(
      compactVerify(other, key(`${ID}.${SECRET}`), { algorithms: ['HS256'] }),
      errors.JWSSignatureVerificationFailed,
    );
  });

  it('is the same on every pass and checks as valid', () => {
    const a = computeDetachedSignature(CONTENT, ID, SECRET);
    assert.equal(computeDetachedSignature(CONTENT, ID, SECRET), a);
    assert.ok(detachedSignatureIsValid(a, CONTENT, ID, SECRET));
    assert.ok(!detachedSignatureIsValid(a, CONTENT, ID, 'fedcba9876543210'));
    assert.ok(!detachedSignatureIsValid('x..y', CONTENT, ID, SECRET));
  });

  it('signs content outside ASCII as its UTF-8 bytes', async () => {
    const content = 'name: "café ☕"';
    const detached = computeDetachedSignature(content, ID, SECRET);
    const { payload } = await compactVerify(attach(detached, content), key(`${ID}.${SECRET}`), {
      algorithms: ['HS256'],
    });
    assert.equal(new TextDecoder().decode(payload), content);
  });
});
