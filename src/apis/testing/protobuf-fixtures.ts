// Realistic objects for protobuf tests of served kinds: each as our JSON has it and, for golden
// tests, Go-shaped (every Go value field set) for the independent encoder.

import { goIntOrString, goQuantity, goTime } from '../../codec/protobuf/testing/golden.ts';
import type { ApiObject } from '../../machinery/object.ts';

const T1 = '2024-05-06T07:08:09Z';

/** ObjectMeta's value fields, as Go writes them whatever is set. */
export const goMeta = (m: Record<string, unknown>) => ({
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
