import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { loadWebhookClientConfig } from '../authn/webhook-client-config.ts';
import { compileMatchCondition } from './match-conditions.ts';
import {
  type Answer,
  type Review,
  startAuthzWebhook,
  type TestAuthzWebhook,
} from './testing/webhook-authorizer.ts';
import type { Attributes } from './types.ts';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.ts';

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } },
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: '',
  ...over,
});

const FAST = { initialMs: 1, factor: 1, jitter: 0, steps: 5 };

/** Answers by user name: the test's users each stand for one behaviour of a webhook. */
function rule(r: Review): Answer {
  const spec = r.spec;
  const user = String(spec.user ?? '');
  switch (user) {
    case 'alice':
      return { status: { allowed: true, reason: 'alice may' } };
    case 'bob':
      return { status: { allowed: false, denied: true, reason: 'bob may not' } };
    case 'carol':
      return { status: { allowed: false, reason: 'no idea about carol' } };
    case 'both':
      return { status: { allowed: true, denied: true } };
    case 'spec-group':
      return {
        status: { allowed: true },
        apiVersion: `${groupName(namingProfile('spec'), 'authorization')}/v1`,
      };
    case 'garbage':
      return { raw: '{"status": {"allowed": tr' };
    case 'bad-type':
      return { status: { allowed: 'yes' } };
    case 'error500':
      return { raw: 'oops', code: 500 };
    case 'hang':
      return 'hang';
    default:
      return { status: { allowed: false } };
  }
}

describe('webhook authorizer', () => {
  let dir: string;
  let webhook: TestAuthzWebhook;
  let configFile: string;
  const made: WebhookAuthorizer[] = [];
  const make = (o: Partial<WebhookAuthorizerOptions> = {}) => {
    const w = new WebhookAuthorizer({
      config: loadWebhookClientConfig(configFile),
      version: 'v1',
      authorizedTtlMs: 300_000,
      unauthorizedTtlMs: 30_000,
      backoff: FAST,
      ...o,
    });
    made.push(w);
    return w;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authz-webhook-'));
    webhook = await startAuthzWebhook(rule);
    configFile = webhook.writeClientConfig(dir);
  });
  after(async () => {
    for (const w of made) w.close();
    await webhook.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a v1 review in the upstream group with every attribute, and allows on allowed', async () => {
    const w = make();
    const fieldSelector = [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }];
    const labelSelector = [{ key: 'app', operator: 'Exists' }];
    const v = await w.authorize(attrs({ fieldSelector, labelSelector }));
    assert.deepEqual(v, { decision: 'allow', reason: 'alice may' });
    const sent = webhook.seen.at(-1);
    assert.equal(sent?.apiVersion, 'authorization.k8s.io/v1');
    assert.equal(sent?.kind, 'SubjectAccessReview');
    assert.deepEqual(sent?.spec, {
      resourceAttributes: {
        namespace: 'ns',
        verb: 'list',
        version: 'v1',
        resource: 'pods',
        fieldSelector: { requirements: fieldSelector },
        labelSelector: { requirements: labelSelector },
      },
      user: 'alice',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a'] },
      uid: 'u1',
    });
  });

  it('sends v1beta1 with its `group` field, and non-resource attributes', async () => {
    const w = make({ version: 'v1beta1' });
    const v = await w.authorize(attrs({ isResourceRequest: false, verb: 'get', path: '/metrics' }));
    assert.equal(v.decision, 'allow');
    const sent = webhook.seen.at(-1);
    assert.equal(sent?.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(sent?.spec, {
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
      user: 'alice',
      group: ['dev', 'system:authenticated'],
      extra: { scopes: ['a'] },
      uid: 'u1',
    });
  });

  it('denied denies, neither is no opinion with the reason, both is a deny with an error', async () => {
    const w = make();
    const user = (username: string) => ({ user: { username, groups: [] } });
    assert.deepEqual(await w.authorize(attrs(user('bob'))), { decision: 'deny', reason: 'bob may not' });
    assert.deepEqual(await w.authorize(attrs(user('carol'))), {
      decision: 'noOpinion',
      reason: 'no idea about carol',
    });
    const both = await w.authorize(attrs(user('both')));
    assert.equal(both.decision, 'deny');
    assert.match(both.error ?? '', /both allow and deny/);
  });

  it('reads answers in the profile group too', async () => {
    const v = await make().authorize(attrs({ user: { username: 'spec-group', groups: [] } }));
    assert.equal(v.decision, 'allow');
  });

  it('remembers allowed answers for the authorized TTL and the others for the unauthorized TTL', async () => {
    let now = 1_000;
    const w = make({ now: () => now, authorizedTtlMs: 10_000, unauthorizedTtlMs: 1_000 });
    const count = (user: string) =>
      webhook.seen.filter(
        (r) =>
          r.spec.user === user &&
          r.spec.resourceAttributes !== undefined &&
          (r.spec.resourceAttributes as { name?: string }).name === 'cache',
      ).length;
    const ask = (username: string) =>
      w.authorize(attrs({ user: { username, groups: [] }, name: 'cache', verb: 'get' }));
    await ask('alice');
    await ask('alice');
    await ask('carol');
    await ask('carol');
    assert.equal(count('alice'), 1);
    assert.equal(count('carol'), 1);
    now += 2_000;
    await ask('alice');
    await ask('carol');
    assert.equal(count('alice'), 1);
    assert.equal(count('carol'), 2);
    now += 10_000;
    await ask('alice');
    assert.equal(count('alice'), 2);
  });

  it('caching can be switched off per kind of answer', async () => {
    const w = make({ cacheAuthorized: false });
    const before = webhook.seen.length;
    await w.authorize(attrs({ name: 'nocache', verb: 'get' }));
    await w.authorize(attrs({ name: 'nocache', verb: 'get' }));
    assert.equal(webhook.seen.length - before, 2);
  });

  it('failures follow the failure policy and carry the error; they are not remembered', async () => {
    const noOpinion = make();
    const deny = make({ failurePolicy: 'Deny' });
    for (const username of ['garbage', 'bad-type', 'error500']) {
      const a = attrs({ user: { username, groups: [] } });
      const v1 = await noOpinion.authorize(a);
      assert.equal(v1.decision, 'noOpinion', username);
      assert.ok(v1.error, username);
      const v2 = await deny.authorize(a);
      assert.equal(v2.decision, 'deny', username);
      assert.ok(v2.error, username);
    }
    // 500 is retried as upstream retries it: five attempts.
    const calls = webhook.seen.filter((r) => r.spec.user === 'error500').length;
    assert.equal(calls, 10);
  });

  it('a webhook that does not answer ends at the timeout with the failure policy', async () => {
    const w = make({ timeoutMs: 200, failurePolicy: 'Deny', backoff: { ...FAST, steps: 1 } });
    const v = await w.authorize(attrs({ user: { username: 'hang', groups: [] } }));
    assert.equal(v.decision, 'deny');
    assert.match(v.error ?? '', /deadline exceeded/);
  });

  it('match conditions: false skips the webhook, all true call it, an error follows the failure policy', async () => {
    const compiled = (e: string) => {
      const r = compileMatchCondition(e);
      assert.ok(r.ok, e);
      return r.program;
    };
    const conds = [
      compiled("has(request.resourceAttributes) && request.resourceAttributes.namespace == 'ns'"),
      compiled("'dev' in request.groups"),
    ];
    const w = make({ matchConditions: conds, failurePolicy: 'Deny' });
    const before = webhook.seen.length;
    assert.equal((await w.authorize(attrs({ namespace: 'other', name: 'mc' }))).decision, 'noOpinion');
    assert.equal(webhook.seen.length, before);
    assert.equal((await w.authorize(attrs({ name: 'mc' }))).decision, 'allow');
    assert.equal(webhook.seen.length, before + 1);
    const failing = make({
      matchConditions: [compiled('request.extra["missing"][0] == "x"')],
      failurePolicy: 'Deny',
    });
    const v = await failing.authorize(attrs({ name: 'mc2' }));
    assert.equal(v.decision, 'deny');
    assert.match(v.error ?? '', /cel evaluation error: expression/);
    const skip = make({ matchConditions: [compiled('request.extra["missing"][0] == "x"')] });
    assert.equal((await skip.authorize(attrs({ name: 'mc3' }))).decision, 'noOpinion');
  });

  it('match conditions must be boolean and compile', () => {
    const notBool = compileMatchCondition('request.user');
    assert.ok(!notBool.ok && notBool.detail === 'must evaluate to bool');
    const bad = compileMatchCondition('request.nope == 1');
    assert.ok(!bad.ok && /compilation failed/.test(bad.detail), bad.ok ? '' : bad.detail);
  });
});
