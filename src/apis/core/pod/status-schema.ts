// The definitions a Pod's status reaches (core/v1 PodStatus and what it holds), with upstream's
// protobuf field numbers and Go field shapes, and the list semantics apply and strategic merge
// patch need. Descriptions are short forms of upstream's.

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
    description: 'PodStatus represents information about the status of a pod.',
    properties: {
      observedGeneration: int(
        'int64',
        'If set, this represents the .metadata.generation that the pod status was set based upon.',
        17,
      ),
      phase: str(
        'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.',
        1,
        {},
      ),
      conditions: {
        type: 'array',
        items: { ref: 'PodCondition' },
        description: 'Current service state of pod.',
        listType: 'map',
        listMapKeys: ['type'],
        patchMergeKey: 'type',
        patchStrategy: 'merge',
        proto: 2,
      },
      message: str('A human readable message indicating details about why the pod is in this condition.', 3),
      reason: str('A brief CamelCase message indicating details about why the pod is in this state.', 4),
      nominatedNodeName: str(
        'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
        11,
      ),
      hostIP: str('hostIP holds the IP address of the host to which the pod is assigned.', 5),
      hostIPs: {
        type: 'array',
        items: { ref: 'HostIP' },
        description: 'hostIPs holds the IP addresses allocated to the host.',
        listType: 'atomic',
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        proto: 16,
      },
      podIP: str('podIP address allocated to the pod.', 6),
      podIPs: {
        type: 'array',
        items: { ref: 'PodIP' },
        description: 'podIPs holds the IP addresses allocated to the pod.',
        listType: 'map',
        listMapKeys: ['ip'],
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        proto: 12,
      },
      startTime: {
        ref: 'Time',
        description: 'RFC 3339 date and time at which the object was acknowledged by the Kubelet.',
        proto: 7,
        protoPointer: true,
      },
      initContainerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: 'Statuses of init containers in this pod.',
        listType: 'atomic',
        proto: 10,
      },
      containerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: 'Statuses of containers in this pod.',
        listType: 'atomic',
        proto: 8,
      },
      qosClass: str(
        'The Quality of Service (QOS) classification assigned to the pod based on resource requirements.',
        9,
        {},
      ),
      ephemeralContainerStatuses: {
        type: 'array',
        items: { ref: 'ContainerStatus' },
        description: 'Statuses for any ephemeral containers that have run in this pod.',
        listType: 'atomic',
        proto: 13,
      },
      resize: str("Status of resources resize desired for pod's containers (deprecated).", 14),
      resourceClaimStatuses: {
        type: 'array',
        items: { ref: 'PodResourceClaimStatus' },
        description: 'Status of resource claims.',
        listType: 'map',
        listMapKeys: ['name'],
        patchMergeKey: 'name',
        patchStrategy: 'merge,retainKeys',
        proto: 15,
      },
      extendedResourceClaimStatus: {
        ref: 'PodExtendedResourceClaimStatus',
        description: 'Status of extended resource claim backed by DRA.',
        proto: 18,
        protoPointer: true,
      },
      allocatedResources: quantities(
        'AllocatedResources is the total requests allocated for this pod by the node.',
        19,
      ),
      resources: {
        ref: 'ResourceRequirements',
        description:
          'Resources represents the compute resource requests and limits that have been applied at the pod level.',
        proto: 20,
        protoPointer: true,
      },
    },
  },
  PodCondition: {
    type: 'object',
    description: 'PodCondition contains details for the current condition of this pod.',
    required: ['type', 'status'],
    properties: {
      type: str('Type is the type of the condition.', 1, { protoKeepZero: true }),
      observedGeneration: int(
        'int64',
        'If set, this represents the .metadata.generation that the pod condition was set based upon.',
        7,
      ),
      status: str('Status is the status of the condition.', 2, { protoKeepZero: true }),
      lastProbeTime: time('Last time we probed the condition.', 3),
      lastTransitionTime: time('Last time the condition transitioned from one status to another.', 4),
      reason: str("Unique, one-word, CamelCase reason for the condition's last transition.", 5),
      message: str('Human-readable message indicating details about last transition.', 6),
    },
  },
  HostIP: {
    type: 'object',
    description: 'HostIP represents a single IP address allocated to the host.',
    required: ['ip'],
    properties: {
      ip: str('IP is the IP address assigned to the host', 1, { default: '', protoKeepZero: true }),
    },
  },
  PodIP: {
    type: 'object',
    description: 'PodIP represents a single IP address allocated to the pod.',
    required: ['ip'],
    properties: {
      ip: str('IP is the IP address assigned to the pod', 1, { default: '', protoKeepZero: true }),
    },
  },
  ContainerStatus: {
    type: 'object',
    description: 'ContainerStatus contains details for the current status of this container.',
    required: ['name', 'ready', 'restartCount', 'image', 'imageID'],
    properties: {
      name: str('Name is a DNS_LABEL representing the unique name of the container.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      state: {
        ref: 'ContainerState',
        description: "State holds details about the container's current condition.",
        proto: 2,
      },
      lastState: {
        ref: 'ContainerState',
        description: 'LastTerminationState holds the last termination state of the container.',
        proto: 3,
      },
      ready: {
        type: 'boolean',
        default: false,
        description: 'Ready specifies whether the container is currently passing its readiness check.',
        proto: 4,
        protoKeepZero: true,
      },
      restartCount: int(
        'int32',
        'RestartCount holds the number of times the container has been restarted.',
        5,
        {
          default: 0,
          protoKeepZero: true,
        },
      ),
      image: str('Image is the name of container image that the container is running.', 6, {
        default: '',
        protoKeepZero: true,
      }),
      imageID: str("ImageID is the image ID of the container's image.", 7, {
        default: '',
        protoKeepZero: true,
      }),
      containerID: str("ContainerID is the ID of the container in the format '<type>://<container_id>'.", 8),
      started: {
        type: 'boolean',
        description:
          'Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.',
        proto: 9,
        protoPointer: true,
      },
      allocatedResources: quantities(
        'AllocatedResources represents the compute resources allocated for this container by the node.',
        10,
      ),
      resources: {
        ref: 'ResourceRequirements',
        description:
          'Resources represents the compute resource requests and limits that have been successfully enacted on the running container.',
        proto: 11,
        protoPointer: true,
      },
      volumeMounts: {
        type: 'array',
        items: { ref: 'VolumeMountStatus' },
        description: 'Status of volume mounts.',
        listType: 'map',
        listMapKeys: ['mountPath'],
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        proto: 12,
      },
      user: {
        ref: 'ContainerUser',
        description:
          'User represents user identity information initially attached to the first process of the container',
        proto: 13,
        protoPointer: true,
      },
      allocatedResourcesStatus: {
        type: 'array',
        items: { ref: 'ResourceStatus' },
        description:
          'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.',
        listType: 'map',
        listMapKeys: ['name'],
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        proto: 14,
      },
      stopSignal: str('StopSignal reports the effective stop signal for this container', 15, {
        protoPointer: true,
      }),
    },
  },
  ContainerState: {
    type: 'object',
    description: 'ContainerState holds a possible state of container.',
    properties: {
      waiting: {
        ref: 'ContainerStateWaiting',
        description: 'Details about a waiting container',
        proto: 1,
        protoPointer: true,
      },
      running: {
        ref: 'ContainerStateRunning',
        description: 'Details about a running container',
        proto: 2,
        protoPointer: true,
      },
      terminated: {
        ref: 'ContainerStateTerminated',
        description: 'Details about a terminated container',
        proto: 3,
        protoPointer: true,
      },
    },
  },
  ContainerStateWaiting: {
    type: 'object',
    description: 'ContainerStateWaiting is a waiting state of a container.',
    properties: {
      reason: str('(brief) reason the container is not yet running.', 1),
      message: str('Message regarding why the container is not yet running.', 2),
    },
  },
  ContainerStateRunning: {
    type: 'object',
    description: 'ContainerStateRunning is a running state of a container.',
    properties: { startedAt: time('Time at which the container was last (re-)started', 1) },
  },
  ContainerStateTerminated: {
    type: 'object',
    description: 'ContainerStateTerminated is a terminated state of a container.',
    required: ['exitCode'],
    properties: {
      exitCode: int('int32', 'Exit status from the last termination of the container', 1, {
        default: 0,
        protoKeepZero: true,
      }),
      signal: int('int32', 'Signal from the last termination of the container', 2),
      reason: str('(brief) reason from the last termination of the container', 3),
      message: str('Message regarding the last termination of the container', 4),
      startedAt: time('Time at which previous execution of the container started', 5),
      finishedAt: time('Time at which the container last terminated', 6),
      containerID: str("Container's ID in the format '<type>://<container_id>'", 7),
    },
  },
  ContainerUser: {
    type: 'object',
    description: 'ContainerUser represents user identity information',
    properties: {
      linux: {
        ref: 'LinuxContainerUser',
        description:
          'Linux holds user identity information initially attached to the first process of the containers in Linux.',
        proto: 1,
        protoPointer: true,
      },
    },
  },
  LinuxContainerUser: {
    type: 'object',
    description: 'LinuxContainerUser represents user identity information in Linux containers',
    required: ['uid', 'gid'],
    properties: {
      uid: int(
        'int64',
        'UID is the primary uid initially attached to the first process in the container',
        1,
        {
          default: 0,
          protoKeepZero: true,
        },
      ),
      gid: int(
        'int64',
        'GID is the primary gid initially attached to the first process in the container',
        2,
        {
          default: 0,
          protoKeepZero: true,
        },
      ),
      supplementalGroups: {
        type: 'array',
        items: { type: 'integer', format: 'int64', default: 0 },
        description:
          'SupplementalGroups are the supplemental groups initially attached to the first process in the container',
        listType: 'atomic',
        proto: 3,
      },
    },
  },
  VolumeMountStatus: {
    type: 'object',
    description: 'VolumeMountStatus shows status of volume mounts.',
    required: ['name', 'mountPath'],
    properties: {
      name: str('Name corresponds to the name of the original VolumeMount.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      mountPath: str('MountPath corresponds to the original VolumeMount.', 2, {
        default: '',
        protoKeepZero: true,
      }),
      readOnly: {
        type: 'boolean',
        description: 'ReadOnly corresponds to the original VolumeMount.',
        proto: 3,
      },
      recursiveReadOnly: str(
        'RecursiveReadOnly must be set to Disabled, Enabled, or unspecified (for non-readonly mounts).',
        4,
        {
          protoPointer: true,
        },
      ),
    },
  },
  ResourceStatus: {
    type: 'object',
    description: 'ResourceStatus represents the status of a single resource allocated to a Pod.',
    required: ['name'],
    properties: {
      name: str('Name of the resource.', 1, { protoKeepZero: true }),
      resources: {
        type: 'array',
        items: { ref: 'ResourceHealth' },
        description: 'List of unique resources health.',
        listType: 'map',
        listMapKeys: ['resourceID'],
        proto: 2,
      },
    },
  },
  ResourceHealth: {
    type: 'object',
    description: 'ResourceHealth represents the health of a resource.',
    required: ['resourceID'],
    properties: {
      resourceID: str('ResourceID is the unique identifier of the resource.', 1, { protoKeepZero: true }),
      health: str('Health of the resource.', 2),
    },
  },
  PodResourceClaimStatus: {
    type: 'object',
    description:
      'PodResourceClaimStatus is stored in the PodStatus for each PodResourceClaim which references a ResourceClaimTemplate.',
    required: ['name'],
    properties: {
      name: str('Name uniquely identifies this resource claim inside the pod.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      resourceClaimName: str(
        'ResourceClaimName is the name of the ResourceClaim that was generated for the Pod.',
        2,
        {
          protoPointer: true,
        },
      ),
    },
  },
  PodExtendedResourceClaimStatus: {
    type: 'object',
    description:
      'PodExtendedResourceClaimStatus is stored in the PodStatus for the extended resource requests backed by DRA.',
    required: ['requestMappings', 'resourceClaimName'],
    properties: {
      requestMappings: {
        type: 'array',
        items: { ref: 'ContainerExtendedResourceRequest' },
        description:
          'RequestMappings identifies the mapping of <container, extended resource backed by DRA> to device request.',
        listType: 'atomic',
        proto: 1,
      },
      resourceClaimName: str(
        'ResourceClaimName is the name of the ResourceClaim that was generated for the Pod.',
        2,
        {
          default: '',
          protoKeepZero: true,
        },
      ),
    },
  },
  ContainerExtendedResourceRequest: {
    type: 'object',
    description:
      'ContainerExtendedResourceRequest has the mapping of container name, extended resource name to the device request name.',
    required: ['containerName', 'resourceName', 'requestName'],
    properties: {
      containerName: str('The name of the container requesting resources.', 1, {
        default: '',
        protoKeepZero: true,
      }),
      resourceName: str('The name of the extended resource in that container which gets backed by DRA.', 2, {
        default: '',
        protoKeepZero: true,
      }),
      requestName: str(
        'The name of the request in the special ResourceClaim which corresponds to the extended resource.',
        3,
        {
          default: '',
          protoKeepZero: true,
        },
      ),
    },
  },
});
