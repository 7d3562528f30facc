import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { BootstrapTokenAuthenticator, bootstrapNames, parseRfc3339 } from './bootstrap-token.ts';
import type { ObjectReader } from './types.ts';

const names = bootstrapNames(namingProfile('spec'));
const NOW = Date.parse('2030-01-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(
  over: { name?: string; type?: string; data?: Record<string, string>; deleting?: boolean } = {},
) {
  const data: Record<string, string> = {
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-authentication': 'true',
    ...over.data,
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: over.name ?? 'bootstrap-token-abcdef',
      namespace: names.namespace,
      ...(over.deleting ? { deletionTimestamp: '2029-01-01T00:00:00Z' } : {}),
    },
    type: over.type ?? names.secretType,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

function reader(...objs: Record<string, unknown>[]): ObjectReader & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async get(group, version, resource, namespace, name) {
      asked.push(`${group}/${version}/${resource}/${namespace}/${name}`);
      return objs.find((o) => {
        const m = o.metadata as { name: string; namespace: string };
        return m.name === name && m.namespace === namespace;
      });
    },
  };
}

const TOKEN = 'abcdef.0123456789abcdef';
const auth = (...objs: Record<string, unknown>[]) =>
  new BootstrapTokenAuthenticator(reader(...objs), names, () => NOW);

describe('bootstrap tokens', () => {
  it("names from the profile: bootstrap.<label domain>/token in the profile's system namespace", () => {
    for (const p of [namingProfile('spec'), namingProfile('upstream')])
      assert.deepEqual(bootstrapNames(p), {
        secretType: `bootstrap.${p.labelDomain}/token`,
        namespace: `${p.componentPrefix}system`,
      });
  });

  it('a good token is system:bootstrap:<id> in system:bootstrappers plus the extra groups, sorted', async () => {
    const r = reader(
      secret({ data: { 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a:b-c' } }),
    );
    const a = new BootstrapTokenAuthenticator(r, names, () => NOW);
    assert.deepEqual(await a.authenticateToken(TOKEN), {
      user: {
        username: 'system:bootstrap:abcdef',
        groups: ['system:bootstrappers', 'system:bootstrappers:a:b-c', 'system:bootstrappers:worker'],
      },
    });
    assert.deepEqual(r.asked, [`/v1/secrets/${names.namespace}/bootstrap-token-abcdef`]);
  });

  it('tokens not of the form are not looked up', async () => {
    const r = reader(secret());
    const a = new BootstrapTokenAuthenticator(r, names, () => NOW);
    for (const t of [
      'abcdef.0123456789abcde',
      'ABCDEF.0123456789abcdef',
      'abcdef0123456789abcdef',
      `${TOKEN}\n`,
      '',
    ])
      assert.equal(await a.authenticateToken(t), null, t);
    assert.deepEqual(r.asked, []);
  });

  it('refuses: no Secret, being deleted, another type, another secret or id, not for authentication', async () => {
    assert.equal(await auth().authenticateToken(TOKEN), null);
    assert.equal(await auth(secret({ deleting: true })).authenticateToken(TOKEN), null);
    assert.equal(await auth(secret({ type: 'Opaque' })).authenticateToken(TOKEN), null);
    assert.equal(
      await auth(secret({ type: bootstrapNames(namingProfile('upstream')).secretType })).authenticateToken(
        TOKEN,
      ),
      null,
    );
    assert.equal(
      await auth(secret({ data: { 'token-secret': 'ffffffffffffffff' } })).authenticateToken(TOKEN),
      null,
    );
    assert.equal(
      await auth(secret({ data: { 'token-secret': '0123456789abcdef0' } })).authenticateToken(TOKEN),
      null,
    );
    assert.equal(await auth(secret({ data: { 'token-id': 'zzzzzz' } })).authenticateToken(TOKEN), null);
    assert.equal(
      await auth(secret({ data: { 'usage-bootstrap-authentication': 'True' } })).authenticateToken(TOKEN),
      null,
    );
    assert.equal(
      await auth(secret({ data: { 'usage-bootstrap-authentication': '' } })).authenticateToken(TOKEN),
      null,
    );
  });

  it('expiration: past, now, and unparsable refuse; future and absent accept', async () => {
    const withExp = (e: string) => auth(secret({ data: { expiration: e } })).authenticateToken(TOKEN);
    assert.equal(await withExp('2029-12-31T23:59:59Z'), null);
    assert.equal(await withExp('2030-01-01T00:00:00Z'), null);
    assert.equal(await withExp('2030-01-01'), null);
    assert.equal(await withExp('tomorrow'), null);
    assert.ok((await withExp('2030-01-01T00:00:01Z')) !== null);
    assert.ok((await withExp('2030-01-01T01:00:00.5+01:00')) !== null);
    assert.equal(await withExp('2030-01-01T00:59:59+01:00'), null);
  });

  it('a malformed extra group refuses the token', async () => {
    for (const g of [
      'system:bootstrappers:',
      'system:bootstrappers:UPPER',
      'system:masters',
      'system:bootstrappers:a,',
      'system:bootstrappers:a-',
    ])
      assert.equal(
        await auth(secret({ data: { 'auth-extra-groups': g } })).authenticateToken(TOKEN),
        null,
        g,
      );
    const long = `system:bootstrappers:${'a'.repeat(256)}`;
    assert.ok(
      (await auth(secret({ data: { 'auth-extra-groups': long } })).authenticateToken(TOKEN)) !== null,
    );
    assert.equal(
      await auth(secret({ data: { 'auth-extra-groups': `${long}a` } })).authenticateToken(TOKEN),
      null,
    );
  });

  it('parses RFC 3339 as Go does', () => {
    assert.equal(parseRfc3339('2030-01-01T00:00:00Z'), NOW);
    assert.equal(parseRfc3339('2030-01-01T02:00:00+02:00'), NOW);
    assert.equal(parseRfc3339('2029-12-31T23:00:00.999-01:00'), NOW + 999);
    for (const bad of [
      '2030-02-30T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2030-01-01 00:00:00Z',
      '2030-01-01T00:00:00',
      '2030-01-01t00:00:00z',
    ])
      assert.equal(parseRfc3339(bad), undefined, bad);
  });
});
