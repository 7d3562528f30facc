import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { ApiError } from '../../machinery/status.ts';
import { namingProfile } from '../../naming/profile.ts';
import type { ReviewRequest } from '../../registry/kind.ts';
import { accessReviewKind, rulesReviewKind } from './index.ts';
import type { ReviewAttributesRecord, ReviewAuthorizer } from './types.ts';

const profile = namingProfile('upstream');
const alice = { username: 'alice', groups: ['system:authenticated'] };
const req = (over: Partial<ReviewRequest> = {}): ReviewRequest => ({
  user: alice,
  namespace: '',
  dryRun: false,
  admit: async () => {},
  ...over,
});

function recorder(decision: 'allow' | 'deny' | 'noOpinion', reason = '') {
  const asked: ReviewAttributesRecord[] = [];
  const authz: ReviewAuthorizer = {
    authorize: (a) => {
      asked.push(a);
      return { decision, reason };
    },
  };
  return { asked, authz };
}

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

describe('access reviews', () => {
  it('SubjectAccessReview asks about the spec user; empty version means all', async () => {
    const { asked, authz } = recorder('allow', 'ok');
    const kind = accessReviewKind(profile, 'SubjectAccessReview', () => authz);
    const out = (await kind.review?.(
      {
        spec: {
          user: 'bob',
          groups: ['g'],
          uid: 'u',
          resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns' },
        },
      } as ApiObject,
      req(),
    )) as { status: unknown };
    assert.deepEqual(out.status, { allowed: true, reason: 'ok' });
    assert.deepEqual(asked[0].user, { username: 'bob', groups: ['g'], uid: 'u' });
    assert.equal(asked[0].apiVersion, '*');
    assert.equal(asked[0].namespace, 'ns');
  });

  it('a deny sets denied; a bad selector is noted in evaluationError', async () => {
    const { asked, authz } = recorder('deny', 'no');
    const kind = accessReviewKind(profile, 'SubjectAccessReview', () => authz);
    const out = (await kind.review?.(
      {
        spec: {
          user: 'bob',
          resourceAttributes: {
            verb: 'list',
            resource: 'pods',
            labelSelector: { rawSelector: 'a in (' },
            fieldSelector: {
              requirements: [
                { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
                { key: 'x', operator: 'Exists' },
              ],
            },
          },
        },
      } as ApiObject,
      req(),
    )) as { status: unknown };
    assert.deepEqual(out.status, {
      allowed: false,
      denied: true,
      reason: 'no',
      evaluationError:
        'spec.resourceAttributes.fieldSelector partially ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error',
    });
    assert.deepEqual(asked[0].fieldSelector, [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }]);
  });

  it('validation: upstream messages', async () => {
    const kind = accessReviewKind(profile, 'SubjectAccessReview', () => recorder('allow').authz);
    let err = await rejects(kind.review?.({ spec: {} } as ApiObject, req()) as Promise<ApiObject>);
    assert.equal(err.status.code, 422);
    assert.equal(
      err.status.message,
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    err = await rejects(
      kind.review?.(
        {
          metadata: { name: 'x' },
          spec: { user: 'a', nonResourceAttributes: { path: '/x', verb: 'get' } },
        } as ApiObject,
        req(),
      ) as Promise<ApiObject>,
    );
    assert.match(err.status.message ?? '', /metadata: Invalid value: .*: must be empty$/);
    err = await rejects(
      kind.review?.(
        {
          spec: {
            user: 'a',
            resourceAttributes: {
              fieldSelector: {
                rawSelector: 'a=b',
                requirements: [{ key: 'a', operator: 'In', values: ['b'] }],
              },
            },
          },
        } as ApiObject,
        req(),
      ) as Promise<ApiObject>,
    );
    assert.match(
      err.status.message ?? '',
      /spec\.resourceAttributes\.fieldSelector\.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements/,
    );
  });

  it('LocalSubjectAccessReview: the namespace must match', async () => {
    const kind = accessReviewKind(profile, 'LocalSubjectAccessReview', () => recorder('allow').authz);
    const err = await rejects(
      kind.review?.(
        { spec: { user: 'a', resourceAttributes: { namespace: 'other', verb: 'get' } } } as ApiObject,
        req({ namespace: 'team' }),
      ) as Promise<ApiObject>,
    );
    assert.equal(
      err.status.message,
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
    const out = (await kind.review?.(
      { spec: { user: 'a', resourceAttributes: { namespace: 'team', verb: 'get' } } } as ApiObject,
      req({ namespace: 'team' }),
    )) as { status: unknown };
    assert.deepEqual(out.status, { allowed: true });
    const other = await rejects(
      kind.review?.(
        {
          metadata: { namespace: 'other' },
          spec: { user: 'a', resourceAttributes: { namespace: 'other' } },
        } as ApiObject,
        req({ namespace: 'team' }),
      ) as Promise<ApiObject>,
    );
    assert.equal(other.status.code, 400);
    assert.equal(
      other.status.message,
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('SelfSubjectAccessReview asks about the requesting user', async () => {
    const { asked, authz } = recorder('noOpinion');
    const kind = accessReviewKind(profile, 'SelfSubjectAccessReview', () => authz);
    const out = (await kind.review?.(
      { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } } as ApiObject,
      req(),
    )) as {
      status: unknown;
    };
    assert.deepEqual(out.status, { allowed: false });
    assert.equal(asked[0].user, alice);
    assert.equal(asked[0].isResourceRequest, false);
    assert.equal(asked[0].path, '/healthz');
  });

  it('SelfSubjectRulesReview: 400 without a namespace; rules from the resolver', async () => {
    const kind = rulesReviewKind(profile, () => ({
      rulesFor: () => ({
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: 'webhook authorizer does not support user rule resolution',
      }),
    }));
    const err = await rejects(kind.review?.({ spec: {} } as ApiObject, req()) as Promise<ApiObject>);
    assert.equal(err.status.code, 400);
    assert.equal(err.status.message, 'no namespace on request');
    const out = (await kind.review?.({ spec: { namespace: 'team' } } as ApiObject, req())) as {
      status: unknown;
    };
    assert.deepEqual(out.status, {
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  });
});

describe('access review selector validation (upstream cases)', () => {
  const kind = accessReviewKind(profile, 'SubjectAccessReview', () => recorder('allow').authz);
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'field both',
      { fieldSelector: { rawSelector: 'foo', requirements: [{}] } },
      'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
    ],
    [
      'field neither',
      { fieldSelector: {} },
      'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
    ],
    [
      'field no key',
      { fieldSelector: { requirements: [{ key: '' }] } },
      'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
    ],
    [
      'field no value for not in',
      { fieldSelector: { requirements: [{ key: 'k', operator: 'NotIn', values: [] }] } },
      "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
    [
      'field values for exists',
      { fieldSelector: { requirements: [{ key: 'k', operator: 'Exists', values: ['val'] }] } },
      "spec.resourceAttributes.fieldSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
    [
      'label neither',
      { labelSelector: {} },
      'spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
    ],
    [
      'label no key',
      { labelSelector: { requirements: [{ key: '' }] } },
      'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must be non-empty',
    ],
    [
      'label invalid name',
      { labelSelector: { requirements: [{ key: '()foo' }] } },
      `spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "()foo": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
    [
      'label no value for in',
      { labelSelector: { requirements: [{ key: 'k', operator: 'In', values: [] }] } },
      "spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
    [
      'label values for does not exist',
      { labelSelector: { requirements: [{ key: 'k', operator: 'DoesNotExist', values: ['val'] }] } },
      "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
  ];
  for (const [name, attrs, message] of cases) {
    it(name, async () => {
      const err = await rejects(
        kind.review?.(
          { spec: { user: 'me', resourceAttributes: attrs } } as ApiObject,
          req(),
        ) as Promise<ApiObject>,
      );
      assert.equal(err.status.code, 422);
      assert.ok((err.status.message ?? '').includes(message), err.status.message);
    });
  }

  it('an unknown operator passes (a newer client may know it)', async () => {
    const out = (await kind.review?.(
      {
        spec: {
          user: 'me',
          resourceAttributes: {
            labelSelector: { requirements: [{ key: 'k', operator: 'Gt', values: ['1'] }] },
          },
        },
      } as ApiObject,
      req(),
    )) as { status: unknown };
    assert.deepEqual(out.status, {
      allowed: true,
      evaluationError: 'spec.resourceAttributes.labelSelector ignored due to parse error',
    });
  });
});
