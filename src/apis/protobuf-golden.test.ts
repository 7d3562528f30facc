// Golden bytes for served kinds: our protobuf encoder against protobufjs reading the fixture protos
// (upstream's field numbers). The expected side is written Go-shaped by hand: every Go value field
// set, even when empty, because upstream's marshalers always write those; pointers only when set.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf, encodeProtobufList } from '../codec/protobuf/index.ts';
import {
  fixtureEnvelope,
  goIntOrString,
  goMicroTime,
  goQuantity,
  goTime,
} from '../codec/protobuf/testing/golden.ts';
import type { ApiObject } from '../machinery/object.ts';
import { namingProfile } from '../naming/profile.ts';
import { builtinKinds } from './index.ts';

const kinds = builtinKinds(namingProfile('spec'));
const schemaOf = (kind: string) => {
  const k = kinds.find((x) => x.resource.kind === kind);
  if (k === undefined) throw new Error(kind);
  return k.schema;
};
const lookup = (_apiVersion: string, kind: string) => kinds.find((x) => x.resource.kind === kind)?.schema;

const T1 = '2024-05-06T07:08:09Z';
const T2 = '2024-05-07T10:11:12Z';

/** ObjectMeta's value fields, as Go writes them whatever is set. */
const goMeta = (m: Record<string, unknown>) => ({
  name: '',
  generateName: '',
  namespace: '',
  selfLink: '',
  uid: '',
  resourceVersion: '',
  generation: 0,
  creationTimestamp: {},
  ...m,
});

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

/** A realistic Deployment as our JSON has it, and the same Go-shaped for protobufjs. */
export function deploymentFixture(): { json: ApiObject; go: Record<string, unknown> } {
  const labels = { app: 'web', tier: 'frontend' };
  const json: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'd1c6b0f2-0000-4000-8000-000000000001',
      resourceVersion: '4711',
      generation: 3,
      creationTimestamp: T1,
      labels,
      annotations: { 'example.com/revision': '2' },
    },
    spec: {
      replicas: 3,
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'edge'] }],
      },
      template: {
        metadata: { labels },
        spec: {
          volumes: [
            {
              name: 'config',
              configMap: {
                name: 'web-config',
                items: [{ key: 'app.yaml', path: 'app.yaml' }],
                defaultMode: 420,
              },
            },
            { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
          ],
          initContainers: [
            {
              name: 'migrate',
              image: 'registry.example/web:1.2.3',
              command: ['/bin/migrate'],
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          containers: [
            {
              name: 'app',
              image: 'registry.example/web:1.2.3',
              command: ['/bin/web'],
              args: ['--port=8080', '--verbose'],
              workingDir: '/srv',
              ports: [
                { name: 'http', containerPort: 8080, protocol: 'TCP' },
                { hostPort: 19090, containerPort: 9090, protocol: 'UDP', hostIP: '127.0.0.1' },
              ],
              env: [
                { name: 'MODE', value: 'prod' },
                {
                  name: 'POD_NAME',
                  valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
                },
                {
                  name: 'LEVEL',
                  valueFrom: { configMapKeyRef: { name: 'cfg', key: 'level', optional: true } },
                },
                {
                  name: 'CPU',
                  valueFrom: {
                    resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' },
                  },
                },
              ],
              resources: {
                limits: { cpu: '500m', memory: '256Mi' },
                requests: { cpu: '250m', memory: '128Mi' },
              },
              volumeMounts: [{ name: 'config', readOnly: true, mountPath: '/etc/web' }],
              livenessProbe: {
                httpGet: {
                  path: '/healthz',
                  port: 'http',
                  scheme: 'HTTP',
                  httpHeaders: [{ name: 'X-Probe', value: '1' }],
                },
                initialDelaySeconds: 5,
                timeoutSeconds: 1,
                periodSeconds: 10,
                successThreshold: 1,
                failureThreshold: 3,
              },
              readinessProbe: {
                tcpSocket: { port: 8080 },
                timeoutSeconds: 1,
                periodSeconds: 5,
                successThreshold: 1,
                failureThreshold: 3,
              },
              lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } },
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
              securityContext: {
                capabilities: { drop: ['ALL'] },
                runAsUser: 1000,
                runAsNonRoot: true,
                allowPrivilegeEscalation: false,
              },
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          nodeSelector: { disk: 'ssd', zone: 'a' },
          serviceAccountName: 'web',
          securityContext: { runAsGroup: -1, fsGroup: 2000, supplementalGroups: [3000, 3001] },
          imagePullSecrets: [{ name: 'pull' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] },
                ],
              },
            },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: {
                    labelSelector: { matchLabels: { app: 'web' } },
                    topologyKey: 'hostname',
                  },
                },
              ],
            },
          },
          schedulerName: 'default-scheduler',
          tolerations: [
            { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
            { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          ],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: T1,
          lastTransitionTime: T1,
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
      ],
    },
  };

  // Go-shaped: value fields of every message spelled out.
  const container = (c: Record<string, unknown>) => ({
    name: '',
    image: '',
    workingDir: '',
    resources: {},
    terminationMessagePath: '',
    terminationMessagePolicy: '',
    imagePullPolicy: '',
    stdin: false,
    stdinOnce: false,
    tty: false,
    ...c,
  });
  const probe = (p: Record<string, unknown>) => ({
    initialDelaySeconds: 0,
    timeoutSeconds: 0,
    periodSeconds: 0,
    successThreshold: 0,
    failureThreshold: 0,
    ...p,
  });
  const go = {
    metadata: goMeta({
      name: 'web',
      namespace: 'shop',
      uid: 'd1c6b0f2-0000-4000-8000-000000000001',
      resourceVersion: '4711',
      generation: 3,
      creationTimestamp: goTime(T1),
      labels,
      annotations: { 'example.com/revision': '2' },
    }),
    spec: {
      replicas: 3,
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'edge'] }],
      },
      template: {
        metadata: goMeta({ labels }),
        spec: {
          volumes: [
            {
              name: 'config',
              volumeSource: {
                configMap: {
                  localObjectReference: { name: 'web-config' },
                  items: [{ key: 'app.yaml', path: 'app.yaml' }],
                  defaultMode: 420,
                },
              },
            },
            {
              name: 'scratch',
              volumeSource: { emptyDir: { medium: '', sizeLimit: goQuantity('1Gi') } },
            },
          ],
          initContainers: [
            container({
              name: 'migrate',
              image: 'registry.example/web:1.2.3',
              command: ['/bin/migrate'],
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            }),
          ],
          containers: [
            container({
              name: 'app',
              image: 'registry.example/web:1.2.3',
              command: ['/bin/web'],
              args: ['--port=8080', '--verbose'],
              workingDir: '/srv',
              ports: [
                { name: 'http', hostPort: 0, containerPort: 8080, protocol: 'TCP', hostIP: '' },
                { name: '', hostPort: 19090, containerPort: 9090, protocol: 'UDP', hostIP: '127.0.0.1' },
              ],
              env: [
                { name: 'MODE', value: 'prod' },
                {
                  name: 'POD_NAME',
                  value: '',
                  valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
                },
                {
                  name: 'LEVEL',
                  value: '',
                  valueFrom: {
                    configMapKeyRef: { localObjectReference: { name: 'cfg' }, key: 'level', optional: true },
                  },
                },
                {
                  name: 'CPU',
                  value: '',
                  valueFrom: {
                    resourceFieldRef: {
                      containerName: 'app',
                      resource: 'limits.cpu',
                      divisor: goQuantity('1m'),
                    },
                  },
                },
              ],
              resources: {
                limits: { cpu: goQuantity('500m'), memory: goQuantity('256Mi') },
                requests: { cpu: goQuantity('250m'), memory: goQuantity('128Mi') },
              },
              volumeMounts: [
                { name: 'config', readOnly: true, mountPath: '/etc/web', subPath: '', subPathExpr: '' },
              ],
              livenessProbe: probe({
                handler: {
                  httpGet: {
                    path: '/healthz',
                    port: goIntOrString('http'),
                    host: '',
                    scheme: 'HTTP',
                    httpHeaders: [{ name: 'X-Probe', value: '1' }],
                  },
                },
                initialDelaySeconds: 5,
                timeoutSeconds: 1,
                periodSeconds: 10,
                successThreshold: 1,
                failureThreshold: 3,
              }),
              readinessProbe: probe({
                handler: { tcpSocket: { port: goIntOrString(8080), host: '' } },
                timeoutSeconds: 1,
                periodSeconds: 5,
                successThreshold: 1,
                failureThreshold: 3,
              }),
              lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } },
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
              securityContext: {
                capabilities: { drop: ['ALL'] },
                runAsUser: 1000,
                runAsNonRoot: true,
                allowPrivilegeEscalation: false,
              },
            }),
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          nodeSelector: { disk: 'ssd', zone: 'a' },
          serviceAccountName: 'web',
          serviceAccount: '',
          nodeName: '',
          hostNetwork: false,
          hostPID: false,
          hostIPC: false,
          securityContext: { runAsGroup: -1, fsGroup: 2000, supplementalGroups: [3000, 3001] },
          imagePullSecrets: [{ name: 'pull' }],
          hostname: '',
          subdomain: '',
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] },
                ],
              },
            },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: {
                    labelSelector: { matchLabels: { app: 'web' } },
                    topologyKey: 'hostname',
                  },
                },
              ],
            },
          },
          schedulerName: 'default-scheduler',
          tolerations: [
            { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
            { key: '', operator: 'Exists', value: '', effect: 'NoExecute', tolerationSeconds: 300 },
          ],
          priorityClassName: '',
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        },
      },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: goIntOrString('25%'), maxSurge: goIntOrString(1) },
      },
      minReadySeconds: 0,
      revisionHistoryLimit: 10,
      paused: false,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 0,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: goTime(T1),
          lastTransitionTime: goTime(T1),
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
      ],
    },
  };
  return { json, go };
}
