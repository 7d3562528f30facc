import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAuthorizer } from './modes.ts';
import type { Attributes } from './types.ts';

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user: { username: 'alice', groups: ['system:authenticated'] },
  verb: 'list',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/configmaps',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'configmaps',
  subresource: '',
  namespace: 'ns',
  name: '',
  ...over,
});

describe('authorization modes', () => {
  it('AlwaysAllow allows every request', async () => {
    assert.equal((await buildAuthorizer(['AlwaysAllow']).authorize(attrs())).decision, 'allow');
  });

  it('AlwaysDeny denies ordinary users with its reason, but not system:masters', async () => {
    const chain = buildAuthorizer(['AlwaysDeny']);
    const denied = await chain.authorize(attrs());
    assert.deepEqual(denied, { decision: 'noOpinion', reason: 'Everything is forbidden.' });
    const admin = await chain.authorize(attrs({ user: { username: 'admin', groups: ['system:masters'] } }));
    assert.equal(admin.decision, 'allow');
  });

  it('health and version paths are readable by anyone, but not writable', async () => {
    const chain = buildAuthorizer(['AlwaysDeny']);
    const anon = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping', '/version']) {
      const v = await chain.authorize(attrs({ user: anon, isResourceRequest: false, verb: 'get', path }));
      assert.equal(v.decision, 'allow', path);
    }
    const post = await chain.authorize(
      attrs({ user: anon, isResourceRequest: false, verb: 'post', path: '/healthz' }),
    );
    assert.equal(post.decision, 'noOpinion');
    const other = await chain.authorize(
      attrs({ user: anon, isResourceRequest: false, verb: 'get', path: '/metrics' }),
    );
    assert.equal(other.decision, 'noOpinion');
  });
});
