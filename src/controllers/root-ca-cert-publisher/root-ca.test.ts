// The CA bundle the publisher and the token controller hand out: RootCAFile when set (checked to
// hold certificates only, upstream's message naming the file), the client's CA otherwise; and when
// a published ConfigMap already says what it should.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { labelKey, namingProfile } from '../../naming/index.ts';
import { createCa } from '../../server/pki/generate.ts';
import { checkCertificatesPem, publishedConfigMapCurrent, rootCAOf } from './index.ts';

describe('root CA bundle', () => {
  let dir: string;
  let pem: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'root-ca-'));
    pem = (await createCa('test-ca', 1)).certPem;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads RootCAFile, or falls back to the client CA', () => {
    const file = join(dir, 'ca.crt');
    writeFileSync(file, pem);
    assert.equal(rootCAOf({ config: { SAController: { RootCAFile: file } }, clientCA: 'other' }), pem);
    assert.equal(rootCAOf({ config: { SAController: {} }, clientCA: 'client' }), 'client');
    assert.equal(rootCAOf({ config: undefined }), '');
  });

  it('refuses a file without certificates, naming it', () => {
    const file = join(dir, 'bad.crt');
    writeFileSync(file, 'not a certificate');
    assert.throws(
      () => rootCAOf({ config: { SAController: { RootCAFile: file } } }),
      new RegExp(
        `^Error: error parsing root-ca-file at ${file}: data does not contain any valid RSA or ECDSA certificates$`,
      ),
    );
    assert.throws(
      () => rootCAOf({ config: { SAController: { RootCAFile: join(dir, 'missing') } } }),
      /error parsing root-ca-file at .*missing: ENOENT/,
    );
    assert.throws(
      () => checkCertificatesPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
      /failed to parse certificate/,
    );
    checkCertificatesPem(`${pem}\n${pem}`);
  });

  it('knows a current ConfigMap: exactly ca.crt and a description', () => {
    const ann = labelKey(namingProfile('spec'), 'description');
    const cm = { metadata: { annotations: { [ann]: 'x' } }, data: { 'ca.crt': pem } };
    assert.ok(publishedConfigMapCurrent(cm, pem, ann));
    assert.ok(!publishedConfigMapCurrent({ ...cm, data: { 'ca.crt': 'old' } }, pem, ann));
    assert.ok(!publishedConfigMapCurrent({ ...cm, data: { 'ca.crt': pem, extra: '' } }, pem, ann));
    assert.ok(!publishedConfigMapCurrent({ ...cm, metadata: { annotations: { [ann]: '' } } }, pem, ann));
    assert.ok(!publishedConfigMapCurrent({ metadata: {}, data: null }, pem, ann));
  });
});
