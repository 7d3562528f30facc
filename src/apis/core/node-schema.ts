// The Node schema (core/v1): spec and status with upstream's field names, list topology, patch
// keys and protobuf field numbers (upstream's generated.proto, API 1.35).

import {
  NODE_AGENT_CONFIG_KEY_FIELD,
  NODE_AGENT_ENDPOINT_FIELD,
  NODE_AGENT_VERSION_FIELD,
  NODE_PROXY_VERSION_FIELD,
} from '../../naming/node-wire-fields.ts';
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
    description: 'How a node is set up when it is created.',
    properties: {
      podCIDR: str('Range of Pod IP addresses given to this node.', { proto: 1 }),
      podCIDRs: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Every Pod IP range given to this node: at most one IPv4 and one IPv6 range, the first equal to podCIDR.',
        listType: 'set',
        patchStrategy: 'merge',
        proto: 7,
      },
      providerID: str(
        "The cloud provider's identifier for this node, written <ProviderName>://<ProviderSpecificNodeID>.",
        {
          proto: 3,
        },
      ),
      unschedulable: bool('When true, no new Pods are placed on this node. Unset means schedulable.', {
        proto: 4,
      }),
      taints: {
        type: 'array',
        items: { ref: 'Taint' },
        description: 'Taints on this node; Pods that do not tolerate them are kept away.',
        listType: 'atomic',
        proto: 5,
      },
      configSource: {
        ref: 'NodeConfigSource',
        description:
          'Deprecated and unused: it named where the node loaded its configuration from under the dynamic configuration feature, which no longer exists.',
        proto: 6,
        protoPointer: true,
      },
      externalID: str('Deprecated; some node agents leave it empty. Due for removal after 1.13.', {
        proto: 2,
      }),
    },
  },
  Taint: {
    type: 'object',
    description: 'A mark on a node whose effect applies to every Pod that lacks a matching toleration.',
    required: ['key', 'effect'],
    properties: {
      key: str('Required. Key of the taint.', { proto: 1, protoKeepZero: true }),
      value: str('Value paired with the key.', { proto: 2 }),
      effect: str(
        'Required. What happens to Pods without a matching toleration: NoSchedule, PreferNoSchedule or NoExecute.',
        { proto: 3, protoKeepZero: true },
      ),
      timeAdded: time('When the taint was put on the node.', {
        proto: 4,
        protoPointer: true,
      }),
    },
  },
  NodeConfigSource: {
    type: 'object',
    description:
      "Where a node's configuration comes from; exactly one field other than metadata must be set. Deprecated since 1.22.",
    properties: {
      configMap: {
        ref: 'ConfigMapNodeConfigSource',
        description: "A ConfigMap holding the node's configuration.",
        proto: 2,
        protoPointer: true,
      },
    },
  },
  ConfigMapNodeConfigSource: {
    type: 'object',
    description: 'Points at the ConfigMap a Node takes its configuration from.',
    required: ['namespace', 'name', NODE_AGENT_CONFIG_KEY_FIELD],
    properties: {
      namespace: str('Namespace of that ConfigMap.', {
        proto: 1,
        protoKeepZero: true,
      }),
      name: str('Name of that ConfigMap.', { proto: 2, protoKeepZero: true }),
      uid: str('UID of that ConfigMap.', { proto: 3 }),
      resourceVersion: str('resourceVersion of that ConfigMap.', {
        proto: 4,
      }),
      [NODE_AGENT_CONFIG_KEY_FIELD]: str("The ConfigMap key whose value is the node agent's configuration.", {
        proto: 5,
        protoKeepZero: true,
      }),
    },
  },
  NodeStatus: {
    type: 'object',
    description: 'What was last observed about a node.',
    properties: {
      capacity: quantities('Total amount of each resource the node has.', 1),
      allocatable: quantities(
        'Amount of each resource Pods may be scheduled against; taken to equal capacity when unset.',
        2,
      ),
      phase: str('Last seen lifecycle phase of the node.', { proto: 3 }),
      conditions: {
        type: 'array',
        items: { ref: 'NodeCondition' },
        description: 'Conditions last observed on the node, one per type.',
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        proto: 4,
      },
      addresses: {
        type: 'array',
        items: { ref: 'NodeAddress' },
        description: 'Addresses at which the node can be reached.',
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        proto: 5,
      },
      daemonEndpoints: {
        ref: 'NodeDaemonEndpoints',
        description: 'Where the daemons on this node listen.',
        proto: 6,
      },
      nodeInfo: {
        ref: 'NodeSystemInfo',
        description: 'Identifiers and versions the node reports about its system.',
        proto: 7,
      },
      images: {
        type: 'array',
        items: { ref: 'ContainerImage' },
        description: 'Container images present on the node.',
        listType: 'atomic',
        proto: 8,
      },
      volumesInUse: {
        type: 'array',
        items: { type: 'string' },
        description: 'Attachable volumes the node has mounted right now.',
        listType: 'atomic',
        proto: 9,
      },
      volumesAttached: {
        type: 'array',
        items: { ref: 'AttachedVolume' },
        description: 'Volumes currently attached to the node.',
        listType: 'atomic',
        proto: 10,
      },
      config: {
        ref: 'NodeConfigStatus',
        description:
          'State of the configuration handed to the node by the dynamic configuration feature, now removed.',
        proto: 11,
        protoPointer: true,
      },
      runtimeHandlers: {
        type: 'array',
        items: { ref: 'NodeRuntimeHandler' },
        description: 'Runtime handlers the node offers.',
        listType: 'atomic',
        proto: 12,
      },
      features: {
        ref: 'NodeFeatures',
        description: "Which optional features the node's container runtime (CRI) supports.",
        proto: 13,
        protoPointer: true,
      },
      declaredFeatures: {
        type: 'array',
        items: { type: 'string' },
        description: 'Feature-gate related features the node says it has.',
        listType: 'atomic',
        proto: 14,
      },
    },
  },
  NodeCondition: {
    type: 'object',
    description: 'One observed condition of a node.',
    required: ['type', 'status'],
    properties: {
      type: str('Which condition this is.', { proto: 1, protoKeepZero: true }),
      status: str('Condition state: True, False or Unknown.', { proto: 2, protoKeepZero: true }),
      lastHeartbeatTime: time('When this condition was last reported.', { proto: 3 }),
      lastTransitionTime: time('When the status last changed value.', { proto: 4 }),
      reason: str('Short machine-readable cause of the latest status change.', { proto: 5 }),
      message: str('Readable explanation of the latest status change.', { proto: 6 }),
    },
  },
  NodeAddress: {
    type: 'object',
    description: 'One address of a node.',
    required: ['type', 'address'],
    properties: {
      type: str('Kind of address: Hostname, ExternalIP or InternalIP.', {
        proto: 1,
        protoKeepZero: true,
      }),
      address: str('The address itself.', { proto: 2, protoKeepZero: true }),
    },
  },
  NodeDaemonEndpoints: {
    type: 'object',
    description: 'Ports the daemons on a node listen on.',
    properties: {
      [NODE_AGENT_ENDPOINT_FIELD]: {
        ref: 'DaemonEndpoint',
        description: 'Where the node agent listens.',
        proto: 1,
      },
    },
  },
  DaemonEndpoint: {
    type: 'object',
    description: 'The port one daemon listens on.',
    required: ['Port'],
    properties: {
      Port: {
        type: 'integer',
        format: 'int32',
        description: 'The port number.',
        proto: 1,
        protoKeepZero: true,
      },
    },
  },
  NodeSystemInfo: {
    type: 'object',
    description: 'Identifiers and version strings a node reports about its system.',
    required: [
      'machineID',
      'systemUUID',
      'bootID',
      'kernelVersion',
      'osImage',
      'containerRuntimeVersion',
      NODE_AGENT_VERSION_FIELD,
      NODE_PROXY_VERSION_FIELD,
      'operatingSystem',
      'architecture',
    ],
    properties: {
      machineID: str('Machine ID, as the node reports it.', { proto: 1, protoKeepZero: true }),
      systemUUID: str('System UUID, as the node reports it.', { proto: 2, protoKeepZero: true }),
      bootID: str("ID of the node's current boot.", { proto: 3, protoKeepZero: true }),
      kernelVersion: str('Kernel release as `uname -r` prints it on the node, such as 6.1.0-18-amd64.', {
        proto: 4,
        protoKeepZero: true,
      }),
      osImage: str(
        "Operating system name read from the node's /etc/os-release, such as Debian GNU/Linux 12 (bookworm).",
        {
          proto: 5,
          protoKeepZero: true,
        },
      ),
      containerRuntimeVersion: str(
        'Container runtime name and version as the runtime API gives them, such as containerd://1.7.0.',
        { proto: 6, protoKeepZero: true },
      ),
      [NODE_AGENT_VERSION_FIELD]: str('Version of the node agent running on the node.', {
        proto: 7,
        protoKeepZero: true,
      }),
      [NODE_PROXY_VERSION_FIELD]: str("Deprecated: the service proxy's version on this node.", {
        proto: 8,
        protoKeepZero: true,
      }),
      operatingSystem: str('Operating system family the node runs.', { proto: 9, protoKeepZero: true }),
      architecture: str('CPU architecture of the node.', { proto: 10, protoKeepZero: true }),
      swap: {
        ref: 'NodeSwapStatus',
        description: 'Swap memory details from the node.',
        proto: 11,
        protoPointer: true,
      },
    },
  },
  NodeSwapStatus: {
    type: 'object',
    description: "A node's swap memory.",
    properties: {
      capacity: {
        type: 'integer',
        format: 'int64',
        description: 'Swap size in bytes.',
        proto: 1,
        protoPointer: true,
      },
    },
  },
  ContainerImage: {
    type: 'object',
    description: 'A container image stored on a node.',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        description: 'Names and references the image goes by.',
        listType: 'atomic',
        proto: 1,
      },
      sizeBytes: {
        type: 'integer',
        format: 'int64',
        description: 'Image size in bytes.',
        proto: 2,
      },
    },
  },
  AttachedVolume: {
    type: 'object',
    description: 'A volume attached to a node.',
    required: ['name', 'devicePath'],
    properties: {
      name: str('Name of the volume.', { proto: 1, protoKeepZero: true }),
      devicePath: str('Device path at which the volume is expected to appear.', {
        proto: 2,
        protoKeepZero: true,
      }),
    },
  },
  NodeConfigStatus: {
    type: 'object',
    description: 'Progress of the configuration named by spec.configSource.',
    properties: {
      assigned: {
        ref: 'NodeConfigSource',
        description: 'Checkpointed configuration the node means to use.',
        proto: 1,
        protoPointer: true,
      },
      active: {
        ref: 'NodeConfigSource',
        description: 'Checkpointed configuration in use now.',
        proto: 2,
        protoPointer: true,
      },
      lastKnownGood: {
        ref: 'NodeConfigSource',
        description: 'Checkpointed configuration the node reverts to after an error.',
        proto: 3,
        protoPointer: true,
      },
      error: str('Problems met while making spec.configSource the active configuration.', {
        proto: 4,
      }),
    },
  },
  NodeRuntimeHandler: {
    type: 'object',
    description: 'One runtime handler and what it supports.',
    properties: {
      name: str('Handler name; empty for the default handler.', {
        proto: 1,
        protoKeepZero: true,
      }),
      features: {
        ref: 'NodeRuntimeHandlerFeatures',
        description: 'What this handler supports.',
        proto: 2,
        protoPointer: true,
      },
    },
  },
  NodeRuntimeHandlerFeatures: {
    type: 'object',
    description: 'Optional features a runtime handler implements.',
    properties: {
      recursiveReadOnlyMounts: bool(
        'True when the handler can make read-only mounts recursive (RecursiveReadOnlyMounts).',
        {
          proto: 1,
          protoPointer: true,
        },
      ),
      userNamespaces: bool(
        'True when the handler supports user namespaces (UserNamespaces), volumes included.',
        {
          proto: 2,
          protoPointer: true,
        },
      ),
    },
  },
  NodeFeatures: {
    type: 'object',
    description: "Optional features the node's container runtime (CRI) implements.",
    properties: {
      supplementalGroupsPolicy: bool(
        'True when the runtime supports SupplementalGroupsPolicy and ContainerUser.',
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
  description: 'A machine that runs Pods. Each Node is stored under a name unique in the cluster.',
  properties: {
    spec: { ref: 'NodeSpec', description: 'How the node is configured.', proto: 2 },
    status: { ref: 'NodeStatus', description: 'What was last observed about the node.', proto: 3 },
  },
  definitions: NODE_DEFINITIONS,
});
