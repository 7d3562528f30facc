// The Pod's rules without a server: QoS classes, grace periods, update validation, the printer's
// STATUS/READY/RESTARTS cells, and a full Pod with its status through protobuf and back.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../../codec/protobuf/index.ts';
import { errorString, newPath } from '../../../machinery/field-errors.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import { namingProfile } from '../../../naming/profile.ts';
import { podColumns } from './columns.ts';
import { podGracePeriod, podKind, podSchema } from './kind.ts';
import { podQOSClass } from './qos.ts';
import {
  POD_UPDATE_FORBIDDEN_MESSAGE,
  validatePodStatusUpdate,
  validatePodUpdate,
} from './update-validation.ts';
import { validatePodSpec } from './validation.ts';

type Obj = Record<string, unknown>;
const c = (resources?: Obj) => ({ name: 'c', image: 'x:1', ...(resources ? { resources } : {}) });
const pod = (spec: Obj, status: Obj = {}, meta: Obj = {}): ApiObject =>
  ({
    metadata: { name: 'p', creationTimestamp: new Date().toISOString(), ...meta },
    spec,
    status,
  }) as ApiObject;

describe('pod spec: container ports', () => {
  it("names are IANA service names, unique within a container, checked before the port's numbers", () => {
    const ports = [
      { name: 'http', containerPort: 80 },
      { name: 'http', containerPort: 81 },
      { name: 'Web--', containerPort: 0 },
      { name: '8080', containerPort: 8080 },
      { name: 'a-very-long-port-name', containerPort: 90 },
    ];
    const errs = validatePodSpec({ containers: [{ ...c(), ports }] }, newPath('spec')).map(errorString);
    assert.deepEqual(errs, [
      'spec.containers[0].ports[1].name: Duplicate value: "http"',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must not contain consecutive hyphens',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must not begin or end with a hyphen',
      'spec.containers[0].ports[2].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[3].name: Invalid value: "8080": must contain at least one letter (a-z)',
      'spec.containers[0].ports[4].name: Invalid value: "a-very-long-port-name": must be no more than 15 characters',
    ]);
    // The same name in two containers is fine.
    const two = {
      containers: [
        { ...c(), ports: [ports[0]] },
        { ...c(), name: 'd', ports: [ports[0]] },
      ],
    };
    assert.deepEqual(validatePodSpec(two, newPath('spec')), []);
  });
});

describe('pod QoS class', () => {
  it('BestEffort, Burstable, Guaranteed as upstream computes them', () => {
    assert.equal(podQOSClass({ containers: [c()] }), 'BestEffort');
    assert.equal(podQOSClass({ containers: [c({ requests: { cpu: '0' } })] }), 'BestEffort');
    assert.equal(podQOSClass({ containers: [c({ requests: { cpu: '100m' } })] }), 'Burstable');
    const full = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1Gi' } };
    assert.equal(podQOSClass({ containers: [c(full)] }), 'Guaranteed');
    assert.equal(
      podQOSClass({ containers: [c(full), c({ limits: { cpu: '1' }, requests: { cpu: '1' } })] }),
      'Burstable',
    );
    assert.equal(
      podQOSClass({
        containers: [c(full)],
        initContainers: [c({ requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '1Gi' } })],
      }),
      'Burstable',
    );
    // Pod-level resources decide alone.
    assert.equal(podQOSClass({ containers: [c()], resources: { requests: { cpu: '1' } } }), 'Burstable');
  });
});

describe('pod grace period', () => {
  const bound = (extra: Obj = {}, status: Obj = {}) =>
    pod({ nodeName: 'n', terminationGracePeriodSeconds: 45, ...extra }, status);
  it('the request, else the spec; zero when unscheduled or finished; negative is one', () => {
    assert.equal(podGracePeriod(bound(), undefined), 45);
    assert.equal(podGracePeriod(bound(), 7), 7);
    assert.equal(podGracePeriod(bound({ nodeName: '' }), 7), 0);
    assert.equal(podGracePeriod(bound({}, { phase: 'Succeeded' }), 7), 0);
    assert.equal(podGracePeriod(bound({}, { phase: 'Failed' }), undefined), 0);
    assert.equal(podGracePeriod(bound({ terminationGracePeriodSeconds: -3 }), undefined), 1);
  });
});

describe('pod update validation', () => {
  const base = () =>
    pod({
      containers: [c()],
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
      activeDeadlineSeconds: 100,
      terminationGracePeriodSeconds: -1,
      schedulingGates: [{ name: 'g' }],
    });
  const errs = (change: (s: Obj) => void) => {
    const old = base();
    const next = structuredClone(old);
    change(next.spec as Obj);
    return validatePodUpdate(next, old).map((e) => `${e.field} ${e.type} ${e.detail}`);
  };
  it('allows what upstream allows', () => {
    assert.deepEqual(
      errs((s) => ((s.containers as Obj[])[0].image = 'x:2')),
      [],
    );
    assert.deepEqual(
      errs((s) => (s.activeDeadlineSeconds = 50)),
      [],
    );
    assert.deepEqual(
      errs((s) => (s.tolerations = [...(s.tolerations as Obj[]), { key: 'new', operator: 'Exists' }])),
      [],
    );
    assert.deepEqual(
      errs((s) => ((s.tolerations as Obj[])[0].tolerationSeconds = 99)),
      [],
    );
    assert.deepEqual(
      errs((s) => (s.terminationGracePeriodSeconds = 1)),
      [],
    );
    assert.deepEqual(
      errs((s) => (s.schedulingGates = [])),
      [],
    );
    // Zero values and omissions are the same thing, as in Go.
    assert.deepEqual(
      errs((s) => (s.hostNetwork = false)),
      [],
    );
  });
  it('refuses the rest, with upstream fields and details', () => {
    assert.deepEqual(
      errs((s) => (s.activeDeadlineSeconds = 200)),
      ['spec.activeDeadlineSeconds FieldValueInvalid must be less than or equal to previous value'],
    );
    assert.deepEqual(
      errs((s) => delete s.activeDeadlineSeconds),
      ['spec.activeDeadlineSeconds FieldValueInvalid must not update from a positive integer to nil value'],
    );
    assert.deepEqual(
      errs((s) => ((s.tolerations as Obj[])[0].key = 'other')),
      [
        'spec.tolerations FieldValueForbidden existing toleration can not be modified except its tolerationSeconds',
      ],
    );
    assert.deepEqual(
      errs((s) => (s.schedulingGates = [{ name: 'g' }, { name: 'h' }])),
      [
        "spec.schedulingGates[1].name FieldValueForbidden only deletion is allowed, but found new scheduling gate 'h'",
      ],
    );
    assert.deepEqual(
      errs((s) => (s.terminationGracePeriodSeconds = 5)),
      [`spec FieldValueForbidden ${POD_UPDATE_FORBIDDEN_MESSAGE}`],
    );
    assert.deepEqual(
      errs((s) => ((s.containers as Obj[])[0].image = '')),
      ['spec.containers[0].image FieldValueRequired '],
    );
  });
  it('status: terminated containers that may not restart stay terminated; the QoS class is fixed', () => {
    const old = pod(
      { restartPolicy: 'Never', containers: [c()] },
      { qosClass: 'BestEffort', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 1 } } }] },
    );
    const next = structuredClone(old);
    (next.status as Obj).containerStatuses = [{ name: 'c', state: { running: {} } }];
    (next.status as Obj).qosClass = 'Guaranteed';
    (next.status as Obj).conditions = [{ type: 'bad type!', status: 'True' }];
    const fields = validatePodStatusUpdate(next, old).map((e) => `${e.field} ${e.type}`);
    assert.deepEqual(fields, [
      'metadata.conditions[0].Type FieldValueInvalid',
      'status.qosClass FieldValueInvalid',
      'status.containerStatuses[0].state FieldValueForbidden',
    ]);
  });
});

describe('pod table cells', () => {
  const cells = (p: ApiObject) => podColumns.map((col) => col.cell(p));
  const ago = (minutes: number) =>
    new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const running = { running: { startedAt: ago(10) } };
  it('a running pod: ready count, restarts with the time since the last', () => {
    const p = pod(
      {
        containers: [c(), { name: 'd', image: 'x' }],
        nodeName: 'n1',
        readinessGates: [{ conditionType: 'x/y' }],
      },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.0.0.1' }],
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: 'c',
            ready: true,
            restartCount: 3,
            state: running,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(5) } },
          },
          { name: 'd', ready: true, restartCount: 0, state: running },
        ],
      },
    );
    const [, ready, status, restarts, , ip, node, nominated, gates] = cells(p);
    assert.deepEqual(
      [ready, status, restarts, ip, node, nominated, gates],
      ['2/2', 'Running', '3 (5m ago)', '10.0.0.1', 'n1', '<none>', '0/1'],
    );
  });
  it('init containers, waiting reasons, completion, termination', () => {
    const status = (spec: Obj, st: Obj, meta: Obj = {}) => cells(pod(spec, st, meta))[2];
    const inits = {
      containers: [c()],
      initContainers: [
        { name: 'i1', image: 'x' },
        { name: 'i2', image: 'x' },
      ],
    };
    assert.equal(
      status(inits, {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i1', state: { waiting: { reason: 'PodInitializing' } } }],
      }),
      'Init:0/2',
    );
    assert.equal(
      status(inits, {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'i1', state: { terminated: { exitCode: 0 } } },
          { name: 'i2', state: { waiting: { reason: 'ImagePullBackOff' } } },
        ],
      }),
      'Init:ImagePullBackOff',
    );
    assert.equal(
      status(inits, {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 2 } } }],
      }),
      'Init:ExitCode:2',
    );
    assert.equal(
      status(
        { containers: [c()] },
        {
          phase: 'Running',
          containerStatuses: [{ name: 'c', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        },
      ),
      'CrashLoopBackOff',
    );
    assert.equal(
      status(
        { containers: [c()] },
        {
          phase: 'Succeeded',
          containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
        },
      ),
      'Completed',
    );
    assert.equal(
      status(
        { containers: [c()] },
        { phase: 'Running', containerStatuses: [{ name: 'c', ready: true, state: running }] },
        { deletionTimestamp: ago(0) },
      ),
      'Terminating',
    );
    assert.equal(
      status({ containers: [c()] }, { phase: 'Succeeded' }, { deletionTimestamp: ago(0) }),
      'Succeeded',
    );
    assert.equal(status({ containers: [c()] }, { phase: 'Failed', reason: 'Evicted' }), 'Evicted');
    assert.equal(
      status(
        { containers: [c()] },
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      'SchedulingGated',
    );
  });
});

describe('pod kind', () => {
  it('is served as pods/po in category all, with its sub-resources', () => {
    const k = podKind(namingProfile('spec'));
    assert.deepEqual(
      [k.resource.resource, k.resource.shortNames, k.resource.categories, k.resource.namespaced],
      ['pods', ['po'], ['all'], true],
    );
    assert.deepEqual(Object.keys(k.resource.subresources).sort(), [
      'binding',
      'ephemeralcontainers',
      'eviction',
      'status',
    ]);
    assert.deepEqual(Object.keys(k.actions ?? {}).sort(), ['binding', 'eviction']);
  });

  it('a full Pod with its status goes through protobuf and back', () => {
    const T = '2024-02-03T04:05:06Z';
    const p: ApiObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'shop',
        uid: 'u1',
        resourceVersion: '7',
        generation: 2,
        creationTimestamp: T,
      },
      spec: {
        containers: [
          { name: 'c', image: 'nginx:1', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } },
        ],
        nodeName: 'n1',
        restartPolicy: 'Always',
      },
      status: {
        observedGeneration: 2,
        phase: 'Running',
        conditions: [
          {
            type: 'Ready',
            observedGeneration: 2,
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: T,
            reason: 'R',
            message: 'M',
          },
        ],
        message: 'msg',
        reason: 'why',
        nominatedNodeName: 'n2',
        hostIP: '192.0.2.1',
        hostIPs: [{ ip: '192.0.2.1' }],
        podIP: '10.0.0.1',
        podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }],
        startTime: T,
        initContainerStatuses: [
          {
            name: 'i',
            state: {
              terminated: {
                exitCode: 0,
                signal: 1,
                reason: 'Completed',
                message: 'ok',
                startedAt: T,
                finishedAt: T,
                containerID: 'cri://1',
              },
            },
            lastState: {},
            ready: true,
            restartCount: 0,
            image: 'busybox:1',
            imageID: 'sha256:1',
            containerID: 'cri://1',
            started: false,
          },
        ],
        containerStatuses: [
          {
            name: 'c',
            state: { running: { startedAt: T } },
            lastState: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } },
            ready: true,
            restartCount: 4,
            image: 'nginx:1',
            imageID: 'sha256:2',
            started: true,
            allocatedResources: { cpu: '1' },
            resources: { limits: { cpu: '1' }, requests: { cpu: '1' } },
            volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: true, recursiveReadOnly: 'Disabled' }],
            user: { linux: { uid: 1000, gid: 1000, supplementalGroups: [1, 2] } },
            allocatedResourcesStatus: [
              { name: 'example.com/gpu', resources: [{ resourceID: 'g0', health: 'Healthy' }] },
            ],
            stopSignal: 'SIGTERM',
          },
        ],
        qosClass: 'Guaranteed',
        ephemeralContainerStatuses: [],
        resize: 'Proposed',
        resourceClaimStatuses: [{ name: 'claim', resourceClaimName: 'web-claim' }],
        extendedResourceClaimStatus: {
          requestMappings: [{ containerName: 'c', resourceName: 'example.com/gpu', requestName: 'r' }],
          resourceClaimName: 'web-extended',
        },
        allocatedResources: { cpu: '1' },
        resources: { requests: { cpu: '1' } },
      },
    };
    const bytes = encodeProtobuf(podSchema, p);
    const back = decodeProtobuf((_v, kind) => (kind === 'Pod' ? podSchema : undefined), bytes) as ApiObject;
    const status = back.status as Obj;
    assert.deepEqual(status.containerStatuses, (p.status as Obj).containerStatuses);
    assert.deepEqual(status.initContainerStatuses, (p.status as Obj).initContainerStatuses);
    assert.deepEqual(status.podIPs, (p.status as Obj).podIPs);
    assert.deepEqual(status.extendedResourceClaimStatus, (p.status as Obj).extendedResourceClaimStatus);
    for (const key of [
      'observedGeneration',
      'phase',
      'message',
      'reason',
      'nominatedNodeName',
      'hostIP',
      'podIP',
      'startTime',
      'qosClass',
      'resize',
    ]) {
      assert.deepEqual(status[key], (p.status as Obj)[key], key);
    }
    const ready = (status.conditions as Obj[])[0];
    assert.deepEqual(
      [
        ready.type,
        ready.observedGeneration,
        ready.status,
        ready.lastTransitionTime,
        ready.reason,
        ready.message,
      ],
      ['Ready', 2, 'True', T, 'R', 'M'],
    );
  });
});
