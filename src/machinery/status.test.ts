import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { duplicate, invalid as invalidField, newPath, required } from './field-errors.ts';
import {
  ApiError,
  alreadyExists,
  authorizationDeniedMessage,
  badRequest,
  codeOf,
  conflict,
  forbidden,
  forbiddenByAuthorization,
  fromStatus,
  generateNameConflict,
  genericServerResponse,
  gone,
  internalError,
  invalid,
  isApiError,
  isConflict,
  isNotFound,
  isTooLargeResourceVersion,
  methodNotSupported,
  notAcceptable,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  reasonOf,
  requestEntityTooLarge,
  resourceExpired,
  serverTimeout,
  serviceUnavailable,
  statusOf,
  successStatus,
  timeout,
  tooLargeResourceVersion,
  tooManyRequests,
  tooManyRequestsError,
  unauthorized,
  unsupportedMediaType,
} from './status.ts';

const configmaps = { resource: 'configmaps' };

describe('Status constructors', () => {
  it('notFound in the core group, with details.kind holding the resource', () => {
    const e = notFound(configmaps, 'foo');
    assert.deepEqual(e.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "foo" not found',
      reason: 'NotFound',
      details: { name: 'foo', kind: 'configmaps' },
      code: 404,
    });
    assert.equal(e.message, 'configmaps "foo" not found');
  });

  it('notFound in a named group', () => {
    const e = notFound({ group: 'apps', resource: 'deployments' }, 'x');
    assert.equal(e.status.message, 'deployments.apps "x" not found');
    assert.deepEqual(e.status.details, { name: 'x', group: 'apps', kind: 'deployments' });
  });

  it('serializes keys in upstream order and leaves empty fields out', () => {
    assert.equal(
      JSON.stringify(notFound({ group: 'apps', resource: 'deployments' }, 'x').status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"x\\" not found","reason":"NotFound","details":{"name":"x","group":"apps","kind":"deployments"},"code":404}',
    );
  });

  it('quotes names as Go %q does', () => {
    assert.equal(notFound(configmaps, 'a"b\n').status.message, 'configmaps "a\\"b\\n" not found');
  });

  it('alreadyExists and its generated-name variant', () => {
    const e = alreadyExists(configmaps, 'foo');
    assert.equal(e.status.code, 409);
    assert.equal(e.status.reason, 'AlreadyExists');
    assert.equal(e.status.message, 'configmaps "foo" already exists');
    const g = generateNameConflict(configmaps, 'foo-abcde', 1);
    assert.equal(
      g.status.message,
      'configmaps "foo-abcde" already exists, the server was not able to generate a unique name for the object',
    );
    assert.equal(g.status.details?.retryAfterSeconds, 1);
  });

  it('conflict with the optimistic-lock cause', () => {
    const e = conflict(configmaps, 'foo', OPTIMISTIC_LOCK_MESSAGE);
    assert.equal(e.status.code, 409);
    assert.equal(e.status.reason, 'Conflict');
    assert.equal(
      e.status.message,
      'Operation cannot be fulfilled on configmaps "foo": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.match(conflict(configmaps, 'foo', new Error('boom')).status.message ?? '', /: boom$/);
  });

  it('invalid with a single error has no brackets', () => {
    const e = invalid({ kind: 'Kind' }, 'name', [duplicate(newPath('field[0].name'), 'bar')]);
    assert.equal(e.status.code, 422);
    assert.equal(e.status.reason, 'Invalid');
    assert.equal(e.status.message, 'Kind "name" is invalid: field[0].name: Duplicate value: "bar"');
    assert.deepEqual(e.status.details, {
      name: 'name',
      kind: 'Kind',
      causes: [{ reason: 'FieldValueDuplicate', message: 'Duplicate value: "bar"', field: 'field[0].name' }],
    });
  });

  it('invalid with several errors brackets them, drops repeats from the message but not the causes', () => {
    const errs = [
      required(newPath('metadata', 'name'), 'name or generateName is required'),
      invalidField(newPath('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
      invalidField(newPath('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
    ];
    const e = invalid({ group: 'apps', kind: 'Deployment' }, 'web', errs);
    assert.equal(
      e.status.message,
      'Deployment.apps "web" is invalid: [metadata.name: Required value: name or generateName is required, spec.replicas: Invalid value: -1: must be greater than or equal to 0]',
    );
    assert.equal(e.status.details?.causes?.length, 3);
    assert.equal(e.status.details?.group, 'apps');
  });

  it('invalid without errors', () => {
    const e = invalid({ kind: 'Test' }, '2', []);
    assert.equal(e.status.message, 'Test "2" is invalid');
    assert.deepEqual(e.status.details, { name: '2', kind: 'Test' });
  });

  it('forbidden in its three shapes', () => {
    assert.equal(forbidden(configmaps, 'foo', 'nope').status.message, 'configmaps "foo" is forbidden: nope');
    assert.equal(
      forbidden(configmaps, '', new Error('nope')).status.message,
      'configmaps is forbidden: nope',
    );
    assert.equal(forbidden({ resource: '' }, '', 'nope').status.message, 'forbidden: nope');
    assert.equal(forbidden(configmaps, 'foo', 'nope').status.code, 403);
  });

  it('unauthorized defaults its message', () => {
    assert.equal(unauthorized().status.message, 'not authorized');
    assert.equal(unauthorized('Unauthorized').status.message, 'Unauthorized');
    assert.equal(unauthorized().status.code, 401);
    assert.equal(unauthorized().status.details, undefined);
  });

  it('gone and resourceExpired differ only in reason', () => {
    assert.deepEqual([gone('x').status.code, gone('x').status.reason], [410, 'Gone']);
    const e = resourceExpired('too old resource version: 1 (5)');
    assert.deepEqual(
      [e.status.code, e.status.reason, e.status.message],
      [410, 'Expired', 'too old resource version: 1 (5)'],
    );
  });

  it('timeout carries retryAfterSeconds and keeps an empty details object without one', () => {
    const e = timeout('request did not complete within requested timeout - context deadline exceeded', 3);
    assert.equal(e.status.code, 504);
    assert.equal(e.status.reason, 'Timeout');
    assert.equal(
      e.status.message,
      'Timeout: request did not complete within requested timeout - context deadline exceeded',
    );
    assert.deepEqual(e.status.details, { retryAfterSeconds: 3 });
    assert.deepEqual(timeout('x').status.details, {});
  });

  it('tooLargeResourceVersion is a Timeout with a ResourceVersionTooLarge cause', () => {
    const e = tooLargeResourceVersion(12, 7);
    assert.deepEqual(e.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: Too large resource version: 12, current: 7',
      reason: 'Timeout',
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
      code: 504,
    });
    assert.equal(isTooLargeResourceVersion(e), true);
    assert.equal(isTooLargeResourceVersion(timeout('x', 1)), false);
  });

  it('serverTimeout names the operation in details.name', () => {
    const e = serverTimeout(configmaps, 'get', 2);
    assert.equal(e.status.code, 500);
    assert.equal(e.status.reason, 'ServerTimeout');
    assert.equal(
      e.status.message,
      'The get operation against configmaps could not be completed at this time, please try again.',
    );
    assert.deepEqual(e.status.details, { name: 'get', kind: 'configmaps', retryAfterSeconds: 2 });
  });

  it('tooManyRequests in both upstream forms', () => {
    const e = tooManyRequests('slow down', 5);
    assert.deepEqual(
      [e.status.code, e.status.reason, e.status.message],
      [429, 'TooManyRequests', 'slow down'],
    );
    assert.deepEqual(e.status.details, { retryAfterSeconds: 5 });
    assert.equal(tooManyRequestsError('limit reached').status.message, 'Too many requests: limit reached');
    assert.equal(tooManyRequestsError('limit reached').status.details, undefined);
  });

  it('badRequest, serviceUnavailable, requestEntityTooLarge', () => {
    assert.deepEqual([badRequest('bad').status.code, badRequest('bad').status.reason], [400, 'BadRequest']);
    assert.equal(serviceUnavailable('later').status.code, 503);
    const e = requestEntityTooLarge('limit is 3145728');
    assert.deepEqual([e.status.code, e.status.reason], [413, 'RequestEntityTooLarge']);
    assert.equal(e.status.message, 'Request entity too large: limit is 3145728');
  });

  it('methodNotSupported: generic and per action', () => {
    const g = methodNotSupported();
    assert.deepEqual(
      [g.status.code, g.status.reason, g.status.message],
      [405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    );
    const a = methodNotSupported({ resource: 'foos' }, 'delete');
    assert.equal(a.status.message, 'delete is not supported on resources of kind "foos"');
    assert.deepEqual(a.status.details, { kind: 'foos' });
  });

  it('notAcceptable and unsupportedMediaType list the media types', () => {
    const types = ['application/json', 'application/yaml'];
    const n = notAcceptable(types);
    assert.deepEqual([n.status.code, n.status.reason], [406, 'NotAcceptable']);
    assert.equal(
      n.status.message,
      'only the following media types are accepted: application/json, application/yaml',
    );
    const u = unsupportedMediaType(types);
    assert.deepEqual([u.status.code, u.status.reason], [415, 'UnsupportedMediaType']);
    assert.equal(
      u.status.message,
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    );
  });

  it('internalError keeps the message as its only cause', () => {
    const e = internalError(new Error('disk on fire'));
    assert.deepEqual(e.status.details, { causes: [{ message: 'disk on fire' }] });
    assert.equal(e.status.message, 'Internal error occurred: disk on fire');
    assert.equal(e.status.code, 500);
  });

  it('genericServerResponse follows upstream per code', () => {
    assert.equal(
      genericServerResponse(409, 'POST', configmaps, 'foo', '', 0, false).status.reason,
      'AlreadyExists',
    );
    const c = genericServerResponse(409, 'PUT', configmaps, 'foo', '', 0, false);
    assert.deepEqual(
      [c.status.reason, c.status.message],
      ['Conflict', 'the server reported a conflict (put configmaps foo)'],
    );
    const s = genericServerResponse(502, 'GET', undefined, '', 'bad gateway', 0, true);
    assert.equal(
      s.status.message,
      'an error on the server ("bad gateway") has prevented the request from succeeding',
    );
    assert.deepEqual(s.status.details?.causes, [
      { reason: 'UnexpectedServerResponse', message: 'bad gateway' },
    ]);
    assert.equal(
      genericServerResponse(418, 'GET', undefined, '', '', 0, false).status.message,
      'the server responded with the status code 418 but did not return more information',
    );
  });

  it('successStatus has no code unless one is given', () => {
    assert.deepEqual(successStatus({ name: 'foo', kind: 'configmaps', uid: 'u1' }), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'foo', kind: 'configmaps', uid: 'u1' },
    });
    assert.equal(successStatus({ name: 'foo' }, 202).code, 202);
  });
});

describe('authorization denials', () => {
  it('namespaced resource without a name (list)', () => {
    const e = forbiddenByAuthorization({
      user: 'system:anonymous',
      verb: 'list',
      resourceRequest: true,
      resource: 'configmaps',
      namespace: 'default',
    });
    assert.equal(
      e.status.message,
      'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
    assert.deepEqual(e.status.details, { kind: 'configmaps' });
  });

  it('named object in a group, with the subresource and an authorizer reason', () => {
    const e = forbiddenByAuthorization(
      {
        user: 'bob',
        verb: 'update',
        resourceRequest: true,
        apiGroup: 'apps',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'ns',
        name: 'web',
      },
      'no RBAC policy matched',
    );
    assert.equal(
      e.status.message,
      'deployments.apps "web" is forbidden: User "bob" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns": no RBAC policy matched',
    );
    assert.deepEqual(e.status.details, { name: 'web', group: 'apps', kind: 'deployments' });
  });

  it('cluster scope', () => {
    assert.equal(
      authorizationDeniedMessage({ user: 'alice', verb: 'list', resourceRequest: true, resource: 'nodes' }),
      'User "alice" cannot list resource "nodes" in API group "" at the cluster scope',
    );
  });

  it('non-resource URL', () => {
    const e = forbiddenByAuthorization({
      user: 'alice',
      verb: 'get',
      resourceRequest: false,
      path: '/metrics',
    });
    assert.equal(e.status.message, 'forbidden: User "alice" cannot get path "/metrics"');
    assert.deepEqual(e.status.details, {});
  });

  it('escapes HTML-looking characters in the sentence but not in the reason', () => {
    const e = forbiddenByAuthorization(
      { user: '<b>', verb: 'get', resourceRequest: false, path: '/a&b' },
      '<r>',
    );
    assert.equal(e.status.message, 'forbidden: User "&lt;b&gt;" cannot get path "/a&amp;b": <r>');
  });
});

describe('inspecting errors', () => {
  it('statusOf passes ApiErrors through', () => {
    const e = notFound(configmaps, 'foo');
    assert.equal(statusOf(e), e.status);
  });

  it('statusOf turns anything else into a 500 without the stack', () => {
    const s = statusOf(new TypeError('x is not a function'));
    assert.equal(s.code, 500);
    assert.equal(s.reason, 'InternalError');
    assert.equal(s.message, 'Internal error occurred: x is not a function');
    assert.equal(JSON.stringify(s).includes('at '), false);
    assert.equal(statusOf('plain string').message, 'Internal error occurred: plain string');
    assert.equal(statusOf(undefined).code, 500);
    assert.equal(statusOf({ weird: true }).code, 500);
  });

  it('reasonOf, codeOf and the predicates', () => {
    assert.equal(reasonOf(notFound(configmaps, 'x')), 'NotFound');
    assert.equal(reasonOf(new Error('x')), '');
    assert.equal(codeOf(conflict(configmaps, 'x', 'y')), 409);
    assert.equal(codeOf(null), 0);
    assert.equal(isNotFound(notFound(configmaps, 'x')), true);
    assert.equal(isConflict(alreadyExists(configmaps, 'x')), false);
    assert.equal(isApiError(badRequest('x')), true);
    assert.equal(isApiError(new Error('x')), false);
    assert.ok(badRequest('x') instanceof Error);
  });

  it('fromStatus rebuilds an error from a received Status', () => {
    const e = fromStatus({ message: 'denied', reason: 'Forbidden', code: 403 });
    assert.ok(e instanceof ApiError);
    assert.deepEqual([e.code, e.reason, e.message], [403, 'Forbidden', 'denied']);
    assert.equal(fromStatus({}).code, 500);
  });
});
