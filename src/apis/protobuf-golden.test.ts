// Golden bytes for served kinds: our protobuf encoder against protobufjs reading the fixture protos
// (upstream's field numbers). The expected side is written Go-shaped by hand: every Go value field
// set, even when empty, because upstream's marshalers always write those; pointers only when set.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf, encodeProtobufList } from '../codec/protobuf/index.ts';
import { fixtureEnvelope, goMicroTime, goTime } from '../codec/protobuf/testing/golden.ts';
import type { ApiObject } from '../machinery/object.ts';
import { namingProfile } from '../naming/profile.ts';
import { builtinKinds } from './index.ts';
import { deploymentFixture, goMeta } from './testing/protobuf-fixtures.ts';

const kinds = builtinKinds(namingProfile('spec'));
const schemaOf = (kind: string) => {
  const k = kinds.find((x) => x.resource.kind === kind);
  if (k === undefined) throw new Error(kind);
  return k.schema;
};
const lookup = (_apiVersion: string, kind: string) => kinds.find((x) => x.resource.kind === kind)?.schema;

const T1 = '2024-05-06T07:08:09Z';
const T2 = '2024-05-07T10:11:12Z';

function assertGolden(json: ApiObject, expected: Buffer, kind: string): void {
  const ours = encodeProtobuf(schemaOf(kind), json);
  assert.equal(ours.toString('hex'), expected.toString('hex'));
  assert.deepEqual(decodeProtobuf(lookup, expected), json);
}

describe('protobuf golden bytes', () => {
  it('ConfigMap', () => {
    const json: ApiObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'settings',
        namespace: 'shop',
        uid: '6f1b7c1e-3a58-4a8e-9b1c-2d4e5f607182',
        resourceVersion: '812',
        creationTimestamp: T1,
        labels: { app: 'web', 'tier.example.com/role': 'front' },
        annotations: { note: 'héllo ✓' },
      },
      data: { 'app.yaml': 'port: 8080\n', empty: '' },
      binaryData: { blob: 'AAEC/w==' },
      immutable: true,
    };
    const expected = fixtureEnvelope('fixture.core.ConfigMap', 'v1', 'ConfigMap', {
      metadata: goMeta({
        name: 'settings',
        namespace: 'shop',
        uid: '6f1b7c1e-3a58-4a8e-9b1c-2d4e5f607182',
        resourceVersion: '812',
        creationTimestamp: goTime(T1),
        // Keys in sorted order: protobufjs writes them as given, Go sorts them.
        labels: { app: 'web', 'tier.example.com/role': 'front' },
        annotations: { note: 'héllo ✓' },
      }),
      data: { 'app.yaml': 'port: 8080\n', empty: '' },
      binaryData: { blob: Buffer.from([0, 1, 2, 255]) },
      immutable: true,
    });
    assertGolden(json, expected, 'ConfigMap');
  });

  it('ConfigMapList', () => {
    const list: ApiObject = {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '900', continue: 'abc', remainingItemCount: 2 },
      items: [
        { metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } },
        { metadata: { name: 'b', namespace: 'ns' } },
      ],
    };
    const expected = fixtureEnvelope('fixture.core.ConfigMapList', 'v1', 'ConfigMapList', {
      metadata: { selfLink: '', resourceVersion: '900', continue: 'abc', remainingItemCount: 2 },
      items: [
        { metadata: goMeta({ name: 'a', namespace: 'ns' }), data: { k: 'v' } },
        { metadata: goMeta({ name: 'b', namespace: 'ns' }) },
      ],
    });
    assert.equal(encodeProtobufList(schemaOf('ConfigMap'), list).toString('hex'), expected.toString('hex'));
    assert.deepEqual(decodeProtobuf(lookup, expected), list);
  });

  it('Secret', () => {
    const json: ApiObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'tls',
        namespace: 'shop',
        creationTimestamp: T1,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: 'aaaa-bbbb',
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ['example.com/keep'],
      },
      data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
      type: 'example.com/tls',
    };
    const expected = fixtureEnvelope('fixture.core.Secret', 'v1', 'Secret', {
      metadata: goMeta({
        name: 'tls',
        namespace: 'shop',
        creationTimestamp: goTime(T1),
        ownerReferences: [
          {
            kind: 'Deployment',
            name: 'web',
            uid: 'aaaa-bbbb',
            apiVersion: 'apps/v1',
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ['example.com/keep'],
      }),
      data: { 'tls.crt': Buffer.from('cert'), 'tls.key': Buffer.from('key') },
      type: 'example.com/tls',
    });
    assertGolden(json, expected, 'Secret');
  });

  it('Secret without type or data still writes the value fields', () => {
    const json: ApiObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    const expected = fixtureEnvelope('fixture.core.Secret', 'v1', 'Secret', {
      metadata: goMeta({ name: 's' }),
      type: '',
    });
    assertGolden(json, expected, 'Secret');
  });

  it('Namespace', () => {
    const json: ApiObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'shop',
        uid: 'u-1',
        resourceVersion: '5',
        creationTimestamp: T1,
        deletionTimestamp: T2,
        deletionGracePeriodSeconds: 0,
        labels: { 'example.com/metadata.name': 'shop' },
        managedFields: [
          {
            manager: 'platctl',
            operation: 'Update',
            apiVersion: 'v1',
            time: T1,
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:example.com/metadata.name': {} } } },
          },
        ],
      },
      spec: { finalizers: ['platform'] },
      status: {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceDeletionContentFailure',
            status: 'False',
            lastTransitionTime: T2,
            reason: 'ContentDeleted',
            message: 'All content successfully deleted',
          },
        ],
      },
    };
    const fields = JSON.stringify(
      (json.metadata?.managedFields as Record<string, unknown>[] | undefined)?.[0]?.fieldsV1,
    );
    const expected = fixtureEnvelope('fixture.core.Namespace', 'v1', 'Namespace', {
      metadata: goMeta({
        name: 'shop',
        uid: 'u-1',
        resourceVersion: '5',
        creationTimestamp: goTime(T1),
        deletionTimestamp: goTime(T2),
        deletionGracePeriodSeconds: 0,
        labels: { 'example.com/metadata.name': 'shop' },
        managedFields: [
          {
            manager: 'platctl',
            operation: 'Update',
            apiVersion: 'v1',
            time: goTime(T1),
            fieldsType: 'FieldsV1',
            fieldsV1: { Raw: Buffer.from(fields) },
            subresource: '',
          },
        ],
      }),
      spec: { finalizers: ['platform'] },
      status: {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceDeletionContentFailure',
            status: 'False',
            lastTransitionTime: goTime(T2),
            reason: 'ContentDeleted',
            message: 'All content successfully deleted',
          },
        ],
      },
    });
    assertGolden(json, expected, 'Namespace');
  });

  it('Lease (MicroTime keeps microseconds)', () => {
    const schema = schemaOf('Lease');
    const apiVersion = `${schema.group}/${schema.version}`;
    const json: ApiObject = {
      apiVersion,
      kind: 'Lease',
      metadata: { name: 'leader', namespace: 'plat-system' },
      spec: {
        holderIdentity: 'node-1',
        leaseDurationSeconds: 15,
        acquireTime: '2024-05-06T07:08:09.123456Z',
        renewTime: '2024-05-06T07:08:19.000001Z',
        leaseTransitions: 0,
      },
    };
    const expected = fixtureEnvelope('fixture.coordination.Lease', apiVersion, 'Lease', {
      metadata: goMeta({ name: 'leader', namespace: 'plat-system' }),
      spec: {
        holderIdentity: 'node-1',
        leaseDurationSeconds: 15,
        acquireTime: goMicroTime('2024-05-06T07:08:09.123456Z'),
        renewTime: goMicroTime('2024-05-06T07:08:19.000001Z'),
        leaseTransitions: 0,
      },
    });
    assertGolden(json, expected, 'Lease');
  });

  it('Deployment with a full pod template', () => {
    const { json, go } = deploymentFixture();
    const expected = fixtureEnvelope('fixture.apps.Deployment', 'apps/v1', 'Deployment', go);
    assertGolden(json, expected, 'Deployment');
  });
});
