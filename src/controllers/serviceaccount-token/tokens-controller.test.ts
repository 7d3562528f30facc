// The service account token controller against an in-process server through the real client and
// informers, signing with the server's own service account key: a token Secret gets a legacy token
// the server accepts, the namespace and the CA; tokens of accounts that are gone (or have another
// uid) are deleted, an account deleted takes its tokens, a token deleted leaves its account's
// list; no key file leaves the controller off; a bad one stops it with upstream's message.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { GENERATED_SIGNING_KEY_FILE } from '../../auth/authn/service-account-setup.ts';
import { RestClient } from '../../client/rest-client.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { groupName, labelKey, namingProfile } from '../../naming/index.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { SECRETS, SERVICE_ACCOUNTS } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { serviceAccountTokenControllerDescriptor } from './index.ts';

const NS = 'default';
const spec = namingProfile('spec');
const TYPE = labelKey(spec, 'service-account-token');
const NAME_ANN = labelKey(spec, 'service-account.name');
const UID_ANN = labelKey(spec, 'service-account.uid');
/** Prefix of a legacy token's claims. */
const CLAIM = labelKey(spec, 'serviceaccount/');
const AUTHENTICATION = groupName(spec, 'authentication');
const text = (s: ApiObject | undefined, k: string) => {
  const v = (s?.data as Record<string, string> | undefined)?.[k];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
};

function tokenSecret(name: string, sa: string, annotations: Record<string, string> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: NS, annotations: { [NAME_ANN]: sa, ...annotations } },
    type: TYPE,
  };
}

describe('service account token controller', () => {
  let h: ControllerHarness;
  const secrets = () => h.client.resource(SECRETS, NS);
  const accounts = () => h.client.resource(SERVICE_ACCOUNTS, NS);
  const find = async (name: string) => {
    try {
      return await secrets().get(name);
    } catch {
      return undefined;
    }
  };

  before(async () => {
    h = await startControllerHarness();
    await h.start(serviceAccountTokenControllerDescriptor, {
      SAController: {
        ServiceAccountKeyFile: join(h.api.dir, GENERATED_SIGNING_KEY_FILE),
        ConcurrentSATokenSyncs: 2,
      },
    });
  });
  after(async () => h?.stop());

  it('is named as upstream and runs with the manager credentials', () => {
    assert.equal(serviceAccountTokenControllerDescriptor.name, 'serviceaccount-token-controller');
    assert.deepEqual(serviceAccountTokenControllerDescriptor.aliases, ['serviceaccount-token']);
    assert.equal(serviceAccountTokenControllerDescriptor.rootCredentials, true);
  });

  it('fills in a token Secret with a legacy token the server accepts', async () => {
    const sa = await accounts().create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'builder' },
    });
    await secrets().create(tokenSecret('builder-token', 'builder'));
    const secret = await waitFor(
      () => find('builder-token'),
      (s) => text(s, 'token') !== undefined,
      'the token filled in',
    );
    assert.equal(text(secret, 'namespace'), NS);
    assert.equal(text(secret, 'ca.crt'), h.caPem);
    assert.equal(secret?.metadata?.annotations?.[UID_ANN], sa.metadata?.uid);
    const jwt = text(secret, 'token') ?? '';
    assert.deepEqual(decodeJwt(jwt), {
      iss: 'kubernetes/serviceaccount',
      [`${CLAIM}namespace`]: NS,
      [`${CLAIM}secret.name`]: 'builder-token',
      [`${CLAIM}service-account.name`]: 'builder',
      [`${CLAIM}service-account.uid`]: sa.metadata?.uid,
      sub: 'system:serviceaccount:default:builder',
    });
    assert.equal(decodeProtectedHeader(jwt).alg, 'RS256');
    const { server, caPem } = { server: h.api.server.url, caPem: h.caPem };
    const asToken = new RestClient({
      server,
      caPem,
      credentials: { current: async () => ({ token: jwt }), unauthorized() {} },
    });
    try {
      const review = await asToken
        .resource({ group: AUTHENTICATION, version: 'v1', resource: 'selfsubjectreviews' })
        .create({ apiVersion: `${AUTHENTICATION}/v1`, kind: 'SelfSubjectReview' });
      assert.equal(
        (review.status as { userInfo: { username: string } }).userInfo.username,
        'system:serviceaccount:default:builder',
      );
    } finally {
      asToken.close();
    }
  });

  it('deletes tokens whose account is gone or has another uid, and those of a deleted account', async () => {
    await secrets().create(tokenSecret('orphan-token', 'nobody'));
    await accounts().create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'runner' } });
    await secrets().create(tokenSecret('stale-token', 'runner', { [UID_ANN]: 'not-the-uid' }));
    await secrets().create(tokenSecret('runner-token', 'runner'));
    await waitUntil(async () => (await find('orphan-token')) === undefined, 'the orphan token deleted');
    await waitUntil(async () => (await find('stale-token')) === undefined, 'the other-uid token deleted');
    await waitUntil(
      async () => text(await find('runner-token'), 'token') !== undefined,
      'runner-token filled in',
    );
    await accounts().delete('runner');
    await waitUntil(
      async () => (await find('runner-token')) === undefined,
      "the deleted account's token deleted",
    );
  });

  it("takes a deleted token out of its account's secrets", async () => {
    await accounts().create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'lister' },
      secrets: [{ name: 'lister-token' }, { name: 'other' }],
    });
    await secrets().create(tokenSecret('lister-token', 'lister'));
    await waitUntil(
      async () => text(await find('lister-token'), 'token') !== undefined,
      'lister-token filled in',
    );
    await secrets().delete('lister-token');
    const sa = await waitFor(
      () => accounts().get('lister'),
      (a) => JSON.stringify(a.secrets) === JSON.stringify([{ name: 'other' }]),
      'the reference removed',
    );
    assert.deepEqual(sa.secrets, [{ name: 'other' }]);
  });

  it('stays off without a key file and refuses a bad one', async () => {
    const before = h.logs.length;
    const off = await serviceAccountTokenControllerDescriptor.start(h.context({ SAController: {} }));
    await off.stop();
    assert.ok(h.logs.slice(before).some((l) => /disabled because there is no private key/.test(l.msg)));
    const bad = join(h.api.dir, 'bad.key');
    writeFileSync(bad, 'no key here');
    await assert.rejects(
      serviceAccountTokenControllerDescriptor.start(
        h.context({ SAController: { ServiceAccountKeyFile: bad } }),
      ),
      /^Error: error reading key for service account token controller: data does not contain a valid RSA or ECDSA private key$/,
    );
  });
});
