import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parse } from 'yaml';
import { renderClientConfig } from './index.ts';

it('renders a client configuration with embedded certificate data and one current context', () => {
  const text = renderClientConfig({
    clusterName: 'plat',
    server: 'https://127.0.0.1:6443',
    caPem: 'CA',
    userName: 'admin',
    clientCertPem: 'CERT',
    clientKeyPem: 'KEY',
  });
  const doc = parse(text);
  assert.equal(doc.kind, 'Config');
  assert.equal(doc['current-context'], 'admin@plat');
  assert.deepEqual(doc.clusters[0], {
    name: 'plat',
    cluster: {
      server: 'https://127.0.0.1:6443',
      'certificate-authority-data': Buffer.from('CA').toString('base64'),
    },
  });
  assert.equal(Buffer.from(doc.users[0].user['client-key-data'], 'base64').toString(), 'KEY');
  assert.deepEqual(doc.contexts[0].context, { cluster: 'plat', user: 'admin' });
});
