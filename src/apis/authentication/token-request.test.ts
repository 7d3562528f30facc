import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { statusOf } from '../../machinery/status.ts';
import { namingProfile } from '../../naming/profile.ts';
import {
  EXPIRATION_EXTENSION_SECONDS,
  type TokenRequestIssuer,
  tokenRequestAction,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
} from './token-request.ts';

type IssueArgs = Parameters<TokenRequestIssuer['issue']>[0];

function harness(over: Partial<TokenRequestIssuer> = {}) {
  const issued: IssueArgs[] = [];
  const warnings: string[] = [];
  const objects = new Map<string, ApiObject>([
    ['serviceaccounts/ns/sa', { metadata: { name: 'sa', uid: 'sa-uid' } }],
    [
      'pods/ns/p',
      { metadata: { name: 'p', uid: 'p-uid' }, spec: { serviceAccountName: 'sa', nodeName: 'n1' } },
    ],
    ['pods/ns/other', { metadata: { name: 'other', uid: 'o-uid' }, spec: { serviceAccountName: 'x' } }],
    ['secrets/ns/s', { metadata: { name: 's', uid: 's-uid' } }],
    ['nodes//n2', { metadata: { name: 'n2', uid: 'n2-uid' } }],
  ]);
  const issuer: TokenRequestIssuer = {
    apiAudiences: ['api'],
    maxExpirationSeconds: 0,
    extendExpiration: true,
    async issue(r) {
      issued.push(r);
      return { token: 'tok', issuedAt: 1_700_000_000 };
    },
    ...over,
  };
  const action = tokenRequestAction(namingProfile('spec'), issuer);
  const create = (spec: Record<string, unknown>, name = 'sa', metadata: Record<string, unknown> = {}) =>
    action.create({
      namespace: 'ns',
      name,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec },
      get: async (_g, _v, resource, namespace, n) => objects.get(`${resource}/${namespace}/${n}`),
      warn: (t) => warnings.push(t),
    });
  return { action, create, issued, warnings };
}

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    const s = statusOf(err);
    return `${s.code} ${s.reason}: ${s.message}`;
  }
  return 'no error';
};

describe('TokenRequest', () => {
  it('defaults audiences to the API and the lifetime to an hour; answers in the group it was asked in', async () => {
    const { create, issued } = harness();
    const out = (await create({})) as ApiObject & { spec: unknown; status: unknown };
    assert.equal(out.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(out.metadata, {
      name: 'sa',
      namespace: 'ns',
      creationTimestamp: '2023-11-14T22:13:20Z',
    });
    assert.deepEqual(out.spec, { audiences: ['api'], expirationSeconds: 3600 });
    assert.deepEqual(out.status, { token: 'tok', expirationTimestamp: '2023-11-14T23:13:20Z' });
    assert.deepEqual(issued[0], {
      namespace: 'ns',
      serviceAccount: { name: 'sa', uid: 'sa-uid' },
      audiences: ['api'],
      expirationSeconds: 3600,
      warnAfterSeconds: 0,
    });
  });

  it('the schema is served in the profile group with upstream as an alias', () => {
    const { action } = harness();
    assert.equal(action.schema.group, 'authentication.svc.io');
    assert.deepEqual(
      action.aliases?.map((s) => s.group),
      ['authentication.k8s.io'],
    );
  });

  it('lifetimes under ten minutes or over 2^32 seconds are invalid; the maximum shortens with a warning', async () => {
    const { create } = harness();
    assert.equal(
      await failure(create({ expirationSeconds: 599 })),
      '422 Invalid: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    assert.match(await failure(create({ expirationSeconds: 2 ** 32 + 1 })), /larger than 2\^32 seconds/);
    const capped = harness({ maxExpirationSeconds: 7200 });
    const out = (await capped.create({ expirationSeconds: 86400 })) as {
      spec: { expirationSeconds: number };
    };
    assert.equal(out.spec.expirationSeconds, 7200);
    assert.deepEqual(capped.warnings, ['requested expiration of 86400 seconds shortened to 7200 seconds']);
  });

  it('a pod-bound 3607 s token for the API is issued for a year with warnafter; status keeps the nominal expiry', async () => {
    const { create, issued } = harness();
    const out = (await create({
      expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'p-uid' },
    })) as { status: { expirationTimestamp: string } };
    assert.equal(issued[0].expirationSeconds, EXPIRATION_EXTENSION_SECONDS);
    assert.equal(issued[0].warnAfterSeconds, 3607);
    assert.deepEqual(issued[0].pod, { name: 'p', uid: 'p-uid' });
    assert.deepEqual(issued[0].node, { name: 'n1', uid: '' });
    assert.equal(out.status.expirationTimestamp, '2023-11-14T23:13:27Z');
    await create({
      audiences: ['elsewhere'],
      expirationSeconds: 3607,
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' },
    });
    assert.equal(issued[1].expirationSeconds, 3607);
    const off = harness({ extendExpiration: false });
    await off.create({
      expirationSeconds: 3607,
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' },
    });
    assert.equal(off.issued[0].expirationSeconds, 3607);
  });

  it('binds to Secrets and Nodes; refuses other kinds, foreign pods, missing objects and stale uids', async () => {
    const { create, issued } = harness();
    await create({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's' } });
    assert.deepEqual(issued[0].secret, { name: 's', uid: 's-uid' });
    await create({ boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n2', uid: 'n2-uid' } });
    assert.deepEqual(issued[1].node, { name: 'n2', uid: 'n2-uid' });
    assert.equal(
      await failure(create({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } })),
      '400 BadRequest: cannot bind token to object of type /v1, Kind=ConfigMap',
    );
    assert.equal(
      await failure(create({ boundObjectRef: { kind: 'Pod', apiVersion: 'apps/v1', name: 'p' } })),
      '400 BadRequest: cannot bind token to object of type apps/v1, Kind=Pod',
    );
    assert.equal(
      await failure(create({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } })),
      '400 BadRequest: cannot bind token for serviceaccount "sa" to pod running with different serviceaccount name.',
    );
    assert.equal(
      await failure(create({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } })),
      '404 NotFound: pods "gone" not found',
    );
    assert.equal(
      await failure(create({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'old' } })),
      '409 Conflict: Operation cannot be fulfilled on Secret "s": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
  });

  it('a missing service account is 404; a body naming another one is invalid', async () => {
    const { create } = harness();
    assert.equal(await failure(create({}, 'nobody')), '404 NotFound: serviceaccounts "nobody" not found');
    assert.equal(
      await failure(create({}, 'sa', { name: 'other' })),
      '422 Invalid: TokenRequest.authentication.k8s.io "sa" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    );
  });
});
