import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTable } from '../../codec/table.ts';
import { errorString } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { defaultPullPolicy } from '../core/pod/index.ts';
import { deploymentKind } from './deployment.ts';
import { replicaSetKind } from './replicaset.ts';
import { scaleView } from './scale.ts';

const deployment = (spec: Record<string, unknown> = {}, name = 'web'): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    },
    ...spec,
  },
});

const s = deploymentKind.strategy;
/** Defaults then validation, as the generic store runs them on create. */
const errorsOf = (obj: ApiObject) => {
  s.applyDefaults?.(obj);
  return s.validate(obj).map(errorString);
};

describe('Deployment defaults', () => {
  it('fill the spec and pod template exactly as upstream', () => {
    const d = deployment();
    s.prepareForCreate?.(d);
    s.applyDefaults?.(d);
    assert.deepEqual(d.status, {});
    assert.deepEqual(d.spec, {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx',
              imagePullPolicy: 'Always',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              resources: {},
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it('pull policy follows the image tag; explicit zero replicas stay zero', () => {
    assert.equal(defaultPullPolicy('nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
    assert.equal(defaultPullPolicy('registry:5000/nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:1.27'), 'IfNotPresent');
    assert.equal(defaultPullPolicy('nginx@sha256:abc'), 'IfNotPresent');
    const d = deployment({ replicas: 0 });
    s.applyDefaults?.(d);
    assert.equal((d.spec as { replicas: number }).replicas, 0);
  });

  it('Recreate gets no rollingUpdate', () => {
    const d = deployment({ strategy: { type: 'Recreate' } });
    s.applyDefaults?.(d);
    assert.deepEqual((d.spec as { strategy: unknown }).strategy, { type: 'Recreate' });
  });
});

describe('Deployment validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a missing selector', { selector: undefined }, 'spec.selector: Required value'],
    [
      'an empty selector',
      { selector: {} },
      'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    ],
    [
      'a selector that misses the template labels',
      { selector: { matchLabels: { app: 'other' } } },
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ],
    [
      'negative replicas',
      { replicas: -1 },
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      'a restartPolicy other than Always',
      {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] },
        },
      },
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ],
    [
      'both maxSurge and maxUnavailable zero',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    ],
    [
      'zero percents',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '0%', maxUnavailable: '0%' } } },
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
    ],
    [
      'maxUnavailable above 100%',
      { strategy: { rollingUpdate: { maxUnavailable: '120%' } } },
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
    ],
    [
      'a malformed percent',
      { strategy: { rollingUpdate: { maxSurge: 'ten' } } },
      `spec.strategy.rollingUpdate.maxSurge: Invalid value: "ten": a valid percent string must be a numeric string followed by an ending '%'`,
    ],
    [
      'rollingUpdate with Recreate',
      { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } },
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ],
    [
      'an unknown strategy',
      { strategy: { type: 'BlueGreen' } },
      'spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"',
    ],
    [
      'a progress deadline not above minReadySeconds',
      { minReadySeconds: 30, progressDeadlineSeconds: 30 },
      'spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds',
    ],
    [
      'no containers',
      { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } } },
      'spec.template.spec.containers: Required value',
    ],
    [
      'duplicate container names',
      {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'a', image: 'i' },
              { name: 'a', image: 'i' },
            ],
          },
        },
      },
      'spec.template.spec.containers[1].name: Duplicate value: "a"',
    ],
    [
      'a port out of range',
      {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'a', image: 'i', ports: [{ containerPort: 70000 }] }] },
        },
      },
      'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ],
    [
      'a mount of a volume that does not exist',
      {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [{ name: 'a', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
          },
        },
      },
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"',
    ],
  ];
  for (const [what, spec, message] of cases) {
    it(`refuses ${what}`, () => {
      const errs = errorsOf(deployment(spec));
      assert.ok(
        errs.some((e) => e.startsWith(message)),
        `${message}\nnot among:\n${errs.join('\n')}`,
      );
    });
  }

  it('accepts the minimal deployment', () => {
    assert.deepEqual(errorsOf(deployment()), []);
  });

  it('keeps the selector immutable and counts spec changes only as generations', () => {
    const old = deployment();
    const next = deployment({ selector: { matchLabels: { app: 'web', tier: 'x' } } });
    assert.deepEqual(s.validateUpdate(next, old).map(errorString), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
    assert.equal(s.specChanged?.(deployment({ replicas: 2 }), old), true);
    assert.equal(s.specChanged?.({ ...old, metadata: { name: 'web', labels: { a: 'b' } } }, old), false);
  });
});

describe('Deployment and ReplicaSet tables and scale', () => {
  const d = deployment({ replicas: 3 });
  d.status = { readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 };

  it('deployment columns as kubectl shows them, wide ones at priority 1', () => {
    const table = buildTable([d], deploymentKind.table, {
      group: 'meta',
      version: 'v1',
      listMeta: { resourceVersion: '1' },
    }) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      table.columnDefinitions.map((c) => `${c.name}:${c.priority}`),
      ['Name:0', 'Ready:0', 'Up-to-date:0', 'Available:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1'],
    );
    assert.deepEqual(table.rows[0].cells.slice(0, 4), ['web', '1/3', 2, 1]);
    assert.deepEqual(table.rows[0].cells.slice(5), ['nginx', 'nginx', 'app=web']);
  });

  it('replicaset columns', () => {
    const rs = {
      ...deployment({ replicas: 2 }),
      kind: 'ReplicaSet',
      status: { replicas: 2, readyReplicas: 1 },
    };
    const table = buildTable([rs], replicaSetKind.table, {
      group: 'meta',
      version: 'v1',
      listMeta: { resourceVersion: '1' },
    }) as {
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(table.rows[0].cells.slice(0, 4), ['web', 2, 2, 1]);
  });

  it('scale reads spec.replicas with the selector string and writes only spec.replicas', () => {
    const view = scaleView.read({
      ...d,
      metadata: { ...d.metadata, resourceVersion: '7' },
      status: { replicas: 2 },
    });
    assert.deepEqual(view.spec, { replicas: 3 });
    assert.deepEqual(view.status, { replicas: 2, selector: 'app=web' });
    assert.equal(view.metadata?.resourceVersion, '7');
    const written = scaleView.write({ spec: { replicas: 5 } }, structuredClone(d));
    assert.equal((written.spec as { replicas: number }).replicas, 5);
    assert.deepEqual((written.spec as { selector: unknown }).selector, { matchLabels: { app: 'web' } });
    assert.deepEqual(scaleView.validate({ spec: { replicas: -1 } }).map(errorString), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});
