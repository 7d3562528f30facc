// What the non-RBAC authorizers list for `kubectl auth can-i --list`, as upstream's do: the
// webhook cannot list (incomplete, with upstream's error), ABAC lists the user's policies, the Node
// authorizer flags node identities incomplete and says nothing for other users; and on a running
// server, one SelfSubjectRulesReview per mode shows the chain's union of them.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import type { UserInfo } from '../authn/types.ts';
import { AbacAuthorizer, abacGroup, decodePolicyLine } from './abac.ts';
import { createNodeAuthorizer, nodeIdentity } from './node/index.ts';
import { startAuthzWebhook, type TestAuthzWebhook } from './testing/webhook-authorizer.ts';
import type { Authorizer, RuleResolver } from './types.ts';
import { AuthzChain } from './union.ts';
import { WebhookAuthorizer } from './webhook.ts';

/** The Node authorizer with an empty graph: its rule listing does not depend on it. */
const nodeAuthz = createNodeAuthorizer().authorizer;

const abacLine = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: `${abacGroup(namingProfile('spec'))}/v1beta1`, kind: 'Policy', spec });
const alice: UserInfo = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const node: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const WEBHOOK_ERROR = 'webhook authorizer does not support user rule resolution';
const NODE_ERROR = 'node authorizer does not support user rule resolution';

describe('rule resolution of the non-RBAC authorizers', () => {
  it('the webhook lists nothing and says it is incomplete', () => {
    const w = new WebhookAuthorizer({
      config: { url: new URL('https://127.0.0.1:1/authorize'), insecureSkipTlsVerify: false },
      version: 'v1',
      authorizedTtlMs: 0,
      unauthorizedTtlMs: 0,
    });
    try {
      assert.deepEqual(w.rulesFor(), {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: WEBHOOK_ERROR,
      });
    } finally {
      w.close();
    }
  });

  it('ABAC lists the policies of the user that hold in the namespace', () => {
    const abac = new AbacAuthorizer(
      [
        { user: 'alice', namespace: 'default', resource: 'configmaps', apiGroup: '', readonly: true },
        { group: 'dev', namespace: '*', resource: '*', apiGroup: 'apps' },
        { user: 'alice', namespace: 'other', resource: 'secrets', apiGroup: '*' },
        { user: 'bob', namespace: '*', resource: '*', apiGroup: '*' },
        { user: 'alice', nonResourcePath: '/healthz*', readonly: true },
        { group: 'dev', nonResourcePath: '*' },
      ].map((s) => decodePolicyLine(abacLine(s))),
    );
    assert.deepEqual(abac.rulesFor(alice, 'default'), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] },
        { verbs: ['*'], apiGroups: ['apps'], resources: ['*'], resourceNames: [] },
      ],
      // A path policy has no namespace, so it holds only where upstream's comparison lets it: in
      // no namespace at all; a `*` namespace with a path is both a resource and a path rule.
      nonResourceRules: [],
      incomplete: false,
    });
    assert.deepEqual(abac.rulesFor(alice, '').nonResourceRules, [
      { verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/healthz*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    // The unversioned format's catch-all (empty subject) is every authenticated user's.
    const legacy = new AbacAuthorizer([decodePolicyLine('{"readonly": true}')]);
    assert.deepEqual(legacy.rulesFor(alice, 'default'), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
      ],
      nonResourceRules: [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    assert.deepEqual(legacy.rulesFor({ username: 'x', groups: [] }, 'default').resourceRules, []);
  });

  it('the Node authorizer flags node identities incomplete and is silent for the rest', () => {
    assert.equal(nodeIdentity(node), 'n1');
    assert.equal(nodeIdentity({ username: 'system:node:n1', groups: [] }), undefined);
    assert.equal(nodeIdentity({ username: 'n1', groups: ['system:nodes'] }), undefined);
    assert.equal(nodeIdentity({ username: 'system:node:', groups: ['system:nodes'] }), '');
    assert.deepEqual(nodeAuthz.rulesFor(node, 'default'), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: NODE_ERROR,
    });
    assert.deepEqual(nodeAuthz.rulesFor(alice, 'default'), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
  });

  it('the chain joins the errors of the members that cannot list', async () => {
    const cannotList: Authorizer & RuleResolver = {
      authorize: () => ({ decision: 'noOpinion', reason: '' }),
      rulesFor: () => ({
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: WEBHOOK_ERROR,
      }),
    };
    const chain = new AuthzChain([nodeAuthz, cannotList]);
    const r = await chain.rulesFor(node, 'default');
    assert.equal(r.incomplete, true);
    assert.equal(r.evaluationError, `[${NODE_ERROR}, ${WEBHOOK_ERROR}]`);
    assert.equal((await chain.rulesFor(alice, 'default')).evaluationError, WEBHOOK_ERROR);
  });
});

// --- on a running server, one review per mode ---

const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

function tokenFile(dir: string): string {
  const f = join(dir, 'tokens.csv');
  writeFileSync(f, ['alice-token,alice,1,"dev"', 'node-token,system:node:n1,2,"system:nodes"'].join('\n'));
  return f;
}

async function rulesReview(api: TestApiServer, token: string, namespace: string) {
  const r = await api.call({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    body: JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace },
    }),
    ...bearer(token),
  });
  assert.equal(r.status, 201, r.body);
  return r.json().status as {
    resourceRules: Record<string, unknown>[];
    nonResourceRules: Record<string, unknown>[];
    incomplete: boolean;
    evaluationError?: string;
  };
}

describe('SelfSubjectRulesReview per mode on a server', () => {
  let dir: string;
  let webhook: TestAuthzWebhook;
  const servers: TestApiServer[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rules-modes-'));
    webhook = await startAuthzWebhook(() => ({ status: { allowed: true } }));
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await webhook?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ABAC: the policies of the user', async () => {
    const policy = join(dir, 'policy.jsonl');
    writeFileSync(
      policy,
      [
        abacLine({
          user: 'alice',
          namespace: 'default',
          resource: 'configmaps',
          apiGroup: '',
          readonly: true,
        }),
        abacLine({ group: 'dev', namespace: '*', resource: 'selfsubjectrulesreviews', apiGroup: '*' }),
        abacLine({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      ].join('\n'),
    );
    const api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['ABAC'],
      authorization: { policyFile: policy },
    });
    servers.push(api);
    assert.deepEqual(await rulesReview(api, 'alice-token', 'default'), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['selfsubjectrulesreviews'] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
  });

  it('Webhook: nothing listed, incomplete with upstream error', async () => {
    const api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['Webhook'],
      authorization: { webhook: { configFile: webhook.writeClientConfig(dir), version: 'v1' } },
    });
    servers.push(api);
    assert.deepEqual(await rulesReview(api, 'alice-token', 'default'), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: WEBHOOK_ERROR,
    });
  });

  it('Node,RBAC: RBAC rules for everyone; a node identity is flagged incomplete', async () => {
    const api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['Node', 'RBAC'],
    });
    servers.push(api);
    const forAlice = await rulesReview(api, 'alice-token', 'default');
    assert.equal(forAlice.incomplete, false);
    assert.equal(forAlice.evaluationError, undefined);
    const forNode = await rulesReview(api, 'node-token', 'default');
    assert.equal(forNode.incomplete, true);
    assert.equal(forNode.evaluationError, NODE_ERROR);
    // RBAC's part still comes through (system:basic-user via system:authenticated).
    assert.ok(
      forNode.resourceRules.some((r) =>
        (r.resources as string[] | undefined)?.includes('selfsubjectrulesreviews'),
      ),
      JSON.stringify(forNode.resourceRules),
    );
  });
});
