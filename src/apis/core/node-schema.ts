// The Node schema (core/v1): spec and status with upstream's field names, list topology, patch
// keys and protobuf field numbers (upstream's generated.proto, API 1.35).

import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';

const str = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'string',
  description,
  ...wire,
});
const bool = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'boolean',
  description,
  ...wire,
});
const time = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  ref: 'Time',
  description,
  ...wire,
});
const quantities = (description: string, proto: number): SchemaNode => ({
  type: 'object',
  description,
  additionalProperties: { intOrString: true, goType: 'resource.Quantity' },
  proto,
});

const NODE_DEFINITIONS: Record<string, SchemaNode> = {
  NodeSpec: {
    type: 'object',
    description: 'NodeSpec describes the attributes that a node is created with.',
    properties: {
      podCIDR: str('PodCIDR represents the pod IP range assigned to the node.', { proto: 1 }),
      podCIDRs: {
        type: 'array',
        items: { type: 'string' },
        description: 'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.',
        listType: 'set',
        patchStrategy: 'merge',
        proto: 7,
      },
      providerID: str(
        'ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>',
        {
          proto: 3,
        },
      ),
      unschedulable: bool(
        'Unschedulable controls node schedulability of new pods. By default, node is schedulable.',
        {
          proto: 4,
        },
      ),
      taints: {
        type: 'array',
        items: { ref: 'Taint' },
        description: "If specified, the node's taints.",
        listType: 'atomic',
        proto: 5,
      },
      configSource: {
        ref: 'NodeConfigSource',
        description:
          "Deprecated: Previously used to specify the source of the node's configuration for the dynamic configuration feature, which is removed.",
        proto: 6,
        protoPointer: true,
      },
      externalID: str('Deprecated. Not all node agents will set this field. Remove field after 1.13.', {
        proto: 2,
      }),
    },
  },
  Taint: {
    type: 'object',
    description:
      'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
    required: ['key', 'effect'],
    properties: {
      key: str('Required. The taint key to be applied to a node.', { proto: 1, protoKeepZero: true }),
      value: str('The taint value corresponding to the taint key.', { proto: 2 }),
      effect: str(
        'Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.',
        { proto: 3, protoKeepZero: true },
      ),
      timeAdded: time('TimeAdded represents the time at which the taint was added.', {
        proto: 4,
        protoPointer: true,
      }),
    },
  },
  NodeConfigSource: {
    type: 'object',
    description:
      'NodeConfigSource specifies a source of node configuration. Exactly one subfield (excluding metadata) must be non-nil. This API is deprecated since 1.22',
    properties: {
      configMap: {
        ref: 'ConfigMapNodeConfigSource',
        description: "ConfigMap is a reference to a Node's ConfigMap",
        proto: 2,
        protoPointer: true,
      },
    },
  },
  ConfigMapNodeConfigSource: {
    type: 'object',
    description:
      'ConfigMapNodeConfigSource contains the information to reference a ConfigMap as a config source for the Node.',
    required: ['namespace', 'name', 'kubeletConfigKey'],
    properties: {
      namespace: str('Namespace is the metadata.namespace of the referenced ConfigMap.', {
        proto: 1,
        protoKeepZero: true,
      }),
      name: str('Name is the metadata.name of the referenced ConfigMap.', { proto: 2, protoKeepZero: true }),
      uid: str('UID is the metadata.UID of the referenced ConfigMap.', { proto: 3 }),
      resourceVersion: str('ResourceVersion is the metadata.ResourceVersion of the referenced ConfigMap.', {
        proto: 4,
      }),
      kubeletConfigKey: str('Which key of the referenced ConfigMap holds the node agent configuration.', {
        proto: 5,
        protoKeepZero: true,
      }),
    },
  },
  NodeStatus: {
    type: 'object',
    description: 'NodeStatus is information about the current status of a node.',
    properties: {
      capacity: quantities('Capacity represents the total resources of a node.', 1),
      allocatable: quantities(
        'Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.',
        2,
      ),
      phase: str('NodePhase is the recently observed lifecycle phase of the node.', { proto: 3 }),
      conditions: {
        type: 'array',
        items: { ref: 'NodeCondition' },
        description: 'Conditions is an array of current observed node conditions.',
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        proto: 4,
      },
      addresses: {
        type: 'array',
        items: { ref: 'NodeAddress' },
        description: 'List of addresses reachable to the node.',
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        proto: 5,
      },
      daemonEndpoints: {
        ref: 'NodeDaemonEndpoints',
        description: 'Endpoints of daemons running on the Node.',
        proto: 6,
      },
      nodeInfo: {
        ref: 'NodeSystemInfo',
        description: 'Set of ids/uuids to uniquely identify the node.',
        proto: 7,
      },
      images: {
        type: 'array',
        items: { ref: 'ContainerImage' },
        description: 'List of container images on this node',
        listType: 'atomic',
        proto: 8,
      },
      volumesInUse: {
        type: 'array',
        items: { type: 'string' },
        description: 'List of attachable volumes in use (mounted) by the node.',
        listType: 'atomic',
        proto: 9,
      },
      volumesAttached: {
        type: 'array',
        items: { ref: 'AttachedVolume' },
        description: 'List of volumes that are attached to the node.',
        listType: 'atomic',
        proto: 10,
      },
      config: {
        ref: 'NodeConfigStatus',
        description:
          'Status of the config assigned to the node via the removed dynamic configuration feature.',
        proto: 11,
        protoPointer: true,
      },
      runtimeHandlers: {
        type: 'array',
        items: { ref: 'NodeRuntimeHandler' },
        description: 'The available runtime handlers.',
        listType: 'atomic',
        proto: 12,
      },
      features: {
        ref: 'NodeFeatures',
        description: 'Features describes the set of features implemented by the CRI implementation.',
        proto: 13,
        protoPointer: true,
      },
      declaredFeatures: {
        type: 'array',
        items: { type: 'string' },
        description:
          'DeclaredFeatures represents the features related to feature gates that are declared by the node.',
        listType: 'atomic',
        proto: 14,
      },
    },
  },
  NodeCondition: {
    type: 'object',
    description: 'NodeCondition contains condition information for a node.',
    required: ['type', 'status'],
    properties: {
      type: str('Type of node condition.', { proto: 1, protoKeepZero: true }),
      status: str('Status of the condition, one of True, False, Unknown.', { proto: 2, protoKeepZero: true }),
      lastHeartbeatTime: time('Last time we got an update on a given condition.', { proto: 3 }),
      lastTransitionTime: time('Last time the condition transit from one status to another.', { proto: 4 }),
      reason: str("(brief) reason for the condition's last transition.", { proto: 5 }),
      message: str('Human readable message indicating details about last transition.', { proto: 6 }),
    },
  },
  NodeAddress: {
    type: 'object',
    description: "NodeAddress contains information for the node's address.",
    required: ['type', 'address'],
    properties: {
      type: str('Node address type, one of Hostname, ExternalIP or InternalIP.', {
        proto: 1,
        protoKeepZero: true,
      }),
      address: str('The node address.', { proto: 2, protoKeepZero: true }),
    },
  },
  NodeDaemonEndpoints: {
    type: 'object',
    description: 'NodeDaemonEndpoints lists ports opened by daemons running on the Node.',
    properties: {
      kubeletEndpoint: {
        ref: 'DaemonEndpoint',
        description: 'Endpoint on which the node agent is listening.',
        proto: 1,
      },
    },
  },
  DaemonEndpoint: {
    type: 'object',
    description: 'DaemonEndpoint contains information about a single Daemon endpoint.',
    required: ['Port'],
    properties: {
      Port: {
        type: 'integer',
        format: 'int32',
        description: 'Port number of the given endpoint.',
        proto: 1,
        protoKeepZero: true,
      },
    },
  },
  NodeSystemInfo: {
    type: 'object',
    description: 'NodeSystemInfo is a set of ids/uuids to uniquely identify the node.',
    required: [
      'machineID',
      'systemUUID',
      'bootID',
      'kernelVersion',
      'osImage',
      'containerRuntimeVersion',
      'kubeletVersion',
      'kubeProxyVersion',
      'operatingSystem',
      'architecture',
    ],
    properties: {
      machineID: str('MachineID reported by the node.', { proto: 1, protoKeepZero: true }),
      systemUUID: str('SystemUUID reported by the node.', { proto: 2, protoKeepZero: true }),
      bootID: str('Boot ID reported by the node.', { proto: 3, protoKeepZero: true }),
      kernelVersion: str("Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", {
        proto: 4,
        protoKeepZero: true,
      }),
      osImage: str('OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', {
        proto: 5,
        protoKeepZero: true,
      }),
      containerRuntimeVersion: str(
        'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
        { proto: 6, protoKeepZero: true },
      ),
      kubeletVersion: str('Version of the node agent reported by the node.', {
        proto: 7,
        protoKeepZero: true,
      }),
      kubeProxyVersion: str('Deprecated: version of the service proxy reported by the node.', {
        proto: 8,
        protoKeepZero: true,
      }),
      operatingSystem: str('The Operating System reported by the node', { proto: 9, protoKeepZero: true }),
      architecture: str('The Architecture reported by the node', { proto: 10, protoKeepZero: true }),
      swap: {
        ref: 'NodeSwapStatus',
        description: 'Swap Info reported by the node.',
        proto: 11,
        protoPointer: true,
      },
    },
  },
  NodeSwapStatus: {
    type: 'object',
    description: 'NodeSwapStatus represents swap memory information.',
    properties: {
      capacity: {
        type: 'integer',
        format: 'int64',
        description: 'Total amount of swap memory in bytes.',
        proto: 1,
        protoPointer: true,
      },
    },
  },
  ContainerImage: {
    type: 'object',
    description: 'Describe a container image',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        description: 'Names by which this image is known.',
        listType: 'atomic',
        proto: 1,
      },
      sizeBytes: {
        type: 'integer',
        format: 'int64',
        description: 'The size of the image in bytes.',
        proto: 2,
      },
    },
  },
  AttachedVolume: {
    type: 'object',
    description: 'AttachedVolume describes a volume attached to a node',
    required: ['name', 'devicePath'],
    properties: {
      name: str('Name of the attached volume', { proto: 1, protoKeepZero: true }),
      devicePath: str('DevicePath represents the device path where the volume should be available', {
        proto: 2,
        protoKeepZero: true,
      }),
    },
  },
  NodeConfigStatus: {
    type: 'object',
    description: 'NodeConfigStatus describes the status of the config assigned by Node.Spec.ConfigSource.',
    properties: {
      assigned: {
        ref: 'NodeConfigSource',
        description: 'Assigned reports the checkpointed config the node will try to use.',
        proto: 1,
        protoPointer: true,
      },
      active: {
        ref: 'NodeConfigSource',
        description: 'Active reports the checkpointed config the node is actively using.',
        proto: 2,
        protoPointer: true,
      },
      lastKnownGood: {
        ref: 'NodeConfigSource',
        description:
          'LastKnownGood reports the checkpointed config the node will fall back to when it encounters an error.',
        proto: 3,
        protoPointer: true,
      },
      error: str('Error describes any problems reconciling the Spec.ConfigSource to the Active config.', {
        proto: 4,
      }),
    },
  },
  NodeRuntimeHandler: {
    type: 'object',
    description: 'NodeRuntimeHandler is a set of runtime handler information.',
    properties: {
      name: str('Runtime handler name. Empty for the default runtime handler.', {
        proto: 1,
        protoKeepZero: true,
      }),
      features: {
        ref: 'NodeRuntimeHandlerFeatures',
        description: 'Supported features.',
        proto: 2,
        protoPointer: true,
      },
    },
  },
  NodeRuntimeHandlerFeatures: {
    type: 'object',
    description: 'NodeRuntimeHandlerFeatures is a set of features implemented by the runtime handler.',
    properties: {
      recursiveReadOnlyMounts: bool(
        'RecursiveReadOnlyMounts is set to true if the runtime handler supports RecursiveReadOnlyMounts.',
        {
          proto: 1,
          protoPointer: true,
        },
      ),
      userNamespaces: bool(
        'UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.',
        {
          proto: 2,
          protoPointer: true,
        },
      ),
    },
  },
  NodeFeatures: {
    type: 'object',
    description: 'NodeFeatures describes the set of features implemented by the CRI implementation.',
    properties: {
      supplementalGroupsPolicy: bool(
        'SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.',
        {
          proto: 1,
          protoPointer: true,
        },
      ),
    },
  },
};

export const nodeSchema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Node',
  description: 'Node is a worker node. Each node will have a unique identifier in the cache (i.e. in etcd).',
  properties: {
    spec: { ref: 'NodeSpec', description: 'Spec defines the behavior of a node.', proto: 2 },
    status: { ref: 'NodeStatus', description: 'Most recently observed status of the node.', proto: 3 },
  },
  definitions: NODE_DEFINITIONS,
});
