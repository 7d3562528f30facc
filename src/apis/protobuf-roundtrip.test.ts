// Every served kind through protobuf and back: fully populated objects come back identical, alone
// and in their lists; and every property of every served schema declares its field number.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf, encodeProtobufList } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { namingProfile } from '../naming/profile.ts';
import type { KindSchema, SchemaNode } from '../schema/types.ts';
import { scaleView } from './apps/scale.ts';
import { builtinKinds } from './index.ts';
import { deploymentFixture } from './testing/protobuf-fixtures.ts';

const kinds = builtinKinds(namingProfile('spec'));
const schemas: KindSchema[] = [...kinds.map((k) => k.schema), scaleView.schema];
const schemaOf = (kind: string) => schemas.find((s) => s.kind === kind) as KindSchema;
const lookup = (_apiVersion: string, kind: string) => schemas.find((s) => s.kind === kind);
const apiVersion = (s: KindSchema) => (s.group === '' ? s.version : `${s.group}/${s.version}`);

const T = '2024-02-03T04:05:06Z';
const meta = (name: string) => ({
  name,
  namespace: 'shop',
  uid: `uid-${name}`,
  resourceVersion: '42',
  generation: 2,
  creationTimestamp: T,
  labels: { app: name },
  annotations: { 'example.com/a': 'b' },
  finalizers: ['example.com/f'],
  ownerReferences: [
    { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u-web', controller: true },
  ],
  managedFields: [
    {
      manager: 'platctl',
      operation: 'Apply',
      apiVersion: 'v1',
      time: T,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
      subresource: 'status',
    },
  ],
});

function objects(): ApiObject[] {
  const dep = deploymentFixture().json;
  const depSpec = dep.spec as Record<string, unknown>;
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { ...meta('ns'), namespace: undefined },
      spec: { finalizers: ['platform'] },
      status: {
        phase: 'Active',
        conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime: T }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('cm'),
      data: { a: '1', 'b.txt': 'multi\nline' },
      binaryData: { bin: 'AP8=' },
      immutable: false,
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('sec'),
      data: { token: 'c2VjcmV0' },
      type: 'Opaque',
      immutable: true,
    },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta('sa'),
      secrets: [
        { kind: 'Secret', namespace: 'shop', name: 'tok', uid: 'u', apiVersion: 'v1', fieldPath: 'x' },
      ],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    },
    {
      apiVersion: apiVersion(schemaOf('Lease')),
      kind: 'Lease',
      metadata: meta('lease'),
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2024-02-03T04:05:06.000001Z',
        renewTime: '2024-02-03T04:05:16.999999Z',
        leaseTransitions: 3,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'you',
      },
    },
    { ...dep, metadata: { ...dep.metadata, ...meta('web') } },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('web-abc'),
      spec: {
        replicas: 2,
        minReadySeconds: 5,
        selector: depSpec.selector,
        template: depSpec.template,
      },
      status: {
        replicas: 2,
        fullyLabeledReplicas: 2,
        readyReplicas: 1,
        availableReplicas: 1,
        terminatingReplicas: 0,
        observedGeneration: 2,
        conditions: [
          {
            type: 'ReplicaFailure',
            status: 'True',
            lastTransitionTime: T,
            reason: 'FailedCreate',
            message: 'quota',
          },
        ],
      },
    },
    {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: meta('web'),
      spec: { replicas: 4 },
      status: { replicas: 0, selector: 'app=web' },
    },
  ];
}

/** JSON's view of an object: undefined members gone. */
const plain = (o: unknown) => JSON.parse(JSON.stringify(o));

describe('protobuf round trips of served kinds', () => {
  for (const obj of objects()) {
    it(`${obj.kind}`, () => {
      const schema = schemaOf(obj.kind as string);
      const json = plain(obj);
      const back = decodeProtobuf(lookup, encodeProtobuf(schema, json));
      assert.deepEqual(back, json);
      // Encoding the decoded object again gives the same bytes.
      assert.deepEqual(encodeProtobuf(schema, back), encodeProtobuf(schema, json));
    });
  }

  for (const obj of objects()) {
    if (obj.kind === 'Scale') continue;
    it(`${obj.kind}List`, () => {
      const schema = schemaOf(obj.kind as string);
      const { apiVersion: _a, kind: _k, ...item } = plain(obj);
      const list = {
        apiVersion: apiVersion(schema),
        kind: `${obj.kind}List`,
        metadata: { resourceVersion: '77', continue: 'next' },
        items: [item, item],
      };
      assert.deepEqual(decodeProtobuf(lookup, encodeProtobufList(schema, list)), list);
    });
  }

  it('an empty object comes back in upstream JSON form (value structs present)', () => {
    const back = decodeProtobuf(lookup, encodeProtobuf(schemaOf('Deployment'), {}));
    assert.deepEqual(back, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {},
      spec: { template: { metadata: {}, spec: {} }, strategy: {} },
      status: {},
    });
  });
});

describe('protobuf markers', () => {
  it('every property of every served kind has a field number', () => {
    const missing: string[] = [];
    for (const s of schemas) {
      const seen = new Set<SchemaNode>();
      const walk = (node: SchemaNode, path: string) => {
        if (seen.has(node)) return;
        seen.add(node);
        const n = node.ref !== undefined ? s.definitions[node.ref] : node;
        if (n === undefined) return;
        const props = node.protoProperties ?? n.protoProperties ?? n.properties ?? {};
        for (const [k, child] of Object.entries(props)) {
          const at = `${path}.${k}`;
          if (child.proto === undefined && !(path === s.kind && (k === 'apiVersion' || k === 'kind'))) {
            missing.push(`${s.kind}: ${at}`);
          }
          if (child.protoKeepZero) {
            const t = (child.ref !== undefined ? s.definitions[child.ref] : child)?.type;
            assert.ok(t === 'string' || t === 'integer' || t === 'boolean', `${at} keeps zero of ${t}`);
          }
          walk(child, at);
        }
        if (n.items !== undefined) walk(n.items, `${path}[]`);
        if (n.additionalProperties !== undefined) walk(n.additionalProperties, `${path}{}`);
      };
      walk(s.root, s.kind);
    }
    assert.deepEqual(missing, []);
  });
});
