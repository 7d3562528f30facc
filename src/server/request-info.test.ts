import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupName, namingProfile } from '../naming/profile.ts';
import { parseRequestInfo } from './request-info.ts';

const SPEC = namingProfile('spec');

function info(method: string, url: string) {
  const i = parseRequestInfo(method, url);
  return {
    res: i.isResourceRequest,
    verb: i.verb,
    group: i.apiGroup,
    version: i.apiVersion,
    ns: i.namespace,
    resource: i.resource,
    sub: i.subresource,
    name: i.name,
  };
}

const R = (
  verb: string,
  group: string,
  version: string,
  ns: string,
  resource: string,
  name = '',
  sub = '',
) => ({
  res: true,
  verb,
  group,
  version,
  ns,
  resource,
  sub,
  name,
});

describe('request info', () => {
  it('core group, namespaced collection and object', () => {
    assert.deepEqual(
      info('GET', '/api/v1/namespaces/ns1/configmaps'),
      R('list', '', 'v1', 'ns1', 'configmaps'),
    );
    assert.deepEqual(
      info('POST', '/api/v1/namespaces/ns1/configmaps'),
      R('create', '', 'v1', 'ns1', 'configmaps'),
    );
    assert.deepEqual(
      info('GET', '/api/v1/namespaces/ns1/configmaps/a'),
      R('get', '', 'v1', 'ns1', 'configmaps', 'a'),
    );
    assert.deepEqual(
      info('HEAD', '/api/v1/namespaces/ns1/configmaps/a'),
      R('get', '', 'v1', 'ns1', 'configmaps', 'a'),
    );
    assert.deepEqual(
      info('PUT', '/api/v1/namespaces/ns1/configmaps/a'),
      R('update', '', 'v1', 'ns1', 'configmaps', 'a'),
    );
    assert.deepEqual(
      info('PATCH', '/api/v1/namespaces/ns1/configmaps/a'),
      R('patch', '', 'v1', 'ns1', 'configmaps', 'a'),
    );
    assert.deepEqual(
      info('DELETE', '/api/v1/namespaces/ns1/configmaps/a'),
      R('delete', '', 'v1', 'ns1', 'configmaps', 'a'),
    );
    assert.deepEqual(
      info('DELETE', '/api/v1/namespaces/ns1/configmaps'),
      R('deletecollection', '', 'v1', 'ns1', 'configmaps'),
    );
  });

  it('watch by query parameter, in any ParseBool spelling of true', () => {
    assert.equal(info('GET', '/api/v1/namespaces/ns1/configmaps?watch=true').verb, 'watch');
    assert.equal(info('GET', '/api/v1/configmaps?watch=1').verb, 'watch');
    assert.equal(info('GET', '/api/v1/configmaps?watch=false').verb, 'list');
  });

  it('named groups, cluster scope and across all namespaces', () => {
    assert.deepEqual(
      info('GET', `/apis/${groupName(SPEC, 'coordination')}/v1/namespaces/ns/leases/l1`),
      R('get', `${groupName(SPEC, 'coordination')}`, 'v1', 'ns', 'leases', 'l1'),
    );
    assert.deepEqual(info('GET', '/apis/apps/v1/deployments'), R('list', 'apps', 'v1', '', 'deployments'));
    assert.deepEqual(info('GET', '/api/v1/configmaps'), R('list', '', 'v1', '', 'configmaps'));
  });

  it('namespaces themselves: the namespace is the name, status and finalize are sub-resources', () => {
    assert.deepEqual(info('GET', '/api/v1/namespaces'), R('list', '', 'v1', '', 'namespaces'));
    assert.deepEqual(info('GET', '/api/v1/namespaces/ns1'), R('get', '', 'v1', 'ns1', 'namespaces', 'ns1'));
    assert.deepEqual(
      info('PUT', '/api/v1/namespaces/ns1/status'),
      R('update', '', 'v1', 'ns1', 'namespaces', 'ns1', 'status'),
    );
    assert.deepEqual(
      info('PUT', '/api/v1/namespaces/ns1/finalize'),
      R('update', '', 'v1', 'ns1', 'namespaces', 'ns1', 'finalize'),
    );
  });

  it('sub-resources of namespaced and cluster-scoped objects', () => {
    assert.deepEqual(
      info('PATCH', '/apis/apps/v1/namespaces/ns/deployments/d/status'),
      R('patch', 'apps', 'v1', 'ns', 'deployments', 'd', 'status'),
    );
    assert.deepEqual(
      info('PUT', `/apis/${groupName(SPEC, 'certificates')}/v1/certificatesigningrequests/c/approval`),
      R(
        'update',
        `${groupName(SPEC, 'certificates')}`,
        'v1',
        '',
        'certificatesigningrequests',
        'c',
        'approval',
      ),
    );
  });

  it('a metadata.name field selector narrows list and watch to that name', () => {
    assert.equal(info('GET', '/api/v1/namespaces/n/configmaps?fieldSelector=metadata.name%3Dx').name, 'x');
    assert.equal(
      info('GET', '/api/v1/namespaces/n/configmaps?watch=1&fieldSelector=metadata.name%3D%3Dy').name,
      'y',
    );
    assert.equal(
      info('GET', '/api/v1/namespaces/n/configmaps?fieldSelector=metadata.namespace%3Dx').name,
      '',
    );
  });

  it('discovery roots and other paths are non-resource requests with the method as verb', () => {
    for (const p of [
      '/api',
      '/apis',
      '/apis/apps',
      '/api/v1',
      '/apis/apps/v1',
      '/healthz',
      '/version',
      '/',
    ]) {
      const i = parseRequestInfo('GET', p);
      assert.equal(i.isResourceRequest, false, p);
      assert.equal(i.verb, 'get');
      assert.equal(i.path, p);
    }
    assert.equal(parseRequestInfo('POST', '/livez?verbose').verb, 'post');
    assert.equal(parseRequestInfo('GET', '/readyz?verbose').path, '/readyz');
  });

  it('percent-encoded segments are decoded; malformed escapes make a non-resource request', () => {
    assert.equal(info('GET', '/api/v1/namespaces/ns/configmaps/a%3Ab').name, 'a:b');
    assert.equal(parseRequestInfo('GET', '/api/v1/namespaces/ns/configmaps/%zz').isResourceRequest, false);
  });
});
