import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../naming/service-accounts.ts';
import { keyId, loadOrCreateSigningKey, parsePrivateKeyPem, parsePublicKeysPem } from './keys.ts';
import { GENERATED_SIGNING_KEY_FILE, prepareServiceAccounts } from './service-account-setup.ts';

const dir = mkdtempSync(join(tmpdir(), 'sa-keys-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const pem = (k: { export(o: object): string | Buffer }, type: string) =>
  String(k.export({ type, format: 'pem' }));
const profile = namingProfile('spec');

describe('service account keys', () => {
  it('kid is the unpadded base64url SHA-256 of the DER public key', () => {
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    assert.equal(keyId(rsa.publicKey), createHash('sha256').update(der).digest('base64url'));
    assert.doesNotMatch(keyId(rsa.publicKey), /[=+/]/);
  });

  it('key files may hold public keys, private keys (PKCS#1, SEC1, PKCS#8) and several blocks', () => {
    const text = [
      pem(rsa.publicKey, 'spki'),
      pem(ec.privateKey, 'sec1'),
      '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n',
      pem(rsa.privateKey, 'pkcs1'),
    ].join('\n');
    const keys = parsePublicKeysPem(text);
    assert.deepEqual(
      keys.map((k) => k.alg),
      ['RS256', 'ES256', 'RS256'],
    );
    assert.equal(keys[0].kid, keys[2].kid);
    assert.throws(
      () => parsePublicKeysPem(pem(ed.publicKey, 'spki')),
      /does not contain any valid RSA or ECDSA public keys/,
    );
    assert.equal(parsePrivateKeyPem(pem(ec.privateKey, 'pkcs8')).asymmetricKeyType, 'ec');
    assert.throws(() => parsePrivateKeyPem(pem(rsa.publicKey, 'spki')), /valid RSA or ECDSA private key/);
  });

  it('a generated signing key is written owner-only and read back on the next start', () => {
    const path = join(dir, 'gen.key');
    const first = loadOrCreateSigningKey(path);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const second = loadOrCreateSigningKey(path);
    assert.equal(second.kid, first.kid);
    assert.equal(first.alg, 'RS256');
  });

  it('defaults: the issuer, a generated sa.key reused across starts, verifying with it and the serving key', () => {
    const pki = mkdtempSync(join(dir, 'pki-'));
    const input = { pkiDir: pki, servingKeyPem: pem(ec.privateKey, 'pkcs8'), profile };
    const a = prepareServiceAccounts(input);
    const b = prepareServiceAccounts(input);
    assert.deepEqual(a.options.issuers, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert.deepEqual(a.apiAudiences, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert.equal(a.signingKey.kid, b.signingKey.kid);
    assert.equal(statSync(join(pki, GENERATED_SIGNING_KEY_FILE)).mode & 0o777, 0o600);
    assert.deepEqual(
      a.verifyingKeys.map((k) => k.kid),
      [a.signingKey.kid, keyId(ec.publicKey)],
    );
    assert.equal(a.lookup, true);
    assert.equal(a.extendExpiration, true);
    assert.equal(a.maxExpirationSeconds, 0);
  });

  it('flag-given keys, issuers and audiences win', () => {
    const signing = join(dir, 'signing.pem');
    const verify = join(dir, 'verify.pem');
    writeFileSync(signing, pem(rsa.privateKey, 'pkcs8'));
    writeFileSync(verify, pem(rsa.publicKey, 'spki'));
    const s = prepareServiceAccounts({
      serviceAccount: {
        signingKeyFile: signing,
        keyFiles: [verify],
        issuers: ['https://a.example', 'https://b.example'],
        maxTokenExpirationMs: 7200_000,
      },
      apiAudiences: ['api'],
      pkiDir: mkdtempSync(join(dir, 'pki-')),
      servingKeyPem: pem(ec.privateKey, 'pkcs8'),
      profile,
    });
    assert.equal(s.issuer.issuer, 'https://a.example');
    assert.deepEqual(s.apiAudiences, ['api']);
    assert.deepEqual(
      s.verifyingKeys.map((k) => k.kid),
      [keyId(rsa.publicKey)],
    );
    assert.equal(s.maxExpirationSeconds, 7200);
  });

  it('bad issuer, JWKS URI and maximum expiration flags stop the start with upstream words', () => {
    const base = { pkiDir: mkdtempSync(join(dir, 'pki-')), servingKeyPem: '', profile };
    assert.throws(
      () => prepareServiceAccounts({ ...base, serviceAccount: { issuers: ['https://a', 'https://a'] } }),
      /service-account-issuer "https:\/\/a" is already specified/,
    );
    assert.throws(
      () => prepareServiceAccounts({ ...base, serviceAccount: { jwksUri: 'http://x/jwks' } }),
      /service-account-jwks-uri requires https scheme/,
    );
    assert.throws(
      () => prepareServiceAccounts({ ...base, serviceAccount: { maxTokenExpirationMs: 60_000 } }),
      /the service-account-max-token-expiration must be between 1 hour and 2\^32 seconds/,
    );
  });
});
