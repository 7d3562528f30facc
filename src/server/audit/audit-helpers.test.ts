// The audit pipeline's small parts: source addresses as upstream lists them, MicroTime text, and
// managedFields dropped without touching the original.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deprecatedApiAnnotationKey } from '../../naming/deprecated-api-annotations.ts';
import { namingProfile } from '../../naming/profile.ts';
import { addAuditAnnotation, type RequestContext } from '../context.ts';
import { parseRequestInfo } from '../request-info.ts';
import type { AuditBackend, AuditEvent } from './event-types.ts';
import { withoutManagedFields } from './managed-fields.ts';
import { formatMicroTime } from './micro-time.ts';
import { auditGroup } from './policy-types.ts';
import { RequestAudit } from './request-audit.ts';
import { canonicalIp, sourceIps } from './source-ips.ts';

describe('audit source IPs', () => {
  it('X-Forwarded-For in order, then X-Real-Ip unless listed, then the peer unless last', () => {
    assert.deepEqual(sourceIps({}, '127.0.0.1'), ['127.0.0.1']);
    assert.deepEqual(sourceIps({ 'x-forwarded-for': '1.1.1.1, junk ,2.2.2.2' }, '3.3.3.3'), [
      '1.1.1.1',
      '2.2.2.2',
      '3.3.3.3',
    ]);
    assert.deepEqual(sourceIps({ 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '1.1.1.1' }, '1.1.1.1'), [
      '1.1.1.1',
    ]);
    assert.deepEqual(sourceIps({ 'x-real-ip': '4.4.4.4' }, '::ffff:127.0.0.1'), ['4.4.4.4', '127.0.0.1']);
    assert.deepEqual(sourceIps({ 'x-forwarded-for': 'nope' }, undefined), []);
  });

  it('addresses as Go prints them', () => {
    assert.equal(canonicalIp('::FFFF:10.0.0.1'), '10.0.0.1');
    assert.equal(canonicalIp('2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
    assert.equal(canonicalIp('[::1]'), '::1');
    assert.equal(canonicalIp('example.com'), undefined);
  });
});

describe('audit MicroTime', () => {
  it('six fractional digits, UTC', () => {
    const ms = Date.UTC(2026, 10, 26, 17, 20, 1, 123) + 0.456;
    assert.equal(formatMicroTime(ms), '2026-11-26T17:20:01.123456Z');
    assert.equal(formatMicroTime(Date.UTC(2026, 0, 1)), '2026-01-01T00:00:00.000000Z');
    // The cached second is not reused for the next one.
    assert.equal(formatMicroTime(Date.UTC(2026, 0, 1, 0, 0, 1) + 0.001), '2026-01-01T00:00:01.000001Z');
  });
});

describe('omitManagedFields', () => {
  it('drops them from an object, list items and Table rows; the original is untouched', () => {
    const mf = [{ manager: 'm' }];
    const obj = { kind: 'ConfigMap', metadata: { name: 'a', managedFields: mf } };
    assert.deepEqual(withoutManagedFields(obj), { kind: 'ConfigMap', metadata: { name: 'a' } });
    assert.equal(obj.metadata.managedFields, mf);
    const list = { kind: 'ConfigMapList', metadata: {}, items: [obj, { metadata: { name: 'b' } }] };
    assert.deepEqual(withoutManagedFields(list), {
      kind: 'ConfigMapList',
      metadata: {},
      items: [{ kind: 'ConfigMap', metadata: { name: 'a' } }, { metadata: { name: 'b' } }],
    });
    const table = { kind: 'Table', rows: [{ cells: [], object: obj }] };
    assert.deepEqual(withoutManagedFields(table), {
      kind: 'Table',
      rows: [{ cells: [], object: { kind: 'ConfigMap', metadata: { name: 'a' } } }],
    });
    assert.equal(withoutManagedFields('text'), 'text');
  });
});

describe('a request record', () => {
  const SPEC = namingProfile('spec');
  function record() {
    const ctx = {
      req: { headers: {}, socket: { remoteAddress: '127.0.0.1' } },
      url: '/apis/apps/v1/namespaces/a/deployments',
      info: parseRequestInfo('POST', '/apis/apps/v1/namespaces/a/deployments'),
      user: { username: 'u', groups: ['g'] },
    } as unknown as RequestContext;
    const events: AuditEvent[] = [];
    const backend: AuditBackend = {
      name: 'fake',
      processEvents: (...e) => {
        events.push(...e);
        return true;
      },
      shutdown: async () => {},
    };
    const ra = new RequestAudit(ctx, 'id-1', Date.now());
    ra.init(
      { level: 'Metadata', omitStages: [], omitManagedFields: false },
      { backend, apiVersion: `${auditGroup(SPEC)}/v1`, observeEvent: () => {} },
    );
    ra.logRequestMetadata();
    return { ctx, ra, events };
  }

  it('carries every annotation added through the context (the deprecation one too), each event as it stood', () => {
    const { ctx, ra, events } = record();
    ra.processStage('RequestReceived');
    addAuditAnnotation(ctx, deprecatedApiAnnotationKey(SPEC), 'true');
    ra.processStage('ResponseStarted');
    addAuditAnnotation(ctx, 'example.com/later', 'x');
    ra.processStage('ResponseComplete');
    assert.equal(events[0].annotations, undefined);
    assert.deepEqual(events[1].annotations, { [deprecatedApiAnnotationKey(SPEC)]: 'true' });
    assert.deepEqual(events[2].annotations, {
      [deprecatedApiAnnotationKey(SPEC)]: 'true',
      'example.com/later': 'x',
    });
  });

  it('a create at Metadata: objectRef named from the body, no object kept', () => {
    const { ra, events } = record();
    ra.logRequestObject({ metadata: { name: 'web', uid: 'u-1', resourceVersion: '7', namespace: 'b' } });
    ra.logResponse(201, { kind: 'Deployment' });
    ra.processStage('ResponseComplete');
    assert.deepEqual(events[0].objectRef, {
      resource: 'deployments',
      namespace: 'a',
      name: 'web',
      uid: 'u-1',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resourceVersion: '7',
    });
    assert.equal(events[0].requestObject, undefined);
    assert.deepEqual(events[0].responseStatus, { metadata: {}, code: 201 });
  });
});
