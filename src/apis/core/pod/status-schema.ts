// The definitions a Pod's status reaches (core/v1 PodStatus and what it holds), with upstream's
// protobuf field numbers and Go field shapes, and the list semantics apply and strategic merge
// patch need. Descriptions are in our own words; the facts in them are upstream's.

import type { SchemaNode } from '../../../schema/types.ts';

const str = (description: string, proto: number, extra?: SchemaNode): SchemaNode => ({
  type: 'string',
  description,
  proto,
  ...extra,
});
const int = (
  format: 'int32' | 'int64',
  description: string,
  proto: number,
  extra?: SchemaNode,
): SchemaNode => ({
  type: 'integer',
  format,
  description,
  proto,
  ...extra,
});
const quantities = (description: string, proto: number): SchemaNode => ({
  type: 'object',
  additionalProperties: { intOrString: true, goType: 'resource.Quantity' },
  description,
  proto,
});
const time = (description: string, proto: number): SchemaNode => ({ ref: 'Time', description, proto });

export const podStatusDefinitions = (): Record<string, SchemaNode> => ({
  PodStatus: {
    type: 'object',
    description: "What was last observed about a Pod; it may lag behind the Pod's real state.",
    properties: {
      observedGeneration: int(
        'int64',
        'The .metadata.generation this status was written against, when set.',
        17,
      ),
      phase: str("Coarse stage of the Pod's life: Pending, Running, Succeeded, Failed or Unknown.", 1, {}),
      conditions: {
        type: 'array',
        items: { ref: 'PodCondition' },
        description: 'Conditions currently observed on the Pod, one per type.',
        listType: 'map',
        listMapKeys: ['type'],
        patchMergeKey: 'type',
        patchStrategy: 'merge',
        proto: 2,
      },
      message: str('Readable explanation of why the Pod is in its current state.', 3),
      reason: str('Short CamelCase word saying why the Pod is in its current state.', 4),
      nominatedNodeName: str(
        'Node this Pod is expected to land on once the Pods it preempted there finish terminating; set only during such a preemption.',
        11,
      ),
      hostIP: str('IP address of the host the Pod was assigned to; empty before the Pod starts.', 5),
      hostIPs: {
        type: 'array',
        items: { ref: 'HostIP' },
        description:
          "IP addresses of the Pod's host; the first equals hostIP, and the list is empty before the Pod starts.",
        listType: 'atomic',
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        proto: 16,
      },
      podIP: str('IP address given to the Pod; empty until one is given.', 6),
      podIPs: {
        type: 'array',
        items: { ref: 'PodIP' },
        description: 'IP addresses given to the Pod, at most one IPv4 and one IPv6; the first equals podIP.',
        listType: 'map',
        listMapKeys: ['ip'],
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        proto: 12,
      },
      startTime: {
        ref: 'Time',
        description: 'When the node agent took the Pod on, before any image was pulled (RFC 3339).',
        proto: 7,
        protoPointer: true,
      },
      initContainerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: "One status per init container in the Pod's spec.",
        listType: 'atomic',
        proto: 10,
      },
      containerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: "One status per container in the Pod's spec.",
        listType: 'atomic',
        proto: 8,
      },
      qosClass: str(
        "Quality of Service class derived from the Pod's resource requests and limits: Guaranteed, Burstable or BestEffort.",
        9,
        {},
      ),
      ephemeralContainerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: 'One status per ephemeral container that has run in the Pod.',
        listType: 'atomic',
        proto: 13,
      },
      resize: str("Deprecated: progress of a requested resize of the containers' resources.", 14),
      resourceClaimStatuses: {
        type: 'array',
        items: { ref: 'PodResourceClaimStatus' },
        description: "State of each of the Pod's resource claims.",
        listType: 'map',
        listMapKeys: ['name'],
        patchMergeKey: 'name',
        patchStrategy: 'merge,retainKeys',
        proto: 15,
      },
      extendedResourceClaimStatus: {
        ref: 'PodExtendedResourceClaimStatus',
        description:
          'State of the claim created for extended resources served through dynamic resource allocation.',
        proto: 18,
        protoPointer: true,
      },
      allocatedResources: quantities('Resource requests the node has set aside for the whole Pod.', 19),
      resources: {
        ref: 'ResourceRequirements',
        description: 'Compute requests and limits in effect at Pod level.',
        proto: 20,
        protoPointer: true,
      },
    },
  },
  PodCondition: {
    type: 'object',
    description: 'One observed condition of a Pod.',
    required: ['type', 'status'],
    properties: {
      type: str('Which condition this is.', 1, { protoKeepZero: true }),
      observedGeneration: int(
        'int64',
        'The .metadata.generation this condition was written against, when set.',
        7,
      ),
      status: str('Condition state: True, False or Unknown.', 2, { protoKeepZero: true }),
      lastProbeTime: time('When the condition was last probed.', 3),
      lastTransitionTime: time('When the status last changed value.', 4),
      reason: str('One CamelCase word naming the cause of the latest status change.', 5),
      message: str('Readable explanation of the latest status change.', 6),
    },
  },
  HostIP: {
    type: 'object',
    description: "One IP address of the Pod's host.",
    required: ['ip'],
    properties: {
      ip: str("The host's address.", 1, { default: '', protoKeepZero: true }),
    },
  },
  PodIP: {
    type: 'object',
    description: 'One IP address of the Pod.',
    required: ['ip'],
    properties: {
      ip: str("The Pod's address.", 1, { default: '', protoKeepZero: true }),
    },
  },
  ContainerStatus: {
    type: 'object',
    description: 'What was last observed about one container.',
    required: ['name', 'ready', 'restartCount', 'image', 'imageID'],
    properties: {
      name: str("The container's name, a DNS label unique within the Pod.", 1, {
        default: '',
        protoKeepZero: true,
      }),
      state: {
        ref: 'ContainerState',
        description: "The container's state now.",
        proto: 2,
      },
      lastState: {
        ref: 'ContainerState',
        description: 'The state the container was in when it last ended.',
        proto: 3,
      },
      ready: {
        type: 'boolean',
        default: false,
        description: 'True while the container passes its readiness check.',
        proto: 4,
        protoKeepZero: true,
      },
      restartCount: int('int32', 'How many times the container has been restarted.', 5, {
        default: 0,
        protoKeepZero: true,
      }),
      image: str('Image the container runs.', 6, {
        default: '',
        protoKeepZero: true,
      }),
      imageID: str('ID of the image the container runs.', 7, {
        default: '',
        protoKeepZero: true,
      }),
      containerID: str("The container's ID, written <type>://<container_id>.", 8),
      started: {
        type: 'boolean',
        description:
          "True once the container's postStart hook has finished and its startup probe has passed.",
        proto: 9,
        protoPointer: true,
      },
      allocatedResources: quantities('Compute resources the node has set aside for this container.', 10),
      resources: {
        ref: 'ResourceRequirements',
        description: 'Compute requests and limits actually applied to the running container.',
        proto: 11,
        protoPointer: true,
      },
      volumeMounts: {
        type: 'array',
        items: { ref: 'VolumeMountStatus' },
        description: 'State of each volume mount.',
        listType: 'map',
        listMapKeys: ['mountPath'],
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        proto: 12,
      },
      user: {
        ref: 'ContainerUser',
        description: "Identity the container's first process started with.",
        proto: 13,
        protoPointer: true,
      },
      allocatedResourcesStatus: {
        type: 'array',
        items: { ref: 'ResourceStatus' },
        description: 'Health of each resource assigned to the Pod.',
        listType: 'map',
        listMapKeys: ['name'],
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        proto: 14,
      },
      stopSignal: str('Signal sent to stop this container.', 15, {
        protoPointer: true,
      }),
    },
  },
  ContainerState: {
    type: 'object',
    description: "A container's state; only one of its fields is set.",
    properties: {
      waiting: {
        ref: 'ContainerStateWaiting',
        description: 'Set while the container waits to run.',
        proto: 1,
        protoPointer: true,
      },
      running: {
        ref: 'ContainerStateRunning',
        description: 'Set while the container runs.',
        proto: 2,
        protoPointer: true,
      },
      terminated: {
        ref: 'ContainerStateTerminated',
        description: 'Set once the container has ended.',
        proto: 3,
        protoPointer: true,
      },
    },
  },
  ContainerStateWaiting: {
    type: 'object',
    description: 'A container that is not running yet.',
    properties: {
      reason: str('Short word saying why the container has not started.', 1),
      message: str('Readable explanation of why the container has not started.', 2),
    },
  },
  ContainerStateRunning: {
    type: 'object',
    description: 'A container that is running.',
    properties: { startedAt: time('When the container last started or restarted.', 1) },
  },
  ContainerStateTerminated: {
    type: 'object',
    description: 'A container that has ended.',
    required: ['exitCode'],
    properties: {
      exitCode: int('int32', "Exit code of the container's last run.", 1, {
        default: 0,
        protoKeepZero: true,
      }),
      signal: int('int32', "Signal that ended the container's last run.", 2),
      reason: str('Short word saying why the last run ended.', 3),
      message: str('Readable explanation of how the last run ended.', 4),
      startedAt: time('When the last run began.', 5),
      finishedAt: time('When the last run ended.', 6),
      containerID: str('ID of the container, written <type>://<container_id>.', 7),
    },
  },
  ContainerUser: {
    type: 'object',
    description: "Identity a container's processes run as.",
    properties: {
      linux: {
        ref: 'LinuxContainerUser',
        description: "Linux identity the container's first process started with.",
        proto: 1,
        protoPointer: true,
      },
    },
  },
  LinuxContainerUser: {
    type: 'object',
    description: 'User and groups a Linux container runs as.',
    required: ['uid', 'gid'],
    properties: {
      uid: int('int64', 'Primary user ID the first process started with.', 1, {
        default: 0,
        protoKeepZero: true,
      }),
      gid: int('int64', 'Primary group ID the first process started with.', 2, {
        default: 0,
        protoKeepZero: true,
      }),
      supplementalGroups: {
        type: 'array',
        items: { type: 'integer', format: 'int64', default: 0 },
        description: 'Extra group IDs the first process started with.',
        listType: 'atomic',
        proto: 3,
      },
    },
  },
  VolumeMountStatus: {
    type: 'object',
    description: 'State of one volume mount.',
    required: ['name', 'mountPath'],
    properties: {
      name: str('Name of the VolumeMount this reports on.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      mountPath: str('mountPath of that VolumeMount.', 2, {
        default: '',
        protoKeepZero: true,
      }),
      readOnly: {
        type: 'boolean',
        description: 'readOnly of that VolumeMount.',
        proto: 3,
      },
      recursiveReadOnly: str('Disabled, Enabled, or unset for a mount that is not read-only.', 4, {
        protoPointer: true,
      }),
    },
  },
  ResourceStatus: {
    type: 'object',
    description: 'Health of one resource assigned to a Pod.',
    required: ['name'],
    properties: {
      name: str('Resource name.', 1, { protoKeepZero: true }),
      resources: {
        type: 'array',
        items: { ref: 'ResourceHealth' },
        description: 'Health of each device behind the resource, one entry per resourceID.',
        listType: 'map',
        listMapKeys: ['resourceID'],
        proto: 2,
      },
    },
  },
  ResourceHealth: {
    type: 'object',
    description: 'Health of one device.',
    required: ['resourceID'],
    properties: {
      resourceID: str('Unique ID of the device.', 1, { protoKeepZero: true }),
      health: str('Healthy, Unhealthy or Unknown.', 2),
    },
  },
  PodResourceClaimStatus: {
    type: 'object',
    description: "Recorded for each of the Pod's resource claims that names a ResourceClaimTemplate.",
    required: ['name'],
    properties: {
      name: str('Name of the claim, unique within the Pod.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      resourceClaimName: str('Name of the ResourceClaim created for the Pod.', 2, {
        protoPointer: true,
      }),
    },
  },
  PodExtendedResourceClaimStatus: {
    type: 'object',
    description:
      "Recorded for the Pod's extended resource requests served through dynamic resource allocation.",
    required: ['requestMappings', 'resourceClaimName'],
    properties: {
      requestMappings: {
        type: 'array',
        items: { ref: 'ContainerExtendedResourceRequest' },
        description: "Which device request serves each container's extended resource.",
        listType: 'atomic',
        proto: 1,
      },
      resourceClaimName: str('Name of the ResourceClaim created for the Pod.', 2, {
        default: '',
        protoKeepZero: true,
      }),
    },
  },
  ContainerExtendedResourceRequest: {
    type: 'object',
    description: 'Ties a container and one of its extended resources to a device request.',
    required: ['containerName', 'resourceName', 'requestName'],
    properties: {
      containerName: str('Container that asks for the resource.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      resourceName: str(
        'Extended resource, served through dynamic resource allocation, that the container asks for.',
        2,
        {
          default: '',
          protoKeepZero: true,
        },
      ),
      requestName: str('Request in the generated ResourceClaim that serves this extended resource.', 3, {
        default: '',
        protoKeepZero: true,
      }),
    },
  },
});
