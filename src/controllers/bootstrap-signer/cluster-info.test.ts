// Which bootstrap tokens may sign, when a token expires, and what the cluster-info ConfigMap's data
// becomes: signatures added, kept, replaced and removed, and nothing written when nothing changes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { bootstrapTokenSecretType, componentName, namingProfile } from '../../naming/index.ts';
import { tokenExpiration, tokenForSigning, tokenIdOfSecretName } from './bootstrap-token-secret.ts';
import { signedClusterInfoData } from './cluster-info.ts';
import { computeDetachedSignature } from './jws.ts';

const spec = namingProfile('spec');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const NOW = Date.parse('2030-01-02T03:04:05Z');

function tokenSecret(
  id: string,
  extra: Record<string, string> = {},
  name = `bootstrap-token-${id}`,
): ApiObject {
  const data: Record<string, string> = {
    'token-id': b64(id),
    'token-secret': b64('0123456789abcdef'),
    'usage-bootstrap-signing': b64('true'),
  };
  for (const [k, v] of Object.entries(extra)) data[k] = b64(v);
  return {
    metadata: { name, namespace: componentName(spec, 'system') },
    type: bootstrapTokenSecretType(spec),
    data,
  };
}

describe('bootstrap token Secrets', () => {
  it('parses the token id of the name', () => {
    assert.equal(tokenIdOfSecretName('bootstrap-token-abc123'), 'abc123');
    assert.equal(tokenIdOfSecretName('bootstrap-token-ABC123'), undefined);
    assert.equal(tokenIdOfSecretName('bootstrap-token-abc1234'), undefined);
    assert.equal(tokenIdOfSecretName('token-abc123'), undefined);
  });

  it('expires at the expiration, counts an unparsable one as passed, and never without one', () => {
    assert.deepEqual(tokenExpiration(tokenSecret('abc123'), NOW), { expired: false, remainingMs: 0 });
    assert.deepEqual(tokenExpiration(tokenSecret('abc123', { expiration: '2030-01-02T03:04:15Z' }), NOW), {
      expired: false,
      remainingMs: 10_000,
    });
    assert.deepEqual(tokenExpiration(tokenSecret('abc123', { expiration: '2030-01-02T03:04:05Z' }), NOW), {
      expired: true,
      remainingMs: 0,
    });
    assert.equal(
      tokenExpiration(tokenSecret('abc123', { expiration: '2030-01-02T04:04:06+01:00' }), NOW).remainingMs,
      1000,
    );
    assert.equal(tokenExpiration(tokenSecret('abc123', { expiration: 'tomorrow' }), NOW).expired, true);
  });

  it('signs only with a well-formed, unexpired token marked for signing', () => {
    assert.deepEqual(tokenForSigning(tokenSecret('abc123'), NOW), {
      id: 'abc123',
      secret: '0123456789abcdef',
    });
    assert.equal(tokenForSigning(tokenSecret('abc123', {}, 'bootstrap-token-zzz999'), NOW), undefined);
    assert.equal(
      tokenForSigning(tokenSecret('abc123', { 'usage-bootstrap-signing': 'True' }), NOW),
      undefined,
    );
    assert.equal(tokenForSigning(tokenSecret('abc123', { 'token-secret': '' }), NOW), undefined);
    assert.equal(
      tokenForSigning(tokenSecret('abc123', { expiration: '2020-01-01T00:00:00Z' }), NOW),
      undefined,
    );
    assert.equal(
      tokenForSigning({ metadata: { name: 'bootstrap-token-abc123' }, data: null }, NOW),
      undefined,
    );
    assert.equal(
      tokenForSigning({ metadata: { name: 'bootstrap-token-abc123' }, data: { 'token-id': 7 } }, NOW),
      undefined,
    );
    assert.equal(tokenForSigning({}, NOW), undefined);
  });
});

describe('signedClusterInfoData', () => {
  const keys = { configKey: 'platconfig', signaturePrefix: 'jws-platconfig-' };
  const a = { id: 'aaaaaa', secret: '0123456789abcdef' };
  const b = { id: 'bbbbbb', secret: 'fedcba9876543210' };
  const config = 'apiVersion: v1\nkind: Config\n';

  it('adds a signature per token and keeps the other keys', () => {
    const next = signedClusterInfoData({ platconfig: config, other: 'x' }, [a, b], keys);
    assert.deepEqual(next, {
      platconfig: config,
      other: 'x',
      'jws-platconfig-aaaaaa': computeDetachedSignature(config, a.id, a.secret),
      'jws-platconfig-bbbbbb': computeDetachedSignature(config, b.id, b.secret),
    });
  });

  it('writes nothing when every signature is current', () => {
    const signed = signedClusterInfoData({ platconfig: config }, [a], keys);
    assert.equal(signedClusterInfoData(signed, [a], keys), undefined);
  });

  it('replaces a wrong signature and removes stale ones', () => {
    const data = {
      platconfig: config,
      'jws-platconfig-aaaaaa': 'forged..sig',
      'jws-platconfig-cccccc': 'old..sig',
    };
    assert.deepEqual(signedClusterInfoData(data, [a], keys), {
      platconfig: config,
      'jws-platconfig-aaaaaa': computeDetachedSignature(config, a.id, a.secret),
    });
    assert.deepEqual(signedClusterInfoData(data, [], keys), { platconfig: config });
  });

  it('re-signs when the configuration changes', () => {
    const signed = signedClusterInfoData({ platconfig: config }, [a], keys) ?? {};
    const next = signedClusterInfoData({ ...signed, platconfig: `${config}#` }, [a], keys);
    assert.equal(next?.['jws-platconfig-aaaaaa'], computeDetachedSignature(`${config}#`, a.id, a.secret));
  });

  it('leaves a ConfigMap without a configuration, or with odd data, alone', () => {
    assert.equal(signedClusterInfoData({ 'jws-platconfig-aaaaaa': 'x..y' }, [a], keys), undefined);
    assert.equal(signedClusterInfoData(undefined, [a], keys), undefined);
    assert.equal(signedClusterInfoData({ platconfig: 5 }, [a], keys), undefined);
  });
});
