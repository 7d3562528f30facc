// The audit policy: decoding and validating policy files with upstream's messages, and the
// checker's rule matching (every matcher, first match wins, stage union, defaults).

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import {
  type AuditAttributes,
  AuditPolicyError,
  auditGroup,
  loadAuditPolicy,
  loadAuditPolicyFile,
  type Policy,
  type PolicyRule,
  PolicyRuleEvaluator,
  policyRule,
} from './index.ts';

const SPEC = namingProfile('spec');
const UPSTREAM = namingProfile('upstream');
const V1 = `${auditGroup(SPEC)}/v1`;
const UPSTREAM_V1 = `${auditGroup(UPSTREAM)}/v1`;

function policyText(body: string, apiVersion = V1): string {
  return `apiVersion: ${apiVersion}\nkind: Policy\n${body}`;
}

function loadError(text: string): string {
  try {
    loadAuditPolicy(text, SPEC);
  } catch (err) {
    assert.ok(err instanceof AuditPolicyError, String(err));
    return err.message;
  }
  assert.fail('expected the policy to be refused');
}

describe('audit policy decoding', () => {
  it('reads a YAML policy with every field', () => {
    const { policy, warnings } = loadAuditPolicy(
      policyText(`omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: RequestResponse
    users: [alice]
    userGroups: [admins]
    verbs: [create, update]
    namespaces: [default, ""]
    resources:
      - group: ""
        resources: [pods, pods/status]
        resourceNames: [web]
    omitStages: [ResponseStarted]
    omitManagedFields: false
  - level: Metadata
    nonResourceURLs: [/healthz*, /version]
`),
      SPEC,
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(policy.omitStages, ['RequestReceived']);
    assert.equal(policy.omitManagedFields, true);
    assert.equal(policy.rules.length, 2);
    assert.deepEqual(policy.rules[0], {
      level: 'RequestResponse',
      users: ['alice'],
      userGroups: ['admins'],
      verbs: ['create', 'update'],
      namespaces: ['default', ''],
      resources: [{ group: '', resources: ['pods', 'pods/status'], resourceNames: ['web'] }],
      nonResourceURLs: [],
      omitStages: ['ResponseStarted'],
      omitManagedFields: false,
    });
    assert.deepEqual(policy.rules[1].nonResourceURLs, ['/healthz*', '/version']);
    assert.equal(policy.rules[1].omitManagedFields, undefined);
  });

  it('reads JSON, and upstream-named group under the spec profile', () => {
    const text = JSON.stringify({ apiVersion: UPSTREAM_V1, kind: 'Policy', rules: [{ level: 'None' }] });
    assert.equal(loadAuditPolicy(text, SPEC).policy.rules[0].level, 'None');
    assert.equal(loadAuditPolicy(text, UPSTREAM).policy.rules[0].level, 'None');
  });

  it('warns on unknown fields and decodes leniently, as upstream', () => {
    const { policy, warnings } = loadAuditPolicy(
      policyText('rules:\n  - level: Metadata\n    color: red\nextra: 1\n'),
      SPEC,
    );
    assert.equal(policy.rules[0].level, 'Metadata');
    assert.deepEqual(warnings, [
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "rules[0].color", unknown field "extra"',
    ]);
  });

  it('warns on repeated keys and keeps the last, as upstream', () => {
    const yaml = loadAuditPolicy(policyText('rules:\n  - level: None\n    level: Metadata\n'), SPEC);
    assert.equal(yaml.policy.rules[0].level, 'Metadata');
    assert.deepEqual(yaml.warnings, [
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: yaml: unmarshal errors:\n  line 5: key "level" already set in map',
    ]);
    const json = loadAuditPolicy(
      `{"apiVersion": "${V1}", "kind": "Policy", "rules": [{"level": "None", "level": "Request"}]}`,
      SPEC,
    );
    assert.equal(json.policy.rules[0].level, 'Request');
    assert.deepEqual(json.warnings, [
      'Audit policy contains errors, falling back to lenient decoding: strict decoding error: duplicate field "rules[0].level"',
    ]);
  });

  it('refuses wrong types with the decoder message', () => {
    assert.equal(
      loadError(policyText('rules:\n  - level: 3\n')),
      'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level',
    );
    assert.equal(
      loadError(policyText('rules:\n  - level: None\n    users: alice\n')),
      'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.users of type []string',
    );
    assert.equal(
      loadError(policyText('rules:\n  - level: None\n    resources: [{group: 1}]\n')),
      'failed decoding: json: cannot unmarshal number into Go struct field GroupResources.rules.resources.group of type string',
    );
    assert.equal(
      loadError(policyText('omitManagedFields: "yes"\nrules: [{level: None}]\n')),
      'failed decoding: json: cannot unmarshal string into Go struct field Policy.omitManagedFields of type bool',
    );
  });

  it('refuses a missing or foreign apiVersion and kind', () => {
    const internal = `unknown group version field ${auditGroup(SPEC)}/__internal, Kind=Policy in policy`;
    assert.equal(loadError('rules: [{level: None}]\n'), internal);
    assert.equal(loadError(''), internal);
    assert.equal(loadError('kind: Policy\nrules: [{level: None}]\n'), internal);
    // The kind alone may be left out: it is taken from the target type.
    const noKind = loadAuditPolicy(`apiVersion: ${V1}\nrules: [{level: Metadata}]\n`, SPEC);
    assert.equal(noKind.policy.rules[0].level, 'Metadata');
    assert.equal(
      loadError(policyText('rules: [{level: None}]\n', `${auditGroup(SPEC)}/v2`)),
      `failed decoding: no kind "Policy" is registered for version "${auditGroup(SPEC)}/v2"`,
    );
    assert.equal(
      loadError(`apiVersion: ${V1}\nkind: PolicyList\nitems: []\n`),
      'failed decoding: converting (v1.PolicyList) to (audit.Policy): unknown conversion',
    );
  });

  it('refuses a policy without rules', () => {
    assert.equal(loadError(policyText('rules: []\n')), 'loaded illegal policy with 0 rules');
    assert.equal(loadError(policyText('omitStages: [Panic]\n')), 'loaded illegal policy with 0 rules');
  });

  const invalid: [string, string, string][] = [
    [
      'unsupported level',
      'rules:\n  - level: None\n  - level: None\n  - level: Everything\n',
      'rules[2].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    ],
    ['missing level', 'rules:\n  - users: [a]\n', 'rules[0].level: Required value'],
    [
      'policy omitStages',
      'omitStages: [Done]\nrules: [{level: None}]\n',
      'omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'rule omitStages',
      'rules: [{level: None, omitStages: [Panic, Later]}]\n',
      'rules[0].omitStages[1]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'relative non-resource URL',
      'rules: [{level: None, nonResourceURLs: [healthz]}]\n',
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    ],
    [
      'inner wildcard',
      'rules: [{level: None, nonResourceURLs: ["*", "/api/*/x"]}]\n',
      `rules[0].nonResourceURLs[1]: Invalid value: "/api/*/x": non-resource URL wildcards '*' must be the final character of the rule`,
    ],
    [
      'resources and non-resource URLs',
      'rules: [{level: None, nonResourceURLs: [/healthz], namespaces: [default]}]\n',
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'group with a version',
      'rules: [{level: None, resources: [{group: apps/v1}]}]\n',
      `rules[0].resources.group: Invalid value: "apps/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
    [
      'resourceNames without resources',
      'rules: [{level: None, resources: [{group: "", resourceNames: [a]}]}]\n',
      'rules[0].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource',
    ],
  ];
  for (const [name, body, message] of invalid) {
    it(`refuses ${name} with the field path`, () => {
      assert.equal(loadError(policyText(body)), message);
    });
  }

  it('accepts wildcard groups and resource forms', () => {
    const { policy } = loadAuditPolicy(
      policyText(
        'rules: [{level: None, resources: [{group: "*", resources: ["*", "pods/*", "*/status"]}]}]\n',
      ),
      SPEC,
    );
    assert.deepEqual(policy.rules[0].resources[0].resources, ['*', 'pods/*', '*/status']);
  });

  it('aggregates several errors as upstream', () => {
    assert.equal(
      loadError(policyText('rules: [{level: X}, {}]\n')),
      '[rules[0].level: Unsupported value: "X": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].level: Required value]',
    );
  });

  it('names the file in errors and reads it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-policy-'));
    const good = join(dir, 'good.yaml');
    writeFileSync(good, policyText('rules: [{level: Metadata}]\n'));
    assert.equal(loadAuditPolicyFile(good, SPEC).policy.rules[0].level, 'Metadata');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, policyText('rules: []\n'));
    assert.throws(() => loadAuditPolicyFile(bad, SPEC), {
      message: `loaded illegal policy with 0 rules: from file ${bad}`,
    });
    assert.throws(
      () => loadAuditPolicyFile(join(dir, 'missing.yaml'), SPEC),
      /^AuditPolicyError: failed to read file path/,
    );
    assert.throws(() => loadAuditPolicyFile('', SPEC), { message: 'file path not specified' });
  });
});

// ---------------------------------------------------------------------------------------------

const rule = policyRule;

function evaluator(rules: PolicyRule[], extra: Partial<Policy> = {}): PolicyRuleEvaluator {
  return new PolicyRuleEvaluator({ rules, omitStages: [], omitManagedFields: false, ...extra });
}

const podGet: AuditAttributes = {
  user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  namespace: 'default',
  apiGroup: '',
  resource: 'pods',
  name: 'web',
};
const healthz: AuditAttributes = {
  user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
  verb: 'get',
  isResourceRequest: false,
  path: '/healthz/etcd',
};

const level = (e: PolicyRuleEvaluator, a: AuditAttributes) => e.evaluate(a).level;

describe('audit policy checker', () => {
  it('defaults to None with the policy settings when nothing matches', () => {
    const e = evaluator([rule('Metadata', { users: ['bob'] })], {
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
    });
    assert.deepEqual(e.evaluate(podGet), {
      level: 'None',
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
    });
  });

  it('matches a rule with no matchers for every request', () => {
    const e = evaluator([rule('Request')]);
    assert.equal(level(e, podGet), 'Request');
    assert.equal(level(e, healthz), 'Request');
  });

  it('first matching rule wins', () => {
    const e = evaluator([rule('None', { verbs: ['list'] }), rule('Metadata'), rule('RequestResponse')]);
    assert.equal(level(e, podGet), 'Metadata');
    assert.equal(level(e, { ...podGet, verb: 'list' }), 'None');
  });

  it('matches users, including system users, and not a request without a user', () => {
    const e = evaluator([rule('Metadata', { users: ['system:anonymous', 'alice'] })]);
    assert.equal(level(e, podGet), 'Metadata');
    assert.equal(level(e, healthz), 'Metadata');
    assert.equal(level(e, { ...podGet, user: { name: 'bob', groups: [] } }), 'None');
    assert.equal(level(e, { ...podGet, user: undefined }), 'None');
  });

  it('matches any of the user groups', () => {
    const e = evaluator([rule('Metadata', { userGroups: ['ops', 'system:unauthenticated'] })]);
    assert.equal(level(e, healthz), 'Metadata');
    assert.equal(level(e, podGet), 'None');
    assert.equal(level(e, { ...podGet, user: undefined }), 'None');
  });

  it('matches verbs', () => {
    const e = evaluator([rule('Request', { verbs: ['get', 'watch'] })]);
    assert.equal(level(e, podGet), 'Request');
    assert.equal(level(e, { ...podGet, verb: 'delete' }), 'None');
  });

  it('matches namespaces, the empty one for cluster-scoped, and never non-resource requests', () => {
    const e = evaluator([rule('Metadata', { namespaces: ['default', ''] })]);
    assert.equal(level(e, podGet), 'Metadata');
    assert.equal(level(e, { ...podGet, namespace: 'kube' }), 'None');
    assert.equal(level(e, { ...podGet, namespace: undefined, resource: 'nodes' }), 'Metadata');
    assert.equal(level(e, healthz), 'None');
  });

  it('matches resources by group, name and wildcard forms', () => {
    const res = (resources: string[], group = '', resourceNames: string[] = []) =>
      evaluator([rule('Metadata', { resources: [{ group, resources, resourceNames }] })]);
    assert.equal(level(res(['pods']), podGet), 'Metadata');
    assert.equal(level(res(['pods']), { ...podGet, subresource: 'status' }), 'None');
    assert.equal(level(res(['pods/status']), { ...podGet, subresource: 'status' }), 'Metadata');
    assert.equal(level(res(['*']), { ...podGet, subresource: 'log' }), 'Metadata');
    assert.equal(level(res(['pods/*']), { ...podGet, subresource: 'log' }), 'Metadata');
    // Upstream lets `pods/*` cover the resource itself too, not only its subresources.
    assert.equal(level(res(['pods/*']), podGet), 'Metadata');
    assert.equal(level(res(['pods/*']), { ...podGet, resource: 'services' }), 'None');
    assert.equal(
      level(res(['*/status']), { ...podGet, resource: 'nodes', subresource: 'status' }),
      'Metadata',
    );
    assert.equal(level(res(['*/status']), podGet), 'None');
    assert.equal(level(res(['pods'], 'apps'), podGet), 'None');
    assert.equal(
      level(res(['deployments'], 'apps'), { ...podGet, apiGroup: 'apps', resource: 'deployments' }),
      'Metadata',
    );
    assert.equal(level(res(['pods'], '*'), { ...podGet, apiGroup: 'apps' }), 'Metadata');
    assert.equal(level(res([], 'apps'), { ...podGet, apiGroup: 'apps', resource: 'anything' }), 'Metadata');
    assert.equal(level(res(['pods'], '', ['web']), podGet), 'Metadata');
    assert.equal(level(res(['pods'], '', ['db']), podGet), 'None');
    assert.equal(level(res(['*']), healthz), 'None');
  });

  it('matches non-resource URLs exactly, by prefix wildcard or all, and never resource requests', () => {
    const urls = (nonResourceURLs: string[]) => evaluator([rule('Metadata', { nonResourceURLs })]);
    assert.equal(level(urls(['/healthz/etcd']), healthz), 'Metadata');
    assert.equal(level(urls(['/healthz']), healthz), 'None');
    assert.equal(level(urls(['/healthz*']), healthz), 'Metadata');
    assert.equal(level(urls(['/api*']), { ...healthz, path: '/apis' }), 'Metadata');
    assert.equal(level(urls(['/api*']), healthz), 'None');
    assert.equal(level(urls(['*']), healthz), 'Metadata');
    assert.equal(level(urls(['*']), podGet), 'None');
  });

  it('joins omitted stages of the policy and the matched rule', () => {
    const e = evaluator(
      [
        rule('Metadata', { verbs: ['get'], omitStages: ['ResponseStarted', 'RequestReceived'] }),
        rule('Request'),
      ],
      { omitStages: ['RequestReceived'] },
    );
    assert.deepEqual(new Set(e.evaluate(podGet).omitStages), new Set(['RequestReceived', 'ResponseStarted']));
    assert.equal(e.evaluate(podGet).omitStages.length, 2);
    assert.deepEqual(e.evaluate({ ...podGet, verb: 'list' }).omitStages, ['RequestReceived']);
  });

  it("takes omitManagedFields from the rule when set, else the policy's", () => {
    const e = evaluator(
      [rule('Request', { verbs: ['get'], omitManagedFields: false }), rule('Request', { verbs: ['list'] })],
      { omitManagedFields: true },
    );
    assert.equal(e.evaluate(podGet).omitManagedFields, false);
    assert.equal(e.evaluate({ ...podGet, verb: 'list' }).omitManagedFields, true);
  });

  it('evaluates a loaded policy', () => {
    const { policy } = loadAuditPolicy(
      policyText(`rules:
  - level: None
    nonResourceURLs: [/healthz*]
  - level: RequestResponse
    resources: [{group: "", resources: [pods]}]
  - level: Metadata
`),
      SPEC,
    );
    const e = new PolicyRuleEvaluator(policy);
    assert.equal(level(e, healthz), 'None');
    assert.equal(level(e, podGet), 'RequestResponse');
    assert.equal(level(e, { ...healthz, path: '/version' }), 'Metadata');
  });
});
