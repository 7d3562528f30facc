// The AuthenticationConfiguration file: strict decoding in the profile's group (and upstream's),
// every validation rule with upstream's field paths, CEL claim mappings and validation rules
// against a test issuer, and reloads (a valid change applied, an invalid one refused with the old
// authenticators kept, both counted).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { namingProfile } from '../../naming/index.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { decodeAuthenticationConfig, type JwtAuthenticatorConfig } from './authentication-config.ts';
import { selectsClaim } from './authentication-config-cel.ts';
import { validateAuthenticationConfiguration } from './authentication-config-validation.ts';
import { type JwtSetup, setUpJwtAuthenticators } from './jwt-setup.ts';
import { TestOidcIssuer } from './testing/oidc-issuer.ts';
import type { TokenResult } from './types.ts';

const quiet = () => {};
const FAST = { retryIntervalMs: 20, minRefreshIntervalMs: 0 };
const API_VERSION = 'apiserver.config.svc.io/v1';

function errorsOf(jwt: Partial<JwtAuthenticatorConfig>[], extra: Record<string, unknown> = {}): string[] {
  const c = decodeAuthenticationConfig(
    JSON.stringify({ apiVersion: API_VERSION, kind: 'AuthenticationConfiguration', jwt, ...extra }),
  );
  return validateAuthenticationConfiguration(c, { disallowedIssuers: ['https://sa.example'] }).errors.map(
    (e) => `${e.field}: ${e.type}: ${e.detail}`,
  );
}

const good = (o: Partial<JwtAuthenticatorConfig> = {}): Partial<JwtAuthenticatorConfig> => ({
  issuer: { url: 'https://issuer.example', audiences: ['a'] },
  claimMappings: { username: { claim: 'sub', prefix: '' } },
  ...o,
});

describe('AuthenticationConfiguration decoding', () => {
  it('reads the profile group at v1, v1beta1 and v1alpha1, and the upstream-named group', () => {
    for (const v of [
      'apiserver.config.svc.io/v1',
      'apiserver.config.svc.io/v1beta1',
      'apiserver.config.k8s.io/v1alpha1',
    ]) {
      const c = decodeAuthenticationConfig(`apiVersion: ${v}\nkind: AuthenticationConfiguration\njwt: []\n`);
      assert.deepEqual(c.jwt, []);
    }
    assert.throws(
      () => decodeAuthenticationConfig('apiVersion: apiserver.config.svc.io/v1\nkind: X\n'),
      /no kind "X" is registered for version "apiserver.config.svc.io\/v1"/,
    );
    assert.throws(
      () =>
        decodeAuthenticationConfig(
          'apiVersion: apiserver.config.svc.io/v2\nkind: AuthenticationConfiguration\n',
        ),
      /no kind/,
    );
    // Under the upstream profile, only upstream's group exists.
    assert.throws(
      () =>
        decodeAuthenticationConfig(
          `apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\n`,
          namingProfile('upstream'),
        ),
      /no kind/,
    );
    assert.throws(() => decodeAuthenticationConfig(''), /empty config data/);
  });

  it('refuses unknown fields, repeated keys and wrong types', () => {
    const head = `apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\n`;
    assert.throws(
      () => decodeAuthenticationConfig(`${head}jwt:\n- issuer:\n    url: https://x\n    bogus: 1\n`),
      /strict decoding error: unknown field "jwt\[0\]\.issuer\.bogus"/,
    );
    assert.throws(() => decodeAuthenticationConfig(`${head}jwt: []\njwt: []\n`), /yaml:/);
    assert.throws(
      () => decodeAuthenticationConfig(`${head}anonymous:\n  enabled: "yes"\n`),
      /cannot unmarshal string into Go struct field anonymous\.enabled of type bool/,
    );
  });
});

describe('AuthenticationConfiguration validation', () => {
  it('accepts a minimal authenticator', () => {
    assert.deepEqual(errorsOf([good()]), []);
  });

  it('limits authenticators to 64', () => {
    const many = Array.from({ length: 65 }, (_, i) =>
      good({ issuer: { url: `https://i${i}.example`, audiences: ['a'] } }),
    );
    assert.deepEqual(errorsOf(many), ['jwt: FieldValueTooMany: must have at most 64 items']);
  });

  it('issuer url: required, https, no user, query or fragment, unique, not a service account issuer', () => {
    const url = (u: string) => good({ issuer: { url: u, audiences: ['a'] } });
    assert.deepEqual(errorsOf([url('')]), ['jwt[0].issuer.url: FieldValueRequired: ']);
    assert.deepEqual(errorsOf([url('http://x')]), [
      'jwt[0].issuer.url: FieldValueInvalid: URL scheme must be https',
    ]);
    assert.deepEqual(errorsOf([url('https://u:p@x')]), [
      'jwt[0].issuer.url: FieldValueInvalid: URL must not contain a username or password',
    ]);
    assert.deepEqual(errorsOf([url('https://x?a=b')]), [
      'jwt[0].issuer.url: FieldValueInvalid: URL must not contain a query',
    ]);
    assert.deepEqual(errorsOf([url('https://x#f')]), [
      'jwt[0].issuer.url: FieldValueInvalid: URL must not contain a fragment',
    ]);
    assert.deepEqual(errorsOf([url('https://x'), url('https://x')]), [
      'jwt[1].issuer.url: FieldValueDuplicate: ',
    ]);
    assert.deepEqual(errorsOf([url('https://sa.example')]), [
      'jwt[0].issuer.url: FieldValueInvalid: URL must not overlap with disallowed issuers: [https://sa.example]',
    ]);
  });

  it('discoveryURL: https, distinct from url, unique', () => {
    const d = (url: string, discoveryURL: string) =>
      good({ issuer: { url, discoveryURL, audiences: ['a'] } });
    assert.deepEqual(errorsOf([d('https://x', 'https://x/')]), [
      'jwt[0].issuer.discoveryURL: FieldValueInvalid: discoveryURL must be different from URL',
    ]);
    assert.deepEqual(errorsOf([d('https://x', 'http://y')]), [
      'jwt[0].issuer.discoveryURL: FieldValueInvalid: URL scheme must be https',
    ]);
    assert.deepEqual(errorsOf([d('https://x', 'https://d'), d('https://y', 'https://d')]), [
      'jwt[1].issuer.discoveryURL: FieldValueDuplicate: ',
    ]);
  });

  it('audiences: at least one, non-empty, unique; MatchAny with several', () => {
    const a = (audiences: string[], audienceMatchPolicy?: string) =>
      good({
        issuer: { url: 'https://x', audiences, ...(audienceMatchPolicy ? { audienceMatchPolicy } : {}) },
      });
    assert.deepEqual(errorsOf([a([])]), [
      'jwt[0].issuer.audiences: FieldValueRequired: at least one jwt[0].issuer.audiences is required',
    ]);
    assert.deepEqual(errorsOf([a(['', 'b'], 'MatchAny')]), [
      'jwt[0].issuer.audiences[0]: FieldValueRequired: ',
    ]);
    assert.deepEqual(errorsOf([a(['b', 'b'], 'MatchAny')]), [
      'jwt[0].issuer.audiences[1]: FieldValueDuplicate: ',
    ]);
    assert.deepEqual(errorsOf([a(['a', 'b'])]), [
      'jwt[0].issuer.audienceMatchPolicy: FieldValueInvalid: audienceMatchPolicy must be MatchAny for multiple audiences',
    ]);
    assert.deepEqual(errorsOf([a(['a'], 'Other')]), [
      'jwt[0].issuer.audienceMatchPolicy: FieldValueInvalid: audienceMatchPolicy must be empty or MatchAny for single audience',
    ]);
    assert.deepEqual(errorsOf([a(['a', 'b'], 'MatchAny')]), []);
  });

  it('certificateAuthority must hold certificates; egressSelectorType is controlplane or cluster', () => {
    assert.deepEqual(
      errorsOf([good({ issuer: { url: 'https://x', audiences: ['a'], certificateAuthority: 'junk' } })]),
      [
        'jwt[0].issuer.certificateAuthority: FieldValueInvalid: data does not contain any valid RSA or ECDSA certificates',
      ],
    );
    assert.deepEqual(
      errorsOf([good({ issuer: { url: 'https://x', audiences: ['a'], egressSelectorType: 'other' } })]),
      [
        'jwt[0].issuer.egressSelectorType: FieldValueInvalid: egress selector must be either controlplane or cluster',
      ],
    );
  });

  it('claimValidationRules: claim or expression, not both; message only with expression; bool only', () => {
    const r = (rules: unknown[]) => errorsOf([good({ claimValidationRules: rules as never })]);
    assert.deepEqual(r([{ claim: 'a', expression: 'true' }]), [
      "jwt[0].claimValidationRules[0]: FieldValueInvalid: claim and expression can't both be set",
    ]);
    assert.deepEqual(r([{}]), [
      'jwt[0].claimValidationRules[0]: FieldValueRequired: claim or expression is required',
    ]);
    assert.deepEqual(r([{ claim: 'a', message: 'm' }]), [
      'jwt[0].claimValidationRules[0].message: FieldValueInvalid: may not be specified when claim is set',
    ]);
    assert.deepEqual(r([{ claim: 'a' }, { claim: 'a' }]), [
      'jwt[0].claimValidationRules[1].claim: FieldValueDuplicate: ',
    ]);
    assert.deepEqual(r([{ expression: 'true', requiredValue: 'x' }]), [
      'jwt[0].claimValidationRules[0].requiredValue: FieldValueInvalid: may not be specified when expression is set',
    ]);
    assert.deepEqual(r([{ expression: 'claims.x' }]), [
      'jwt[0].claimValidationRules[0].expression: FieldValueInvalid: must evaluate to bool',
    ]);
    const [compileError] = r([{ expression: 'claims.x ==' }]);
    assert.match(
      compileError,
      /^jwt\[0\]\.claimValidationRules\[0\]\.expression: FieldValueInvalid: compilation failed: ERROR: <input>:1:/,
    );
  });

  it('claimMappings: username required; claim needs a prefix; expression takes none; uid claim or expression', () => {
    const m = (claimMappings: unknown) => errorsOf([good({ claimMappings: claimMappings as never })]);
    assert.deepEqual(m({ username: {} }), [
      'jwt[0].claimMappings.username: FieldValueRequired: claim or expression is required',
    ]);
    assert.deepEqual(m({ username: { claim: 'sub' } }), [
      'jwt[0].claimMappings.username.prefix: FieldValueRequired: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ]);
    assert.deepEqual(m({ username: { claim: 'sub', expression: 'claims.sub', prefix: '' } }), [
      "jwt[0].claimMappings.username: FieldValueInvalid: claim and expression can't both be set",
    ]);
    assert.deepEqual(m({ username: { expression: 'claims.sub', prefix: 'x' } }), [
      'jwt[0].claimMappings.username.prefix: FieldValueInvalid: may not be specified when expression is set',
    ]);
    assert.deepEqual(m({ username: { claim: 'sub', prefix: '' }, groups: { claim: 'g' } }), [
      'jwt[0].claimMappings.groups.prefix: FieldValueRequired: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ]);
    assert.deepEqual(
      m({ username: { claim: 'sub', prefix: '' }, uid: { claim: 'u', expression: 'claims.u' } }),
      ["jwt[0].claimMappings.uid: FieldValueInvalid: claim and expression can't both be set"],
    );
    assert.deepEqual(m({ username: { expression: 'user.username' } }).length, 1);
  });

  it('extra: domain-prefixed, lowercase, unique keys outside the reserved domains, with a value expression', () => {
    const x = (extra: unknown[]) =>
      errorsOf([good({ claimMappings: { username: { claim: 'sub', prefix: '' }, extra: extra as never } })]);
    assert.deepEqual(x([{ key: 'example.org/a', valueExpression: 'claims.a' }]), []);
    assert.deepEqual(x([{ key: 'foo', valueExpression: 'claims.a' }]), [
      'jwt[0].claimMappings.extra[0].key: FieldValueInvalid: must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
    assert.deepEqual(x([{ key: 'example.org/A', valueExpression: 'claims.a' }]), [
      'jwt[0].claimMappings.extra[0].key: FieldValueInvalid: must be lowercase',
    ]);
    for (const key of ['svc.io/a', 'x.platform.io/a', 'k8s.io/a', 'authentication.kubernetes.io/a']) {
      const [e] = x([{ key, valueExpression: 'claims.a' }]);
      assert.match(
        e,
        /^jwt\[0\]\.claimMappings\.extra\[0\]\.key: FieldValueInvalid: svc\.io, platform\.io, k8s\.io, kubernetes\.io and their subdomains are reserved/,
      );
    }
    assert.deepEqual(
      x([
        { key: 'example.org/a', valueExpression: 'claims.a' },
        { key: 'example.org/a', valueExpression: 'claims.b' },
      ]),
      ['jwt[0].claimMappings.extra[1].key: FieldValueDuplicate: '],
    );
    assert.deepEqual(x([{ key: 'example.org/a' }]), [
      'jwt[0].claimMappings.extra[0].valueExpression: FieldValueRequired: ',
    ]);
  });

  it('a username expression using claims.email needs claims.email_verified somewhere', () => {
    const e = (username: string, more: Partial<JwtAuthenticatorConfig> = {}) =>
      errorsOf([good({ claimMappings: { username: { expression: username } }, ...more })]);
    assert.deepEqual(e('claims.email'), [
      'jwt[0].claimMappings.username.expression: FieldValueInvalid: claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
    ]);
    assert.deepEqual(e('claims.?email.orValue("")').length, 1);
    assert.deepEqual(e('claims.email_verified ? claims.email : ""'), []);
    assert.deepEqual(
      e('claims.email', {
        claimValidationRules: [{ expression: 'claims.?email_verified.orValue(false) == true' }],
      }),
      [],
    );
    // A claim only named in a string, or another claim, is not a use.
    assert.deepEqual(e('"claims.email" + claims.sub'), []);
    assert.equal(selectsClaim('x.claims.email', 'email'), false);
    assert.equal(selectsClaim('claims . ? email', 'email'), true);
    assert.equal(selectsClaim('claims.emails', 'email'), false);
  });

  it('userValidationRules: an expression over user, bool, unique', () => {
    const u = (rules: unknown[]) => errorsOf([good({ userValidationRules: rules as never })]);
    assert.deepEqual(u([{ expression: '' }]), [
      'jwt[0].userValidationRules[0].expression: FieldValueRequired: ',
    ]);
    assert.deepEqual(u([{ expression: 'true' }, { expression: 'true' }]), [
      'jwt[0].userValidationRules[1].expression: FieldValueDuplicate: ',
    ]);
    assert.deepEqual(u([{ expression: 'user.username' }]), [
      'jwt[0].userValidationRules[0].expression: FieldValueInvalid: must evaluate to bool',
    ]);
    assert.match(u([{ expression: 'claims.sub == ""' }])[0], /undeclared reference to 'claims'/);
    assert.deepEqual(u([{ expression: "!user.username.startsWith('system:')" }]), []);
  });

  it('anonymous: conditions need enabled', () => {
    assert.deepEqual(errorsOf([], { anonymous: { enabled: false, conditions: [{ path: '/livez' }] } }), [
      'anonymous.conditions: FieldValueInvalid: enabled should be set to true when conditions are defined',
    ]);
    assert.deepEqual(errorsOf([], { anonymous: { enabled: true, conditions: [{ path: '/livez' }] } }), []);
  });
});

describe('AuthenticationConfiguration with a test issuer', () => {
  let issuer: TestOidcIssuer;
  let dir: string;
  const setups: JwtSetup[] = [];
  before(async () => {
    issuer = await TestOidcIssuer.start({ path: '/tenant' });
    dir = mkdtempSync(join(tmpdir(), 'authn-config-'));
  });
  after(async () => {
    for (const s of setups) s.close();
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const jwt = (o: Record<string, unknown> = {}) => ({
    issuer: { url: issuer.url, audiences: ['platform'], certificateAuthority: issuer.caPem },
    claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
    ...o,
  });
  const write = (name: string, doc: Record<string, unknown>) => {
    const file = join(dir, name);
    writeFileSync(file, stringify({ apiVersion: API_VERSION, kind: 'AuthenticationConfiguration', ...doc }));
    return file;
  };
  async function start(file: string, more: Record<string, unknown> = {}): Promise<JwtSetup> {
    const s = setUpJwtAuthenticators({
      configFile: file,
      provider: FAST,
      log: quiet,
      reloadIntervalMs: 3_600_000,
      reloadReadyTimeoutMs: 5_000,
      ...more,
    });
    setups.push(s);
    await Promise.all(s.tokens!.members.map((m) => m.provider.ready));
    return s;
  }
  const user = (r: TokenResult) => {
    assert.ok(r !== null && 'user' in r, JSON.stringify(r));
    return r.user;
  };
  const refused = (r: TokenResult, pattern: RegExp) => {
    assert.ok(r !== null && 'error' in r, `expected a refusal, got ${JSON.stringify(r)}`);
    assert.match(r.error, pattern);
  };

  it('claim mappings with prefixes, several audiences, a discovery URL elsewhere', async () => {
    const s = await start(
      write('claims.yaml', {
        jwt: [
          jwt({
            issuer: {
              url: issuer.url,
              discoveryURL: issuer.altDiscoveryUrl,
              audiences: ['platform', 'other'],
              audienceMatchPolicy: 'MatchAny',
              certificateAuthority: issuer.caPem,
            },
            claimMappings: {
              username: { claim: 'sub', prefix: 'oidc:' },
              groups: { claim: 'roles', prefix: 'r:' },
              uid: { claim: 'oid' },
            },
          }),
        ],
      }),
    );
    const u = user(
      await s.tokens!.authenticateToken(await issuer.issue('other', { roles: ['x'], oid: '42' })),
    );
    assert.deepEqual(u, { username: 'oidc:jane', groups: ['r:x'], uid: '42' });
    assert.ok(issuer.fetchesOf('/discovery/elsewhere') > 0);
    refused(
      await s.tokens!.authenticateToken(await issuer.issue('third')),
      /expected audience in \["other" "platform"\] got \["third"\]/,
    );
  });

  it('CEL mappings: username, groups, uid and extra from claims; integers are ints', async () => {
    const s = await start(
      write('cel.yaml', {
        jwt: [
          jwt({
            claimMappings: {
              username: { expression: "'u:' + claims.sub + ':' + string(claims.level + 1)" },
              groups: { expression: "claims.roles.map(r, 'g:' + r)" },
              uid: { expression: 'claims.oid' },
              extra: [
                { key: 'example.org/tenant', valueExpression: 'claims.tenant' },
                { key: 'example.org/empty', valueExpression: "''" },
              ],
            },
          }),
        ],
      }),
    );
    const u = user(
      await s.tokens!.authenticateToken(
        await issuer.issue('platform', { level: 2, roles: ['a', 'b'], oid: 'x1', tenant: 't' }),
      ),
    );
    assert.deepEqual(u, {
      username: 'u:jane:3',
      groups: ['g:a', 'g:b'],
      uid: 'x1',
      extra: { 'example.org/tenant': ['t'] },
    });
    // An evaluation error (a missing claim) refuses the token.
    refused(
      await s.tokens!.authenticateToken(
        await issuer.issue('platform', { roles: [], oid: 'x1', tenant: 't' }),
      ),
      /oidc: error evaluating username claim expression: expression '.*' resulted in error: no such key: level/,
    );
    // A result of the wrong type too.
    refused(
      await s.tokens!.authenticateToken(
        await issuer.issue('platform', { level: 1, roles: [], oid: 7, tenant: 't' }),
      ),
      /uid claim expression must return a string/,
    );
  });

  it('an empty username from an expression is refused', async () => {
    const s = await start(
      write('empty.yaml', {
        jwt: [jwt({ claimMappings: { username: { expression: "claims.?name.orValue('')" } } })],
      }),
    );
    refused(
      await s.tokens!.authenticateToken(await issuer.issue('platform')),
      /empty username via CEL expression is not allowed/,
    );
    assert.equal(
      user(await s.tokens!.authenticateToken(await issuer.issue('platform', { name: 'n' }))).username,
      'n',
    );
  });

  it('claim validation rules and user validation rules refuse with their messages', async () => {
    const s = await start(
      write('rules.yaml', {
        jwt: [
          jwt({
            claimValidationRules: [
              { claim: 'hd', requiredValue: 'example.com' },
              { expression: 'claims.exp - claims.iat <= 7200', message: 'token lives too long' },
            ],
            userValidationRules: [
              { expression: "!user.username.startsWith('oidc:system:')", message: 'no system users' },
            ],
          }),
        ],
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    assert.ok(user(await s.tokens!.authenticateToken(await issuer.issue('platform', { hd: 'example.com' }))));
    refused(
      await s.tokens!.authenticateToken(await issuer.issue('platform')),
      /required claim hd not present/,
    );
    refused(
      await s.tokens!.authenticateToken(
        await issuer.issue('platform', { hd: 'example.com', exp: now + 10_000 }),
      ),
      /oidc: error evaluating claim validation expression: validation expression 'claims.exp - claims.iat <= 7200' failed: token lives too long/,
    );
    refused(
      await s.tokens!.authenticateToken(
        await issuer.issue('platform', { hd: 'example.com', sub: 'system:admin' }),
      ),
      /oidc: error evaluating user info validation rule: validation expression .* failed: no system users/,
    );
  });

  it('the email_verified rule: a username expression on email with the verification checked', async () => {
    const s = await start(
      write('email.yaml', {
        jwt: [
          jwt({
            claimMappings: { username: { expression: 'claims.email' } },
            claimValidationRules: [
              { expression: 'claims.?email_verified.orValue(false) == true', message: 'email not verified' },
            ],
          }),
        ],
      }),
    );
    assert.equal(
      user(
        await s.tokens!.authenticateToken(
          await issuer.issue('platform', { email: 'a@b.c', email_verified: true }),
        ),
      ).username,
      'a@b.c',
    );
    refused(
      await s.tokens!.authenticateToken(await issuer.issue('platform', { email: 'a@b.c' })),
      /email not verified/,
    );
  });

  it('a bad file stops the start with its field path; so does the anonymous section beside --anonymous-auth', () => {
    assert.throws(
      () =>
        setUpJwtAuthenticators({
          configFile: write('bad.yaml', { jwt: [jwt({ issuer: { url: 'http://x', audiences: ['a'] } })] }),
          log: quiet,
        }),
      /^AuthenticationConfigError: invalid authentication configuration: jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https$/,
    );
    assert.throws(
      () => setUpJwtAuthenticators({ configFile: join(dir, 'missing.yaml'), log: quiet }),
      /failed to load authentication configuration from file ".*missing.yaml": ENOENT/,
    );
    const anon = write('anon.yaml', { anonymous: { enabled: true, conditions: [{ path: '/livez' }] } });
    assert.throws(
      () => setUpJwtAuthenticators({ configFile: anon, anonymousFlagSet: true, log: quiet }),
      /anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file/,
    );
    const s = setUpJwtAuthenticators({ configFile: anon, log: quiet });
    setups.push(s);
    assert.deepEqual(s.anonymous, { enabled: true, conditions: [{ path: '/livez' }] });
  });

  it('reloads: a valid change is applied, an invalid one refused with the old kept, both counted', async () => {
    const file = write('reload.yaml', { jwt: [jwt()] });
    const s = await start(file);
    const metrics = s.metrics!;
    const token = await issuer.issue('platform');
    assert.equal(user(await s.tokens!.authenticateToken(token)).username, 'oidc:jane');

    write('reload.yaml', { jwt: [jwt({ claimMappings: { username: { claim: 'sub', prefix: 'new:' } } })] });
    await s.reload!();
    assert.equal(metrics.reloadsTotal.success, 1);
    assert.ok(metrics.lastReloadTimestampSeconds.success !== undefined);
    assert.equal(user(await s.tokens!.authenticateToken(token)).username, 'new:jane');

    write('reload.yaml', { jwt: [jwt({ claimMappings: { username: { claim: 'sub' } } })] });
    await s.reload!();
    assert.equal(metrics.reloadsTotal.failure, 1);
    assert.equal(user(await s.tokens!.authenticateToken(token)).username, 'new:jane');
    // The refused text is not tried again.
    await s.reload!();
    assert.equal(metrics.reloadsTotal.failure, 1);

    // The anonymous section may not change on reload.
    write('reload.yaml', { jwt: [jwt()], anonymous: { enabled: true } });
    await s.reload!();
    assert.equal(metrics.reloadsTotal.failure, 2);
    assert.equal(user(await s.tokens!.authenticateToken(token)).username, 'new:jane');
  });

  it('reloads on a change of the file without being asked', async () => {
    const file = write('watched.yaml', { jwt: [jwt()] });
    const s = await start(file, { reloadIntervalMs: 200 });
    write('watched.yaml', {
      jwt: [jwt({ claimMappings: { username: { claim: 'sub', prefix: 'watched:' } } })],
    });
    const token = await issuer.issue('platform');
    await waitUntil(() => s.metrics!.reloadsTotal.success > 0, 'the change to be picked up');
    assert.equal(user(await s.tokens!.authenticateToken(token)).username, 'watched:jane');
  });
});
