// The bootstrap signer against an in-process server through the real client and informers: the
// cluster-info ConfigMap of the public namespace gets one detached JWS per signing token, each
// verified with jose exactly as 2-authn-authz.md tells a joining machine to; tokens not marked for
// signing or expired sign nothing; a deleted token's signature goes, one whose expiry passes goes
// without any other change, and a new configuration is signed again.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compactVerify } from 'jose';
import type { ApiObject } from '../../machinery/object.ts';
import { bootstrapTokenSecretType, componentName, namingProfile } from '../../naming/index.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { CONFIG_MAPS, SECRETS } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { bootstrapSignerDescriptor } from './index.ts';

const spec = namingProfile('spec');
const PUBLIC = componentName(spec, 'public');
const SYSTEM = componentName(spec, 'system');
const CONFIG =
  'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:6443\n  name: ""\n';

function token(id: string, secret: string, extra: Record<string, string> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: SYSTEM },
    type: bootstrapTokenSecretType(spec),
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-signing': 'true', ...extra },
  };
}

/** Verifies a detached signature as the spec describes: payload back between the periods, HS256, full token. */
async function verifies(detached: string, content: string, fullToken: string): Promise<boolean> {
  const [header, empty, sig] = detached.split('.');
  if (empty !== '') return false;
  const jws = `${header}.${Buffer.from(content).toString('base64url')}.${sig}`;
  try {
    await compactVerify(jws, new TextEncoder().encode(fullToken), { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

const signatureKeys = (cm: ApiObject | undefined) =>
  Object.keys((cm?.data as Record<string, string> | undefined) ?? {})
    .filter((k) => k.startsWith('jws-platconfig-'))
    .sort();

describe('bootstrap signer', () => {
  let h: ControllerHarness;
  const clusterInfo = () => h.client.resource(CONFIG_MAPS, PUBLIC).get('cluster-info');
  const secrets = () => h.client.resource(SECRETS, SYSTEM);

  before(async () => {
    h = await startControllerHarness();
    await h.client.resource(CONFIG_MAPS, PUBLIC).create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: PUBLIC },
      data: { platconfig: CONFIG },
    });
    await secrets().create(token('aaaaaa', '0123456789abcdef'));
    await secrets().create(token('bbbbbb', '0123456789abcdef', { 'usage-bootstrap-signing': 'false' }));
    await secrets().create(token('cccccc', '0123456789abcdef', { expiration: '2001-01-01T00:00:00Z' }));
    await h.start(bootstrapSignerDescriptor);
  });
  after(async () => h?.stop());

  it('is named as upstream and off by default', () => {
    assert.equal(bootstrapSignerDescriptor.name, 'bootstrap-signer-controller');
    assert.deepEqual(bootstrapSignerDescriptor.aliases, ['bootstrapsigner']);
    assert.equal(bootstrapSignerDescriptor.enabledByDefault, false);
    assert.equal(bootstrapSignerDescriptor.serviceAccountName, 'bootstrap-signer');
  });

  it('signs with each signing token, verifiable as the spec describes', async () => {
    const cm = await waitFor(clusterInfo, (c) => signatureKeys(c).length > 0, 'a signature');
    assert.deepEqual(signatureKeys(cm), ['jws-platconfig-aaaaaa']);
    const sig = (cm.data as Record<string, string>)['jws-platconfig-aaaaaa'];
    assert.ok(await verifies(sig, CONFIG, 'aaaaaa.0123456789abcdef'));
    assert.ok(!(await verifies(sig, CONFIG, '0123456789abcdef')), 'the secret alone is not the key');
    assert.equal((cm.data as Record<string, string>).platconfig, CONFIG);
  });

  it('adds and removes signatures as tokens come and go', async () => {
    await secrets().create(token('dddddd', 'fedcba9876543210'));
    await waitFor(
      clusterInfo,
      (c) => signatureKeys(c).join() === 'jws-platconfig-aaaaaa,jws-platconfig-dddddd',
      'a second signature',
    );
    await secrets().delete('bootstrap-token-aaaaaa');
    const cm = await waitFor(
      clusterInfo,
      (c) => signatureKeys(c).join() === 'jws-platconfig-dddddd',
      'the deleted token signs no more',
    );
    const sig = (cm.data as Record<string, string>)['jws-platconfig-dddddd'];
    assert.ok(await verifies(sig, CONFIG, 'dddddd.fedcba9876543210'));
  });

  it('re-signs a changed configuration and removes a forged signature', async () => {
    const cm = await clusterInfo();
    const changed = `${CONFIG}# changed\n`;
    await h.client.resource(CONFIG_MAPS, PUBLIC).update({
      ...cm,
      data: {
        ...(cm.data as Record<string, string>),
        platconfig: changed,
        'jws-platconfig-zzzzzz': 'forged..sig',
      },
    });
    const signed = await waitFor(
      clusterInfo,
      (c) =>
        signatureKeys(c).join() === 'jws-platconfig-dddddd' &&
        (c.data as Record<string, string>).platconfig === changed &&
        (c.data as Record<string, string>)['jws-platconfig-dddddd'] !==
          (cm.data as Record<string, string>)['jws-platconfig-dddddd'],
      'the new configuration signed',
    );
    const sig = (signed.data as Record<string, string>)['jws-platconfig-dddddd'];
    assert.ok(await verifies(sig, changed, 'dddddd.fedcba9876543210'));
  });

  it("drops a token's signature once its expiry passes", async () => {
    const expiration = new Date(Date.now() + 3000).toISOString().replace(/\.\d+Z$/, 'Z');
    await secrets().create(token('eeeeee', '0123456789abcdef', { expiration }));
    await waitFor(
      clusterInfo,
      (c) => signatureKeys(c).includes('jws-platconfig-eeeeee'),
      'the short-lived token signs',
    );
    await waitFor(
      clusterInfo,
      (c) => signatureKeys(c).join() === 'jws-platconfig-dddddd',
      'the expired token signs no more',
    );
    assert.ok(Date.now() >= Date.parse(expiration));
  });
});
