import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentName, namingProfile } from '../naming/profile.ts';
import { FlagError, parseApiserverFlags } from './apiserver-flags.ts';

const parse = (...argv: string[]) =>
  parseApiserverFlags(argv, componentName(namingProfile('spec'), 'apiserver'));

describe('authentication flags', () => {
  it("defaults are kube-apiserver's", () => {
    const a = parse().authentication;
    assert.equal(a?.serviceAccount?.lookup, true);
    assert.equal(a?.serviceAccount?.extendTokenExpiration, true);
    assert.equal(a?.serviceAccount?.keyFiles, undefined);
    assert.equal(a?.enableBootstrapTokenAuth, false);
    assert.equal(a?.oidc, undefined);
    assert.equal(a?.tokenWebhook, undefined);
    assert.equal(a?.requestHeader, undefined);
  });

  it('repeatable flags add up; comma lists split; required claims merge', () => {
    const a = parse(
      '--service-account-key-file=a.pem',
      '--service-account-key-file',
      'b.pem',
      '--service-account-issuer=https://one',
      '--service-account-issuer=https://two',
      '--service-account-max-token-expiration=48h',
      '--service-account-lookup=false',
      '--api-audiences=x,y',
      '--api-audiences=z',
      '--enable-bootstrap-token-auth',
      '--oidc-issuer-url=https://issuer',
      '--oidc-client-id=kube',
      '--oidc-username-prefix=-',
      '--oidc-required-claim=hd=example.com',
      '--oidc-required-claim=team=a,tier=b',
      '--oidc-signing-algs=RS256,ES256',
      '--authentication-token-webhook-config-file=w.yaml',
      '--authentication-token-webhook-version=v1',
      '--requestheader-client-ca-file=proxy-ca.pem',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    ).authentication;
    assert.deepEqual(a?.serviceAccount?.keyFiles, ['a.pem', 'b.pem']);
    assert.deepEqual(a?.serviceAccount?.issuers, ['https://one', 'https://two']);
    assert.equal(a?.serviceAccount?.maxTokenExpirationMs, 48 * 3600_000);
    assert.equal(a?.serviceAccount?.lookup, false);
    assert.deepEqual(a?.apiAudiences, ['x', 'y', 'z']);
    assert.equal(a?.enableBootstrapTokenAuth, true);
    assert.deepEqual(a?.oidc, {
      issuerUrl: 'https://issuer',
      clientId: 'kube',
      caFile: undefined,
      usernameClaim: 'sub',
      usernamePrefix: '-',
      groupsClaim: undefined,
      groupsPrefix: undefined,
      requiredClaims: { hd: 'example.com', team: 'a', tier: 'b' },
      signingAlgs: ['RS256', 'ES256'],
    });
    assert.deepEqual(a?.tokenWebhook, { configFile: 'w.yaml', cacheTtlMs: 120_000, version: 'v1' });
    assert.deepEqual(a?.requestHeader?.usernameHeaders, ['X-Remote-User']);
    assert.deepEqual(a?.requestHeader?.extraHeaderPrefixes, ['X-Remote-Extra-']);
  });

  it('any --oidc-* flag brings the OIDC section, so a client id without an issuer can be refused', () => {
    const stray = parse('--oidc-client-id=kube').authentication?.oidc;
    assert.equal(stray?.issuerUrl, '');
    assert.equal(stray?.clientId, 'kube');
    assert.equal(parse('--oidc-username-claim=email').authentication?.oidc?.usernameClaim, 'email');
  });

  it('tells whether --anonymous-auth was given, whatever its value', () => {
    assert.equal(parse().authentication?.anonymousAuthGiven, false);
    assert.equal(parse('--anonymous-auth=true').authentication?.anonymousAuthGiven, true);
  });

  it('malformed values are flag errors', () => {
    assert.throws(() => parse('--authentication-token-webhook-version=v2'), FlagError);
    assert.throws(() => parse('--oidc-required-claim=novalue'), FlagError);
    assert.throws(() => parse('--service-account-max-token-expiration=soon'), FlagError);
  });
});
