// The chain from the options: upstream's flag rules and messages, and --authorization-config
// (decoding, validation messages with field paths, reload keeping the old file when the new one
// is invalid, match conditions and failure policy through the test webhook).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseApiserverFlags } from '../../cmd/apiserver-flags.ts';
import { decodeAuthorizationConfig } from './authorization-config.ts';
import { validateAuthorizationConfig } from './authorization-config-validation.ts';
import { buildAuthorization } from './config.ts';
import { startAuthzWebhook, type TestAuthzWebhook } from './testing/webhook-authorizer.ts';
import type { Attributes } from './types.ts';

const attrs = (username: string, over: Partial<Attributes> = {}): Attributes => ({
  user: { username, groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  ...over,
});

describe('authorization flags', () => {
  const fails = (argv: string[], message: string) =>
    assert.throws(
      () => {
        const o = parseApiserverFlags(argv, 'apiserver');
        buildAuthorization({ ...o.authorization, modes: o.authorizationModes }).close();
      },
      (err: Error) => {
        assert.equal(err.message, message);
        return true;
      },
    );

  it('parses the flags with upstream defaults', () => {
    const o = parseApiserverFlags(
      ['--authorization-mode=Node,Webhook', '--authorization-webhook-config-file=/w.yaml'],
      'apiserver',
    );
    assert.deepEqual(o.authorizationModes, ['Node', 'Webhook']);
    assert.deepEqual(o.authorization, {
      policyFile: undefined,
      configFile: undefined,
      webhook: {
        configFile: '/w.yaml',
        version: 'v1beta1',
        authorizedTtlMs: 300_000,
        unauthorizedTtlMs: 30_000,
      },
    });
    const none = parseApiserverFlags([], 'apiserver');
    assert.equal(none.authorization?.webhook, undefined);
  });

  it('refuses what upstream refuses, with its messages', () => {
    fails(['--authorization-mode=ABAC'], "authorization-mode ABAC's authorization policy file not passed");
    fails(
      ['--authorization-mode=Webhook'],
      "authorization-mode Webhook's authorization config file not passed",
    );
    fails(['--authorization-policy-file=/p'], 'cannot specify --authorization-policy-file without mode ABAC');
    fails(
      ['--authorization-mode=RBAC', '--authorization-webhook-config-file=/w'],
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    );
    fails(
      ['--authorization-mode=AlwaysAllow,AlwaysAllow'],
      'authorization-mode ["AlwaysAllow" "AlwaysAllow"] has mode specified more than once',
    );
    fails(
      ['--authorization-mode=ABAC,ABAC'],
      `[authorization-mode ABAC's authorization policy file not passed, authorization-mode ABAC's authorization policy file not passed, authorization-mode ["ABAC" "ABAC"] has mode specified more than once]`,
    );
    const both =
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined';
    fails(['--authorization-config=/c', '--authorization-mode=RBAC'], both);
    fails(['--authorization-config=/c', '--authorization-webhook-cache-authorized-ttl=1m'], both);
    assert.throws(
      () => parseApiserverFlags(['--authorization-mode=Bogus'], 'apiserver'),
      /"Bogus" is not a valid mode/,
    );
    assert.throws(
      () => parseApiserverFlags(['--authorization-webhook-version=v2'], 'apiserver'),
      /must be "v1" or "v1beta1"/,
    );
  });

  it('RBAC needs the factory the server gives; Node has no opinion', async () => {
    assert.throws(() => buildAuthorization({ modes: ['RBAC'] }), /RBAC is not available/);
    const a = buildAuthorization({ modes: ['Node'] });
    assert.equal((await a.authorizer.authorize(attrs('alice'))).decision, 'noOpinion');
    assert.equal(
      (
        await a.authorizer.authorize({
          ...attrs('admin'),
          user: { username: 'admin', groups: ['system:masters'] },
        })
      ).decision,
      'allow',
    );
  });
});

describe('AuthorizationConfiguration', () => {
  let dir: string;
  let webhook: TestAuthzWebhook;
  let clientConfig: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authz-config-'));
    webhook = await startAuthzWebhook((r) =>
      r.spec.user === 'alice'
        ? { status: { allowed: true } }
        : { status: { allowed: false, reason: 'webhook says no' } },
    );
    clientConfig = webhook.writeClientConfig(dir);
  });
  after(async () => {
    await webhook.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const webhookEntry = (extra: string[] = []) => [
    '- type: Webhook',
    '  name: remote',
    '  webhook:',
    '    timeout: 3s',
    '    subjectAccessReviewVersion: v1',
    '    matchConditionSubjectAccessReviewVersion: v1',
    '    failurePolicy: Deny',
    '    connectionInfo:',
    '      type: ClientConfigFile',
    `      clientConfigFile: ${clientConfig}`,
    ...extra,
  ];
  const file = (lines: string[], group = 'apiserver.config.svc.io/v1') =>
    [`apiVersion: ${group}`, 'kind: AuthorizationConfiguration', 'authorizers:', ...lines, ''].join('\n');
  const invalid = (lines: string[]) => {
    try {
      validateAuthorizationConfig(decodeAuthorizationConfig(file(lines)));
    } catch (err) {
      return (err as Error).message;
    }
    return '';
  };

  it('decodes in the profile group and the upstream one, with upstream defaults', () => {
    for (const g of ['apiserver.config.svc.io/v1', 'apiserver.config.k8s.io/v1beta1']) {
      const c = decodeAuthorizationConfig(file(webhookEntry(), g));
      const w = c.authorizers[0].webhook;
      assert.equal(w?.authorizedTTL, 300_000);
      assert.equal(w?.unauthorizedTTL, 30_000);
      assert.equal(w?.cacheAuthorizedRequests, true);
      assert.equal(w?.timeout, 3000);
    }
    assert.throws(
      () => decodeAuthorizationConfig(file([], 'apiserver.config.svc.io/v2')),
      /no kind "AuthorizationConfiguration" is registered/,
    );
    assert.throws(
      () => decodeAuthorizationConfig(file(['- type: RBAC', '  name: rbac', '  extra: 1'])),
      /unknown field "authorizers\[0\].extra"/,
    );
  });

  it('validates with upstream field paths and messages', () => {
    assert.equal(
      invalid(['- type: RBAC', '  name: rbac', '- type: RBAC', '  name: rbac2']),
      'authorizers[1].type: Duplicate value: "RBAC"',
    );
    assert.equal(
      invalid(['- type: Magic', '  name: m']),
      'authorizers[0].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
    );
    assert.equal(
      invalid(['- type: RBAC', '  name: rbac-x']),
      'expected name rbac for authorizer RBAC instead of rbac-x',
    );
    assert.equal(
      invalid(['- type: Webhook', '  name: w']),
      'authorizers[0].webhook: Required value: required when type=Webhook',
    );
    const w = webhookEntry().map((l) =>
      l.replace('timeout: 3s', 'timeout: 45s').replace('failurePolicy: Deny', 'failurePolicy: Maybe'),
    );
    assert.equal(
      invalid(w),
      '[authorizers[0].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s, authorizers[0].webhook.failurePolicy: Unsupported value: "Maybe": supported values: "NoOpinion", "Deny"]',
    );
    const noVersion = webhookEntry(['    matchConditions:', '    - expression: "true"']).filter(
      (l) => !l.includes('matchConditionSubjectAccessReviewVersion'),
    );
    assert.equal(
      invalid(noVersion),
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
    );
    const badExpr = invalid(webhookEntry(['    matchConditions:', '    - expression: request.nope == 1']));
    assert.match(
      badExpr,
      /^authorizers\[0\]\.webhook\.matchConditions\[0\]\.expression: Invalid value: "request\.nope == 1": compilation failed: /,
    );
    const many = [
      '    matchConditions:',
      ...Array.from({ length: 65 }, (_, i) => `    - expression: "${i} > 0"`),
    ];
    assert.equal(
      invalid(webhookEntry(many)),
      'authorizers[0].webhook.matchConditions: Too many: 65: must have at most 64 items',
    );
    const relative = webhookEntry().map((l) =>
      l.replace(`clientConfigFile: ${clientConfig}`, 'clientConfigFile: rel.yaml'),
    );
    assert.equal(
      invalid(relative),
      'authorizers[0].webhook.connectionInfo.clientConfigFile: Invalid value: "rel.yaml": must be an absolute path',
    );
    assert.equal(invalid([]), 'authorizers: Required value: at least one authorization mode must be defined');
  });

  it('builds the chain in order, and match conditions gate the webhook', async () => {
    const path = join(dir, 'order.yaml');
    writeFileSync(
      path,
      file([
        ...webhookEntry(['    matchConditions:', `    - expression: "request.user != 'skipme'"`]),
        '- type: AlwaysDeny',
        '  name: alwaysdeny',
      ]),
    );
    const a = buildAuthorization({ configFile: path });
    try {
      assert.equal((await a.authorizer.authorize(attrs('alice'))).decision, 'allow');
      const bob = await a.authorizer.authorize(attrs('bob'));
      assert.deepEqual(bob, { decision: 'noOpinion', reason: 'webhook says no\nEverything is forbidden.' });
      const before = webhook.seen.length;
      const skipped = await a.authorizer.authorize(attrs('skipme'));
      assert.deepEqual(skipped, { decision: 'noOpinion', reason: 'Everything is forbidden.' });
      assert.equal(webhook.seen.length, before);
    } finally {
      a.close();
    }
  });

  it('reloads a valid new file, keeps the old one when the new one is invalid, and counts both', async () => {
    const path = join(dir, 'reload.yaml');
    writeFileSync(path, file(['- type: AlwaysDeny', '  name: alwaysdeny']));
    const logs: string[] = [];
    const a = buildAuthorization({ configFile: path, log: (m) => logs.push(m), reloadIntervalMs: 3_600_000 });
    try {
      assert.equal((await a.authorizer.authorize(attrs('carol'))).decision, 'noOpinion');
      writeFileSync(path, file(['- type: AlwaysAllow', '  name: alwaysallow']));
      await a.reloader?.check();
      assert.equal((await a.authorizer.authorize(attrs('carol'))).decision, 'allow');
      assert.equal(a.reloader?.metrics.reloadsTotal.success, 1);
      writeFileSync(path, file(['- type: AlwaysAllow', '  name: wrong']));
      await a.reloader?.check();
      assert.equal((await a.authorizer.authorize(attrs('carol'))).decision, 'allow');
      assert.equal(a.reloader?.metrics.reloadsTotal.failure, 1);
      assert.ok(
        logs.some((l) => l.includes('failed to load authorization config: expected name alwaysallow')),
        logs.join('\n'),
      );
    } finally {
      a.close();
    }
  });

  it('a bad file stops the start', () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, file(['- type: RBAC']));
    assert.throws(() => buildAuthorization({ configFile: path }), /authorizers\[0\]\.name: Required value/);
    assert.throws(
      () => buildAuthorization({ configFile: join(dir, 'missing.yaml') }),
      /failed to read authorization config file/,
    );
  });
});
