import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { AbacAuthorizer, abacGroup, loadPolicyFile } from './abac.ts';
import type { Attributes } from './types.ts';

const GROUP = abacGroup(namingProfile('spec'));
const UPSTREAM = 'abac.authorization.kubernetes.io';
const policy = (spec: Record<string, unknown>, group = GROUP) =>
  JSON.stringify({ apiVersion: `${group}/v1beta1`, kind: 'Policy', spec });

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  ...over,
});
const anon = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

describe('ABAC authorizer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'abac-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (lines: string[]) => {
    const f = join(dir, `policy-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    return f;
  };

  it('matches users, groups, namespaces, resources, api groups and read-only as upstream', () => {
    const authz = AbacAuthorizer.fromFile(
      file([
        '# comment',
        '',
        policy({ user: 'alice', namespace: 'ns', resource: 'pods', apiGroup: '*', readonly: true }),
        policy({ group: 'ops', namespace: '*', resource: '*', apiGroup: '*' }, UPSTREAM),
        policy({ user: 'bob', namespace: 'ns', resource: 'deployments', apiGroup: 'apps' }),
        policy({ user: '*', nonResourcePath: '/version' }),
        policy({ group: 'system:unauthenticated', nonResourcePath: '/healthz/*' }),
        policy({ user: 'carol', nonResourcePath: '*' }),
      ]),
    );
    const allowed = (a: Attributes) => authz.authorize(a).decision === 'allow';
    assert.ok(allowed(attrs()));
    assert.ok(allowed(attrs({ verb: 'list', name: '' })));
    assert.ok(!allowed(attrs({ verb: 'delete' })), 'read-only policy');
    assert.ok(!allowed(attrs({ namespace: 'other' })));
    assert.ok(!allowed(attrs({ resource: 'secrets' })));
    assert.ok(allowed(attrs({ user: { username: 'x', groups: ['ops'] }, verb: 'delete', namespace: 'any' })));
    const bob = { username: 'bob', groups: [] };
    assert.ok(allowed(attrs({ user: bob, verb: 'create', resource: 'deployments', apiGroup: 'apps' })));
    assert.ok(
      !allowed(attrs({ user: bob, verb: 'create', resource: 'deployments', apiGroup: 'extensions' })),
    );
    // `*` is every authenticated user, not the anonymous one.
    const version = {
      isResourceRequest: false,
      path: '/version',
      resource: '',
      namespace: '',
      apiVersion: '',
    };
    assert.ok(allowed(attrs({ ...version, user: { username: 'zed', groups: ['system:authenticated'] } })));
    assert.ok(!allowed(attrs({ ...version, user: anon })));
    assert.ok(allowed(attrs({ isResourceRequest: false, path: '/healthz/etcd', user: anon })));
    assert.ok(!allowed(attrs({ isResourceRequest: false, path: '/healthz', user: anon })));
    assert.ok(!allowed(attrs({ isResourceRequest: false, path: '/healthzx', user: anon })));
    const carol = { username: 'carol', groups: [] };
    assert.ok(allowed(attrs({ isResourceRequest: false, path: '/anything', verb: 'post', user: carol })));
    assert.ok(!allowed(attrs({ user: carol })), 'a non-resource policy does not cover resources');
    assert.deepEqual(authz.authorize(attrs({ user: carol })), {
      decision: 'noOpinion',
      reason: 'No policy matched.',
    });
  });

  it('reads the unversioned format as upstream converts it', () => {
    const authz = AbacAuthorizer.fromFile(file(['{"user":"dora","readonly":true}', '{}']));
    const p = authz.policies;
    assert.deepEqual(p[0], {
      user: 'dora',
      group: '',
      readonly: true,
      apiGroup: '*',
      namespace: '*',
      resource: '*',
      nonResourcePath: '*',
    });
    assert.equal(p[1].group, 'system:authenticated');
    assert.equal(
      authz.authorize(attrs({ user: { username: 'dora', groups: [] }, apiGroup: 'apps' })).decision,
      'allow',
    );
  });

  it('a line that does not decode stops the load with the file and its line number', () => {
    const f = file([policy({ user: 'a' }), '', '{"user": ', policy({ user: 'b' })]);
    assert.throws(
      () => loadPolicyFile(f),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(
            `^error reading policy file ${f}, line 3: \\{"user": : couldn't get version/kind; json parse error`,
          ),
        );
        return true;
      },
    );
    const typed = file([policy({ user: 7 })]);
    assert.throws(
      () => loadPolicyFile(typed),
      /line 1: .*cannot unmarshal number into Go struct field user of type string/,
    );
    assert.throws(() => loadPolicyFile(join(dir, 'missing')), /no such file or directory/);
  });
});
