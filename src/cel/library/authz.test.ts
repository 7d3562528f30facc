// The authorizer library with upstream's documented examples (k8s.io/apiserver pkg/cel/library/
// authz.go), against a recording authorizer that allows what its rules list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import {
  AUTHZ_CHECK_COST,
  authorizerActivation,
  authzLibraries,
  authzVariables,
  type CelAuthorizer,
  type CelAuthzAttributes,
  type CelAuthzDecision,
} from './authz.ts';

class Recording implements CelAuthorizer {
  readonly asked: CelAuthzAttributes[] = [];
  constructor(private readonly decide: (a: CelAuthzAttributes) => CelAuthzDecision) {}
  authorize(a: CelAuthzAttributes): CelAuthzDecision {
    this.asked.push(a);
    return this.decide(a);
  }
}

const user = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const rules = (a: CelAuthzAttributes): CelAuthzDecision => {
  if (a.path === '/healthz' && a.verb === 'get') return { decision: 'allow', reason: 'health is public' };
  if (a.user.username === 'system:serviceaccount:default:myserviceaccount' && a.resource === 'secrets') {
    return { decision: 'allow', reason: 'sa may read secrets' };
  }
  if (a.resource === 'pods' && a.namespace === 'default' && a.verb === 'create')
    return { decision: 'allow', reason: 'rbac' };
  if (a.resource === 'widgets') return { decision: 'no-opinion', reason: '', error: 'webhook unreachable' };
  if (a.resource === 'deployments') return { decision: 'deny', reason: 'denied by policy' };
  return { decision: 'no-opinion', reason: '' };
};

const env = createEnvironment({ variables: authzVariables(), libraries: authzLibraries });

function run(expr: string, authz = new Recording(rules), costLimit?: number) {
  const c = compile(env, expr);
  if (!c.ok) return { authz, result: { ok: false as const, error: { message: c.error.message }, cost: 0 } };
  const activation = authorizerActivation(authz, user, {
    group: 'apps',
    resource: 'deployments',
    subresource: 'scale',
    namespace: 'test',
    name: 'backend',
  });
  return { authz, result: evaluate(c.program, activation, { costLimit }) };
}
function value(expr: string): unknown {
  const { result } = run(expr);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
function failure(expr: string): string {
  const { result } = run(expr);
  return result.ok ? `value ${String(result.value)}` : result.error.message;
}

describe('authorizer library', () => {
  it('resource checks', () => {
    assert.equal(
      value("authorizer.group('').resource('pods').namespace('default').check('create').allowed()"),
      true,
    );
    assert.equal(
      value("authorizer.group('').resource('pods').namespace('default').check('delete').allowed()"),
      false,
    );
    assert.equal(
      value(
        "authorizer.group('apps').resource('deployments').namespace('test').name('backend').check('get').allowed()",
      ),
      false,
    );
    assert.equal(
      value("authorizer.group('apps').resource('deployments').check('get').reason()"),
      'denied by policy',
    );
    const { authz } = run(
      "authorizer.group('example.com').resource('widgets').subresource('scale').namespace('ns').name('w').check('update')",
    );
    assert.deepEqual(authz.asked, [
      {
        user,
        verb: 'update',
        isResourceRequest: true,
        group: 'example.com',
        apiVersion: '*',
        resource: 'widgets',
        subresource: 'scale',
        namespace: 'ns',
        name: 'w',
      },
    ]);
  });

  it('path checks', () => {
    assert.equal(value("authorizer.path('/healthz').check('get').allowed()"), true);
    assert.equal(value("authorizer.path('/healthz').check('GET').reason()"), '');
    const { authz } = run("authorizer.path('/metrics').check('get').allowed()");
    assert.equal(authz.asked[0].path, '/metrics');
    assert.equal(authz.asked[0].isResourceRequest, false);
    assert.equal(failure("authorizer.path('')"), 'path must not be empty');
    assert.equal(failure("authorizer.path('  ')"), 'path must not be empty');
    assert.equal(failure("authorizer.group('apps').resource('')"), 'resource must not be empty');
    assert.equal(failure("authorizer.group('apps').resource('  ')"), 'resource must not be empty');
  });

  it('decisions that errored', () => {
    assert.equal(value("authorizer.group('example.com').resource('widgets').check('get').errored()"), true);
    assert.equal(
      value("authorizer.group('example.com').resource('widgets').check('get').error()"),
      'webhook unreachable',
    );
    assert.equal(
      value("authorizer.group('').resource('pods').namespace('default').check('create').errored()"),
      false,
    );
    assert.equal(
      value("authorizer.group('').resource('pods').namespace('default').check('create').error()"),
      '',
    );
    const throwing = new Recording(() => {
      throw new Error('boom');
    });
    const { result } = run("authorizer.path('/x').check('get').error()", throwing);
    assert.ok(result.ok && result.value === 'boom');
  });

  it('service accounts', () => {
    assert.equal(
      value(
        "authorizer.serviceAccount('default', 'myserviceaccount').group('').resource('secrets').check('get').allowed()",
      ),
      true,
    );
    const { authz } = run("authorizer.serviceAccount('default', 'myserviceaccount').path('/x').check('get')");
    assert.deepEqual(authz.asked[0].user, {
      username: 'system:serviceaccount:default:myserviceaccount',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
    });
    assert.equal(
      failure("authorizer.serviceAccount('not@a#valid!namespace', 'validname')"),
      'Invalid service account namespace',
    );
    assert.equal(
      failure("authorizer.serviceAccount('valid.example.com', 'invalid@*name')"),
      'Invalid service account name',
    );
  });

  it('the request resource', () => {
    assert.equal(value("authorizer.requestResource.check('get').reason()"), 'denied by policy');
    const { authz } = run("authorizer.requestResource.check('patch').allowed()");
    assert.deepEqual(
      { ...authz.asked[0], user: undefined },
      {
        user: undefined,
        verb: 'patch',
        isResourceRequest: true,
        group: 'apps',
        apiVersion: '*',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'test',
        name: 'backend',
      },
    );
    const c = compile(env, "authorizer.requestResource.namespace('other').check('get')");
    assert.ok(c.ok && c.program.resultType === 'kubernetes.authorization.Decision');
  });

  it('field and label selectors', () => {
    const { authz } = run(
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=mynode').labelSelector('app=example').check('list').allowed()",
    );
    assert.equal(authz.asked[0].fieldSelector, 'spec.nodeName=mynode');
    assert.equal(authz.asked[0].labelSelector, 'app=example');
    const plain = run("authorizer.group('').resource('pods').check('list')").authz.asked[0];
    assert.ok(!('fieldSelector' in plain) && !('labelSelector' in plain));
  });

  it('charges 350000 per check: two fit in the per-call limit, three do not', () => {
    const perCallLimit = 1_000_000; // upstream's celconfig.PerCallLimit
    const one = run("authorizer.path('/healthz').check('get').allowed()").result;
    assert.ok(one.ok && one.cost >= AUTHZ_CHECK_COST && one.cost < AUTHZ_CHECK_COST + 20, String(one.cost));
    const check = "authorizer.path('/healthz').check('get').allowed()";
    const two = run(`${check} && ${check}`, undefined, perCallLimit).result;
    assert.ok(two.ok);
    const three = run(`${check} && ${check} && ${check}`, undefined, perCallLimit).result;
    assert.ok(!three.ok && three.error.message === 'operation cancelled: actual cost limit exceeded');
  });

  it('rejects unknown functions at compile time', () => {
    assert.match(failure("authorizer.group('').check('get')"), /found no matching overload/);
    assert.match(failure("authorizer.path('/x').resource('pods')"), /found no matching overload/);
  });
});
