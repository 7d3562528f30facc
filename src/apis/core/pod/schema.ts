// The pod template as core/v1 declares it: every definition a PodTemplateSpec reaches, with the
// list semantics strategic merge patch and server-side apply need (merge keys, patch strategies,
// list types). Descriptions are the first sentence of upstream's. Declared as data, not code:
// Deployment and ReplicaSet (and later workload kinds) refer to these by name.

import type { SchemaNode } from '../../../schema/types.ts';

let definitions: Record<string, SchemaNode> | undefined;

/**
 * The definitions, built on first call: kinds pass this to their schema as a thunk, so an idle
 * server never materializes the pod template.
 */
export function podTemplateDefinitions(): Record<string, SchemaNode> {
  definitions ??= declare();
  return definitions;
}

const declare = (): Record<string, SchemaNode> => ({
  AWSElasticBlockStoreVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type of the volume that you want to mount.',
        proto: 2,
      },
      partition: {
        type: 'integer',
        format: 'int32',
        description: 'partition is the partition in the volume that you want to mount.',
        proto: 3,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly value true will force the readOnly setting in VolumeMounts.',
        proto: 4,
      },
      volumeID: {
        type: 'string',
        description: 'volumeID is unique ID of the persistent disk resource in AWS (Amazon EBS volume).',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents a Persistent Disk resource in AWS.',
    required: ['volumeID'],
  },
  Affinity: {
    type: 'object',
    properties: {
      nodeAffinity: {
        ref: 'NodeAffinity',
        proto: 1,
        protoPointer: true,
      },
      podAffinity: {
        ref: 'PodAffinity',
        proto: 2,
        protoPointer: true,
      },
      podAntiAffinity: {
        ref: 'PodAntiAffinity',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Affinity is a group of affinity scheduling rules.',
  },
  AppArmorProfile: {
    type: 'object',
    properties: {
      localhostProfile: {
        type: 'string',
        description: 'localhostProfile indicates a profile loaded on the node that should be used.',
        proto: 2,
        protoPointer: true,
      },
      type: {
        type: 'string',
        description: 'type indicates which kind of AppArmor profile will be applied.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: "AppArmorProfile defines a pod or container's AppArmor settings.",
    required: ['type'],
  },
  AzureDiskVolumeSource: {
    type: 'object',
    properties: {
      cachingMode: {
        type: 'string',
        description: 'cachingMode is the Host Caching mode: None, Read Only, Read Write.',
        proto: 3,
        protoPointer: true,
      },
      diskName: {
        type: 'string',
        description: 'diskName is the Name of the data disk in the blob storage',
        proto: 1,
        protoKeepZero: true,
      },
      diskURI: {
        type: 'string',
        description: 'diskURI is the URI of data disk in the blob storage',
        proto: 2,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'fsType is Filesystem type to mount.',
        proto: 4,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description:
          'kind expected values are Shared: multiple blob disks per storage account Dedicated: single blob disk per storage account Managed: azure managed data disk (only in managed availability set).',
        proto: 6,
        protoPointer: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly Defaults to false (read/write).',
        proto: 5,
        protoPointer: true,
      },
    },
    description: 'AzureDisk represents an Azure Data Disk mount on the host and bind mount to the pod.',
    required: ['diskName', 'diskURI'],
  },
  AzureFileVolumeSource: {
    type: 'object',
    properties: {
      readOnly: {
        type: 'boolean',
        description: 'readOnly defaults to false (read/write).',
        proto: 3,
      },
      secretName: {
        type: 'string',
        description: 'secretName is the name of secret that contains Azure Storage Account Name and Key',
        proto: 1,
        protoKeepZero: true,
      },
      shareName: {
        type: 'string',
        description: 'shareName is the azure share Name',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'AzureFile represents an Azure File Service mount on the host and bind mount to the pod.',
    required: ['secretName', 'shareName'],
  },
  CSIVolumeSource: {
    type: 'object',
    properties: {
      driver: {
        type: 'string',
        description: 'driver is the name of the CSI driver that handles this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'fsType to mount.',
        proto: 3,
        protoPointer: true,
      },
      nodePublishSecretRef: {
        ref: 'LocalObjectReference',
        proto: 5,
        protoPointer: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly specifies a read-only configuration for the volume.',
        proto: 2,
        protoPointer: true,
      },
      volumeAttributes: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'volumeAttributes stores driver-specific properties that are passed to the CSI driver.',
        proto: 4,
      },
    },
    description: 'Represents a source location of a volume to mount, managed by an external CSI driver',
    required: ['driver'],
  },
  Capabilities: {
    type: 'object',
    properties: {
      add: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Added capabilities',
        listType: 'atomic',
        proto: 1,
      },
      drop: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Removed capabilities',
        listType: 'atomic',
        proto: 2,
      },
    },
    description: 'Adds and removes POSIX capabilities from running containers.',
  },
  CephFSVolumeSource: {
    type: 'object',
    properties: {
      monitors: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'monitors is Required: Monitors is a collection of Ceph monitors',
        listType: 'atomic',
        proto: 1,
      },
      path: {
        type: 'string',
        description:
          'path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly is Optional: Defaults to false (read/write).',
        proto: 6,
      },
      secretFile: {
        type: 'string',
        description:
          'secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 5,
        protoPointer: true,
      },
      user: {
        type: 'string',
        description: 'user is optional: User is the rados user name, default is admin',
        proto: 3,
      },
    },
    description:
      'Represents a Ceph Filesystem mount that lasts the lifetime of a pod Cephfs volumes do not support ownership management or SELinux relabeling.',
    required: ['monitors'],
  },
  CinderVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly defaults to false (read/write).',
        proto: 3,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 4,
        protoPointer: true,
      },
      volumeID: {
        type: 'string',
        description: 'volumeID used to identify the volume in cinder.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents a cinder volume resource in Openstack.',
    required: ['volumeID'],
  },
  ClusterTrustBundleProjection: {
    type: 'object',
    properties: {
      labelSelector: {
        ref: 'LabelSelector',
        proto: 3,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'Select a single ClusterTrustBundle by object name.',
        proto: 1,
        protoPointer: true,
      },
      optional: {
        type: 'boolean',
        description:
          "If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available.",
        proto: 5,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Relative path from the volume root to write the bundle.',
        proto: 4,
        protoKeepZero: true,
      },
      signerName: {
        type: 'string',
        description: 'Select all ClusterTrustBundles that match this signer name.',
        proto: 2,
        protoPointer: true,
      },
    },
    description:
      'ClusterTrustBundleProjection describes how to select a set of ClusterTrustBundle objects and project their contents into the pod filesystem.',
    required: ['path'],
  },
  ConfigMapEnvSource: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Specify whether the ConfigMap must be defined',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'ConfigMapEnvSource selects a ConfigMap to populate the environment variables with.',
  },
  ConfigMapKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'The key to select.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Specify whether the ConfigMap or its key must be defined',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Selects a key from a ConfigMap.',
    required: ['key'],
  },
  ConfigMapProjection: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value.',
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'optional specify whether the ConfigMap or its keys must be defined',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Adapts a ConfigMap into a projected volume.',
  },
  ConfigMapVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description:
          'defaultMode is optional: mode bits used to set permissions on created files by default.',
        proto: 3,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value.',
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'optional specify whether the ConfigMap or its keys must be defined',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Adapts a ConfigMap into a volume.',
  },
  Container: {
    type: 'object',
    properties: {
      args: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Arguments to the entrypoint.',
        listType: 'atomic',
        proto: 4,
      },
      command: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Entrypoint array.',
        listType: 'atomic',
        proto: 3,
      },
      env: {
        type: 'array',
        items: {
          ref: 'EnvVar',
        },
        description: 'List of environment variables to set in the container.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 7,
      },
      envFrom: {
        type: 'array',
        items: {
          ref: 'EnvFromSource',
        },
        description: 'List of sources to populate environment variables in the container.',
        listType: 'atomic',
        proto: 19,
      },
      image: {
        type: 'string',
        description: 'Container image name.',
        proto: 2,
      },
      imagePullPolicy: {
        type: 'string',
        description: 'Image pull policy.',
        proto: 14,
      },
      lifecycle: {
        ref: 'Lifecycle',
        proto: 12,
        protoPointer: true,
      },
      livenessProbe: {
        ref: 'Probe',
        proto: 10,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'Name of the container specified as a DNS_LABEL.',
        proto: 1,
        protoKeepZero: true,
      },
      ports: {
        type: 'array',
        items: {
          ref: 'ContainerPort',
        },
        description: 'List of ports to expose from the container.',
        patchMergeKey: 'containerPort',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
        proto: 6,
      },
      readinessProbe: {
        ref: 'Probe',
        proto: 11,
        protoPointer: true,
      },
      resizePolicy: {
        type: 'array',
        items: {
          ref: 'ContainerResizePolicy',
        },
        description: 'Resources resize policy for the container.',
        listType: 'atomic',
        proto: 23,
      },
      resources: {
        ref: 'ResourceRequirements',
        proto: 8,
      },
      restartPolicy: {
        type: 'string',
        description: 'RestartPolicy defines the restart behavior of individual containers in a pod.',
        proto: 24,
        protoPointer: true,
      },
      restartPolicyRules: {
        type: 'array',
        items: {
          ref: 'ContainerRestartRule',
        },
        description:
          'Represents a list of rules to be checked to determine if the container should be restarted on exit.',
        listType: 'atomic',
        proto: 25,
      },
      securityContext: {
        ref: 'SecurityContext',
        proto: 15,
        protoPointer: true,
      },
      startupProbe: {
        ref: 'Probe',
        proto: 22,
        protoPointer: true,
      },
      stdin: {
        type: 'boolean',
        description: 'Whether this container should allocate a buffer for stdin in the container runtime.',
        proto: 16,
      },
      stdinOnce: {
        type: 'boolean',
        description:
          'Whether the container runtime should close the stdin channel after it has been opened by a single attach.',
        proto: 17,
      },
      terminationMessagePath: {
        type: 'string',
        description:
          "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem.",
        proto: 13,
      },
      terminationMessagePolicy: {
        type: 'string',
        description: 'Indicate how the termination message should be populated.',
        proto: 20,
      },
      tty: {
        type: 'boolean',
        description:
          "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true.",
        proto: 18,
      },
      volumeDevices: {
        type: 'array',
        items: {
          ref: 'VolumeDevice',
        },
        description: 'volumeDevices is the list of block devices to be used by the container.',
        patchMergeKey: 'devicePath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['devicePath'],
        proto: 21,
      },
      volumeMounts: {
        type: 'array',
        items: {
          ref: 'VolumeMount',
        },
        description: "Pod volumes to mount into the container's filesystem.",
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['mountPath'],
        proto: 9,
      },
      workingDir: {
        type: 'string',
        description: "Container's working directory.",
        proto: 5,
      },
    },
    description: 'A single application container that you want to run within a pod.',
    required: ['name'],
  },
  ContainerPort: {
    type: 'object',
    properties: {
      containerPort: {
        type: 'integer',
        format: 'int32',
        description: "Number of port to expose on the pod's IP address.",
        proto: 3,
        protoKeepZero: true,
      },
      hostIP: {
        type: 'string',
        description: 'What host IP to bind the external port to.',
        proto: 5,
      },
      hostPort: {
        type: 'integer',
        format: 'int32',
        description: 'Number of port to expose on the host.',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'If specified, this must be an IANA_SVC_NAME and unique within the pod.',
        proto: 1,
      },
      protocol: {
        type: 'string',
        description: 'Protocol for port.',
        default: 'TCP',
        proto: 4,
      },
    },
    description: 'ContainerPort represents a network port in a single container.',
    required: ['containerPort'],
  },
  ContainerResizePolicy: {
    type: 'object',
    properties: {
      resourceName: {
        type: 'string',
        description: 'Name of the resource to which this resource resize policy applies.',
        proto: 1,
        protoKeepZero: true,
      },
      restartPolicy: {
        type: 'string',
        description: 'Restart policy to apply when specified resource is resized.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'ContainerResizePolicy represents resource resize policy for the container.',
    required: ['resourceName', 'restartPolicy'],
  },
  ContainerRestartRule: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        description: 'Specifies the action taken on a container exit if the requirements are satisfied.',
        proto: 1,
      },
      exitCodes: {
        ref: 'ContainerRestartRuleOnExitCodes',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'ContainerRestartRule describes how a container exit is handled.',
    required: ['action'],
  },
  ContainerRestartRuleOnExitCodes: {
    type: 'object',
    properties: {
      operator: {
        type: 'string',
        description:
          'Represents the relationship between the container exit code(s) and the specified values.',
        proto: 1,
      },
      values: {
        type: 'array',
        items: {
          type: 'integer',
          format: 'int32',
        },
        description: 'Specifies the set of values to check for container exit codes.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description:
      'ContainerRestartRuleOnExitCodes describes the condition for handling an exited container based on its exit codes.',
    required: ['operator'],
  },
  DownwardAPIProjection: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          ref: 'DownwardAPIVolumeFile',
        },
        description: 'Items is a list of DownwardAPIVolume file',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Represents downward API info for projecting into a projected volume.',
  },
  DownwardAPIVolumeFile: {
    type: 'object',
    properties: {
      fieldRef: {
        ref: 'ObjectFieldSelector',
        proto: 2,
        protoPointer: true,
      },
      mode: {
        type: 'integer',
        format: 'int32',
        description:
          'Optional: mode bits used to set permissions on this file, must be an octal value between 0000 and 0777 or a decimal value between 0 and 511.',
        proto: 4,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Required: Path is the relative path name of the file to be created.',
        proto: 1,
        protoKeepZero: true,
      },
      resourceFieldRef: {
        ref: 'ResourceFieldSelector',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'DownwardAPIVolumeFile represents information to create the file containing the pod field',
    required: ['path'],
  },
  DownwardAPIVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description: 'Optional: mode bits to use on created files by default.',
        proto: 2,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'DownwardAPIVolumeFile',
        },
        description: 'Items is a list of downward API volume file',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'DownwardAPIVolumeSource represents a volume containing downward API info.',
  },
  EmptyDirVolumeSource: {
    type: 'object',
    properties: {
      medium: {
        type: 'string',
        description: 'medium represents what type of storage medium should back this directory.',
        proto: 1,
      },
      sizeLimit: {
        intOrString: true,
        goType: 'resource.Quantity',
        description: 'sizeLimit is the total amount of local storage required for this EmptyDir volume.',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'Represents an empty directory for a pod.',
  },
  EnvFromSource: {
    type: 'object',
    properties: {
      configMapRef: {
        ref: 'ConfigMapEnvSource',
        proto: 2,
        protoPointer: true,
      },
      prefix: {
        type: 'string',
        description: 'Optional text to prepend to the name of each environment variable.',
        proto: 1,
      },
      secretRef: {
        ref: 'SecretEnvSource',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'EnvFromSource represents the source of a set of ConfigMaps or Secrets',
  },
  EnvVar: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of the environment variable.',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description:
          'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.',
        proto: 2,
      },
      valueFrom: {
        ref: 'EnvVarSource',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'EnvVar represents an environment variable present in a Container.',
    required: ['name'],
  },
  EnvVarSource: {
    type: 'object',
    properties: {
      configMapKeyRef: {
        ref: 'ConfigMapKeySelector',
        proto: 3,
        protoPointer: true,
      },
      fieldRef: {
        ref: 'ObjectFieldSelector',
        proto: 1,
        protoPointer: true,
      },
      fileKeyRef: {
        ref: 'FileKeySelector',
        proto: 5,
        protoPointer: true,
      },
      resourceFieldRef: {
        ref: 'ResourceFieldSelector',
        proto: 2,
        protoPointer: true,
      },
      secretKeyRef: {
        ref: 'SecretKeySelector',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'EnvVarSource represents a source for the value of an EnvVar.',
  },
  EphemeralContainer: {
    type: 'object',
    properties: {
      args: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Arguments to the entrypoint.',
        listType: 'atomic',
        proto: 4,
        protoInline: 1,
      },
      command: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Entrypoint array.',
        listType: 'atomic',
        proto: 3,
        protoInline: 1,
      },
      env: {
        type: 'array',
        items: {
          ref: 'EnvVar',
        },
        description: 'List of environment variables to set in the container.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 7,
        protoInline: 1,
      },
      envFrom: {
        type: 'array',
        items: {
          ref: 'EnvFromSource',
        },
        description: 'List of sources to populate environment variables in the container.',
        listType: 'atomic',
        proto: 19,
        protoInline: 1,
      },
      image: {
        type: 'string',
        description: 'Container image name.',
        proto: 2,
        protoInline: 1,
      },
      imagePullPolicy: {
        type: 'string',
        description: 'Image pull policy.',
        proto: 14,
        protoInline: 1,
      },
      lifecycle: {
        ref: 'Lifecycle',
        proto: 12,
        protoInline: 1,
        protoPointer: true,
      },
      livenessProbe: {
        ref: 'Probe',
        proto: 10,
        protoInline: 1,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'Name of the ephemeral container specified as a DNS_LABEL.',
        proto: 1,
        protoInline: 1,
        protoKeepZero: true,
      },
      ports: {
        type: 'array',
        items: {
          ref: 'ContainerPort',
        },
        description: 'Ports are not allowed for ephemeral containers.',
        patchMergeKey: 'containerPort',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
        proto: 6,
        protoInline: 1,
      },
      readinessProbe: {
        ref: 'Probe',
        proto: 11,
        protoInline: 1,
        protoPointer: true,
      },
      resizePolicy: {
        type: 'array',
        items: {
          ref: 'ContainerResizePolicy',
        },
        description: 'Resources resize policy for the container.',
        listType: 'atomic',
        proto: 23,
        protoInline: 1,
      },
      resources: {
        ref: 'ResourceRequirements',
        proto: 8,
        protoInline: 1,
      },
      restartPolicy: {
        type: 'string',
        description:
          'Restart policy for the container to manage the restart behavior of each container within a pod.',
        proto: 24,
        protoInline: 1,
        protoPointer: true,
      },
      restartPolicyRules: {
        type: 'array',
        items: {
          ref: 'ContainerRestartRule',
        },
        description:
          'Represents a list of rules to be checked to determine if the container should be restarted on exit.',
        listType: 'atomic',
        proto: 25,
        protoInline: 1,
      },
      securityContext: {
        ref: 'SecurityContext',
        proto: 15,
        protoInline: 1,
        protoPointer: true,
      },
      startupProbe: {
        ref: 'Probe',
        proto: 22,
        protoInline: 1,
        protoPointer: true,
      },
      stdin: {
        type: 'boolean',
        description: 'Whether this container should allocate a buffer for stdin in the container runtime.',
        proto: 16,
        protoInline: 1,
      },
      stdinOnce: {
        type: 'boolean',
        description:
          'Whether the container runtime should close the stdin channel after it has been opened by a single attach.',
        proto: 17,
        protoInline: 1,
      },
      targetContainerName: {
        type: 'string',
        description: 'If set, the name of the container from PodSpec that this ephemeral container targets.',
        proto: 2,
      },
      terminationMessagePath: {
        type: 'string',
        description:
          "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem.",
        proto: 13,
        protoInline: 1,
      },
      terminationMessagePolicy: {
        type: 'string',
        description: 'Indicate how the termination message should be populated.',
        proto: 20,
        protoInline: 1,
      },
      tty: {
        type: 'boolean',
        description:
          "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true.",
        proto: 18,
        protoInline: 1,
      },
      volumeDevices: {
        type: 'array',
        items: {
          ref: 'VolumeDevice',
        },
        description: 'volumeDevices is the list of block devices to be used by the container.',
        patchMergeKey: 'devicePath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['devicePath'],
        proto: 21,
        protoInline: 1,
      },
      volumeMounts: {
        type: 'array',
        items: {
          ref: 'VolumeMount',
        },
        description: "Pod volumes to mount into the container's filesystem.",
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['mountPath'],
        proto: 9,
        protoInline: 1,
      },
      workingDir: {
        type: 'string',
        description: "Container's working directory.",
        proto: 5,
        protoInline: 1,
      },
    },
    description:
      'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging.',
    required: ['name'],
  },
  EphemeralVolumeSource: {
    type: 'object',
    properties: {
      volumeClaimTemplate: {
        ref: 'PersistentVolumeClaimTemplate',
        proto: 1,
        protoPointer: true,
      },
    },
    description: 'Represents an ephemeral volume that is handled by a normal storage driver.',
  },
  ExecAction: {
    type: 'object',
    properties: {
      command: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          "Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem.",
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'ExecAction describes a "run in container" action.',
  },
  FCVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 3,
      },
      lun: {
        type: 'integer',
        format: 'int32',
        description: 'lun is Optional: FC target lun number',
        proto: 2,
        protoPointer: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly is Optional: Defaults to false (read/write).',
        proto: 4,
      },
      targetWWNs: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'targetWWNs is Optional: FC target worldwide names (WWNs)',
        listType: 'atomic',
        proto: 1,
      },
      wwids: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'wwids Optional: FC volume world wide identifiers (wwids) Either wwids or combination of targetWWNs and lun must be set, but not both simultaneously.',
        listType: 'atomic',
        proto: 5,
      },
    },
    description: 'Represents a Fibre Channel volume.',
  },
  FileKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'The key within the env file.',
        proto: 3,
        protoKeepZero: true,
      },
      optional: {
        type: 'boolean',
        description: 'Specify whether the file or its key must be defined.',
        proto: 4,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'The path within the volume from which to select the file.',
        proto: 2,
        protoKeepZero: true,
      },
      volumeName: {
        type: 'string',
        description: 'The name of the volume mount containing the env file.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'FileKeySelector selects a key of the env file.',
    required: ['key', 'path', 'volumeName'],
  },
  FlexVolumeSource: {
    type: 'object',
    properties: {
      driver: {
        type: 'string',
        description: 'driver is the name of the driver to use for this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 2,
      },
      options: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'options is Optional: this field holds extra command options if any.',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly is Optional: defaults to false (read/write).',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 3,
        protoPointer: true,
      },
    },
    description:
      'FlexVolume represents a generic volume resource that is provisioned/attached using an exec based plugin.',
    required: ['driver'],
  },
  FlockerVolumeSource: {
    type: 'object',
    properties: {
      datasetName: {
        type: 'string',
        description:
          'datasetName is Name of the dataset stored as metadata -> name on the dataset for Flocker should be considered as deprecated',
        proto: 1,
      },
      datasetUUID: {
        type: 'string',
        description: 'datasetUUID is the UUID of the dataset.',
        proto: 2,
      },
    },
    description: 'Represents a Flocker volume mounted by the Flocker agent.',
  },
  GCEPersistentDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is filesystem type of the volume that you want to mount.',
        proto: 2,
      },
      partition: {
        type: 'integer',
        format: 'int32',
        description: 'partition is the partition in the volume that you want to mount.',
        proto: 3,
      },
      pdName: {
        type: 'string',
        description: 'pdName is unique name of the PD resource in GCE.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly here will force the ReadOnly setting in VolumeMounts.',
        proto: 4,
      },
    },
    description: 'Represents a Persistent Disk resource in Google Compute Engine.',
    required: ['pdName'],
  },
  GRPCAction: {
    type: 'object',
    properties: {
      port: {
        type: 'integer',
        format: 'int32',
        description: 'Port number of the gRPC service.',
        proto: 1,
        protoKeepZero: true,
      },
      service: {
        type: 'string',
        description:
          'Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'GRPCAction specifies an action involving a GRPC service.',
    required: ['port'],
  },
  GitRepoVolumeSource: {
    type: 'object',
    properties: {
      directory: {
        type: 'string',
        description: 'directory is the target directory name.',
        proto: 3,
      },
      repository: {
        type: 'string',
        description: 'repository is the URL',
        proto: 1,
        protoKeepZero: true,
      },
      revision: {
        type: 'string',
        description: 'revision is the commit hash for the specified revision.',
        proto: 2,
      },
    },
    description: 'Represents a volume that is populated with the contents of a git repository.',
    required: ['repository'],
  },
  GlusterfsVolumeSource: {
    type: 'object',
    properties: {
      endpoints: {
        type: 'string',
        description: 'endpoints is the endpoint name that details Glusterfs topology.',
        proto: 1,
        protoKeepZero: true,
      },
      path: {
        type: 'string',
        description: 'path is the Glusterfs volume path.',
        proto: 2,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description:
          'readOnly here will force the Glusterfs volume to be mounted with read-only permissions.',
        proto: 3,
      },
    },
    description: 'Represents a Glusterfs mount that lasts the lifetime of a pod.',
    required: ['endpoints', 'path'],
  },
  HTTPGetAction: {
    type: 'object',
    properties: {
      host: {
        type: 'string',
        description: 'Host name to connect to, defaults to the pod IP.',
        proto: 3,
      },
      httpHeaders: {
        type: 'array',
        items: {
          ref: 'HTTPHeader',
        },
        description: 'Custom headers to set in the request.',
        listType: 'atomic',
        proto: 5,
      },
      path: {
        type: 'string',
        description: 'Path to access on the HTTP server.',
        proto: 1,
      },
      port: {
        intOrString: true,
        description: 'IntOrString is a type that can hold an int32 or a string.',
        proto: 2,
      },
      scheme: {
        type: 'string',
        description: 'Scheme to use for connecting to the host.',
        proto: 4,
      },
    },
    description: 'HTTPGetAction describes an action based on HTTP Get requests.',
    required: ['port'],
  },
  HTTPHeader: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'The header field name.',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description: 'The header field value',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'HTTPHeader describes a custom header to be used in HTTP probes',
    required: ['name', 'value'],
  },
  HostAlias: {
    type: 'object',
    properties: {
      hostnames: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Hostnames for the above IP address.',
        listType: 'atomic',
        proto: 2,
      },
      ip: {
        type: 'string',
        description: 'IP address of the host file entry.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description:
      "HostAlias holds the mapping between IP and hostnames that will be injected as an entry in the pod's hosts file.",
    required: ['ip'],
  },
  HostPathVolumeSource: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'path of the directory on the host.',
        proto: 1,
        protoKeepZero: true,
      },
      type: {
        type: 'string',
        description: 'type for HostPath Volume Defaults to ""',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'Represents a host path mapped into a pod.',
    required: ['path'],
  },
  ISCSIVolumeSource: {
    type: 'object',
    properties: {
      chapAuthDiscovery: {
        type: 'boolean',
        description: 'chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication',
        proto: 8,
      },
      chapAuthSession: {
        type: 'boolean',
        description: 'chapAuthSession defines whether support iSCSI Session CHAP authentication',
        proto: 11,
      },
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type of the volume that you want to mount.',
        proto: 5,
      },
      initiatorName: {
        type: 'string',
        description: 'initiatorName is the custom iSCSI Initiator Name.',
        proto: 12,
        protoPointer: true,
      },
      iqn: {
        type: 'string',
        description: 'iqn is the target iSCSI Qualified Name.',
        proto: 2,
        protoKeepZero: true,
      },
      iscsiInterface: {
        type: 'string',
        description: 'iscsiInterface is the interface Name that uses an iSCSI transport.',
        proto: 4,
      },
      lun: {
        type: 'integer',
        format: 'int32',
        description: 'lun represents iSCSI Target Lun number.',
        proto: 3,
        protoKeepZero: true,
      },
      portals: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'portals is the iSCSI Target Portal List.',
        listType: 'atomic',
        proto: 7,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly here will force the ReadOnly setting in VolumeMounts.',
        proto: 6,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 10,
        protoPointer: true,
      },
      targetPortal: {
        type: 'string',
        description: 'targetPortal is iSCSI Target Portal.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents an ISCSI disk.',
    required: ['iqn', 'lun', 'targetPortal'],
  },
  ImageVolumeSource: {
    type: 'object',
    properties: {
      pullPolicy: {
        type: 'string',
        description: 'Policy for pulling OCI objects.',
        proto: 2,
      },
      reference: {
        type: 'string',
        description: 'Required: Image or artifact reference to be used.',
        proto: 1,
      },
    },
    description: 'ImageVolumeSource represents a image volume resource.',
  },
  KeyToPath: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'key is the key to project.',
        proto: 1,
        protoKeepZero: true,
      },
      mode: {
        type: 'integer',
        format: 'int32',
        description: 'mode is Optional: mode bits used to set permissions on this file.',
        proto: 3,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'path is the relative path of the file to map the key to.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Maps a string key to a path within a volume.',
    required: ['key', 'path'],
  },
  LabelSelector: {
    type: 'object',
    properties: {
      matchExpressions: {
        type: 'array',
        items: {
          ref: 'LabelSelectorRequirement',
        },
        description: 'matchExpressions is a list of label selector requirements.',
        listType: 'atomic',
        proto: 2,
      },
      matchLabels: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'matchLabels is a map of {key,value} pairs.',
        proto: 1,
      },
    },
    description: 'A label selector is a label query over a set of resources.',
  },
  LabelSelectorRequirement: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'key is the label key that the selector applies to.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description: "operator represents a key's relationship to a set of values.",
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'values is an array of string values.',
        listType: 'atomic',
        proto: 3,
      },
    },
    description:
      'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    required: ['key', 'operator'],
  },
  Lifecycle: {
    type: 'object',
    properties: {
      postStart: {
        ref: 'LifecycleHandler',
        proto: 1,
        protoPointer: true,
      },
      preStop: {
        ref: 'LifecycleHandler',
        proto: 2,
        protoPointer: true,
      },
      stopSignal: {
        type: 'string',
        description: 'StopSignal defines which signal will be sent to a container when it is being stopped.',
        proto: 3,
        protoPointer: true,
      },
    },
    description:
      'Lifecycle describes actions that the management system should take in response to container lifecycle events.',
  },
  LifecycleHandler: {
    type: 'object',
    properties: {
      exec: {
        ref: 'ExecAction',
        proto: 1,
        protoPointer: true,
      },
      httpGet: {
        ref: 'HTTPGetAction',
        proto: 2,
        protoPointer: true,
      },
      sleep: {
        ref: 'SleepAction',
        proto: 4,
        protoPointer: true,
      },
      tcpSocket: {
        ref: 'TCPSocketAction',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'LifecycleHandler defines a specific action that should be taken in a lifecycle hook.',
  },
  LocalObjectReference: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
      },
    },
    description:
      'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  },
  NFSVolumeSource: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'path that is exported by the NFS server.',
        proto: 2,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly here will force the NFS export to be mounted with read-only permissions.',
        proto: 3,
      },
      server: {
        type: 'string',
        description: 'server is the hostname or IP address of the NFS server.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents an NFS mount that lasts the lifetime of a pod.',
    required: ['path', 'server'],
  },
  NodeAffinity: {
    type: 'object',
    properties: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'PreferredSchedulingTerm',
        },
        description:
          'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        ref: 'NodeSelector',
        proto: 1,
        protoPointer: true,
      },
    },
    description: 'Node affinity is a group of node affinity scheduling rules.',
  },
  NodeSelector: {
    type: 'object',
    properties: {
      nodeSelectorTerms: {
        type: 'array',
        items: {
          ref: 'NodeSelectorTerm',
        },
        description: 'Required.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description:
      'A node selector represents the union of the results of one or more label queries over a set of nodes; that is, it represents the OR of the selectors represented by the node selector terms.',
    required: ['nodeSelectorTerms'],
  },
  NodeSelectorRequirement: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'The label key that the selector applies to.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description: "Represents a key's relationship to a set of values.",
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'An array of string values.',
        listType: 'atomic',
        proto: 3,
      },
    },
    description:
      'A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    required: ['key', 'operator'],
  },
  NodeSelectorTerm: {
    type: 'object',
    properties: {
      matchExpressions: {
        type: 'array',
        items: {
          ref: 'NodeSelectorRequirement',
        },
        description: "A list of node selector requirements by node's labels.",
        listType: 'atomic',
        proto: 1,
      },
      matchFields: {
        type: 'array',
        items: {
          ref: 'NodeSelectorRequirement',
        },
        description: "A list of node selector requirements by node's fields.",
        listType: 'atomic',
        proto: 2,
      },
    },
    description: 'A null or empty node selector term matches no objects.',
  },
  ObjectFieldSelector: {
    type: 'object',
    properties: {
      apiVersion: {
        type: 'string',
        description: 'Version of the schema the FieldPath is written in terms of, defaults to "v1".',
        proto: 1,
      },
      fieldPath: {
        type: 'string',
        description: 'Path of the field to select in the specified API version.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'ObjectFieldSelector selects an APIVersioned field of an object.',
    required: ['fieldPath'],
  },
  PersistentVolumeClaimSpec: {
    type: 'object',
    properties: {
      accessModes: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'accessModes contains the desired access modes the volume should have.',
        listType: 'atomic',
        proto: 1,
      },
      dataSource: {
        ref: 'TypedLocalObjectReference',
        proto: 7,
        protoPointer: true,
      },
      dataSourceRef: {
        ref: 'TypedObjectReference',
        proto: 8,
        protoPointer: true,
      },
      resources: {
        ref: 'VolumeResourceRequirements',
        proto: 2,
      },
      selector: {
        ref: 'LabelSelector',
        proto: 4,
        protoPointer: true,
      },
      storageClassName: {
        type: 'string',
        description: 'storageClassName is the name of the StorageClass required by the claim.',
        proto: 5,
        protoPointer: true,
      },
      volumeAttributesClassName: {
        type: 'string',
        description:
          'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
        proto: 9,
        protoPointer: true,
      },
      volumeMode: {
        type: 'string',
        description: 'volumeMode defines what type of volume is required by the claim.',
        proto: 6,
        protoPointer: true,
      },
      volumeName: {
        type: 'string',
        description: 'volumeName is the binding reference to the PersistentVolume backing this claim.',
        proto: 3,
      },
    },
    description:
      'PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes',
  },
  PersistentVolumeClaimTemplate: {
    type: 'object',
    properties: {
      metadata: {
        ref: 'ObjectMeta',
        proto: 1,
      },
      spec: {
        ref: 'PersistentVolumeClaimSpec',
        proto: 2,
      },
    },
    description:
      'PersistentVolumeClaimTemplate is used to produce PersistentVolumeClaim objects as part of an EphemeralVolumeSource.',
  },
  PersistentVolumeClaimVolumeSource: {
    type: 'object',
    properties: {
      claimName: {
        type: 'string',
        description:
          'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly Will force the ReadOnly setting in VolumeMounts.',
        proto: 2,
      },
    },
    description: "PersistentVolumeClaimVolumeSource references the user's PVC in the same namespace.",
    required: ['claimName'],
  },
  PhotonPersistentDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 2,
      },
      pdID: {
        type: 'string',
        description: 'pdID is the ID that identifies Photon Controller persistent disk',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents a Photon Controller persistent disk resource.',
    required: ['pdID'],
  },
  PodAffinity: {
    type: 'object',
    properties: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'WeightedPodAffinityTerm',
        },
        description:
          'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'PodAffinityTerm',
        },
        description:
          'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Pod affinity is a group of inter pod affinity scheduling rules.',
  },
  PodAffinityTerm: {
    type: 'object',
    properties: {
      labelSelector: {
        ref: 'LabelSelector',
        proto: 1,
        protoPointer: true,
      },
      matchLabelKeys: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'MatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.',
        listType: 'atomic',
        proto: 5,
      },
      mismatchLabelKeys: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'MismatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.',
        listType: 'atomic',
        proto: 6,
      },
      namespaceSelector: {
        ref: 'LabelSelector',
        proto: 4,
        protoPointer: true,
      },
      namespaces: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'namespaces specifies a static list of namespace names that the term applies to.',
        listType: 'atomic',
        proto: 2,
      },
      topologyKey: {
        type: 'string',
        description:
          'This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running.',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description:
      'Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running',
    required: ['topologyKey'],
  },
  PodAntiAffinity: {
    type: 'object',
    properties: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'WeightedPodAffinityTerm',
        },
        description:
          'The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'PodAffinityTerm',
        },
        description:
          'If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Pod anti affinity is a group of inter pod anti affinity scheduling rules.',
  },
  PodCertificateProjection: {
    type: 'object',
    properties: {
      certificateChainPath: {
        type: 'string',
        description: 'Write the certificate chain at this path in the projected volume.',
        proto: 6,
      },
      credentialBundlePath: {
        type: 'string',
        description: 'Write the credential bundle at this path in the projected volume.',
        proto: 4,
      },
      keyPath: {
        type: 'string',
        description: 'Write the key at this path in the projected volume.',
        proto: 5,
      },
      keyType: {
        type: 'string',
        proto: 2,
      },
      maxExpirationSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'maxExpirationSeconds is the maximum lifetime permitted for the certificate.',
        proto: 3,
        protoPointer: true,
      },
      signerName: {
        type: 'string',
        proto: 1,
      },
    },
    description:
      'PodCertificateProjection provides a private key and X.509 certificate in the pod filesystem.',
    required: ['keyType', 'signerName'],
  },
  PodDNSConfig: {
    type: 'object',
    properties: {
      nameservers: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'A list of DNS name server IP addresses.',
        listType: 'atomic',
        proto: 1,
      },
      options: {
        type: 'array',
        items: {
          ref: 'PodDNSConfigOption',
        },
        description: 'A list of DNS resolver options.',
        listType: 'atomic',
        proto: 3,
      },
      searches: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'A list of DNS search domains for host-name lookup.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description:
      'PodDNSConfig defines the DNS parameters of a pod in addition to those generated from DNSPolicy.',
  },
  PodDNSConfigOption: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: "Name is this DNS resolver option's name.",
        proto: 1,
      },
      value: {
        type: 'string',
        description: "Value is this DNS resolver option's value.",
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'PodDNSConfigOption defines DNS resolver options of a pod.',
  },
  PodOS: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name is the name of the operating system.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'PodOS defines the OS parameters of a pod.',
    required: ['name'],
  },
  PodReadinessGate: {
    type: 'object',
    properties: {
      conditionType: {
        type: 'string',
        description: "ConditionType refers to a condition in the pod's condition list with matching type.",
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'PodReadinessGate contains the reference to a pod condition',
    required: ['conditionType'],
  },
  PodResourceClaim: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name uniquely identifies this resource claim inside the pod.',
        proto: 1,
        protoKeepZero: true,
      },
      resourceClaimName: {
        type: 'string',
        description:
          'ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod.',
        proto: 3,
        protoPointer: true,
      },
      resourceClaimTemplateName: {
        type: 'string',
        description:
          'ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod.',
        proto: 4,
        protoPointer: true,
      },
    },
    description:
      'PodResourceClaim references exactly one ResourceClaim, either directly or by naming a ResourceClaimTemplate which is then turned into a ResourceClaim for the pod.',
    required: ['name'],
  },
  PodSchedulingGate: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of the scheduling gate.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'PodSchedulingGate is associated to a Pod to guard its scheduling.',
    required: ['name'],
  },
  PodSecurityContext: {
    type: 'object',
    properties: {
      appArmorProfile: {
        ref: 'AppArmorProfile',
        proto: 11,
        protoPointer: true,
      },
      fsGroup: {
        type: 'integer',
        format: 'int64',
        description: 'A special supplemental group that applies to all containers in a pod.',
        proto: 5,
        protoPointer: true,
      },
      fsGroupChangePolicy: {
        type: 'string',
        description:
          'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod.',
        proto: 9,
        protoPointer: true,
      },
      runAsGroup: {
        type: 'integer',
        format: 'int64',
        description: 'The GID to run the entrypoint of the container process.',
        proto: 6,
        protoPointer: true,
      },
      runAsNonRoot: {
        type: 'boolean',
        description: 'Indicates that the container must run as a non-root user.',
        proto: 3,
        protoPointer: true,
      },
      runAsUser: {
        type: 'integer',
        format: 'int64',
        description: 'The UID to run the entrypoint of the container process.',
        proto: 2,
        protoPointer: true,
      },
      seLinuxChangePolicy: {
        type: 'string',
        description:
          "seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.",
        proto: 13,
        protoPointer: true,
      },
      seLinuxOptions: {
        ref: 'SELinuxOptions',
        proto: 1,
        protoPointer: true,
      },
      seccompProfile: {
        ref: 'SeccompProfile',
        proto: 10,
        protoPointer: true,
      },
      supplementalGroups: {
        type: 'array',
        items: {
          type: 'integer',
          format: 'int32',
        },
        description:
          "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup (if specified).",
        listType: 'atomic',
        proto: 4,
      },
      supplementalGroupsPolicy: {
        type: 'string',
        description: 'Defines how supplemental groups of the first container processes are calculated.',
        proto: 12,
        protoPointer: true,
      },
      sysctls: {
        type: 'array',
        items: {
          ref: 'Sysctl',
        },
        description: 'Sysctls hold a list of namespaced sysctls used for the pod.',
        listType: 'atomic',
        proto: 7,
      },
      windowsOptions: {
        ref: 'WindowsSecurityContextOptions',
        proto: 8,
        protoPointer: true,
      },
    },
    description: 'PodSecurityContext holds pod-level security attributes and common container settings.',
  },
  PodSpec: {
    type: 'object',
    properties: {
      activeDeadlineSeconds: {
        type: 'integer',
        format: 'int64',
        description:
          'Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers.',
        proto: 5,
        protoPointer: true,
      },
      affinity: {
        ref: 'Affinity',
        proto: 18,
        protoPointer: true,
      },
      automountServiceAccountToken: {
        type: 'boolean',
        description:
          'AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.',
        proto: 21,
        protoPointer: true,
      },
      containers: {
        type: 'array',
        items: {
          ref: 'Container',
        },
        description: 'List of containers belonging to the pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 2,
      },
      dnsConfig: {
        ref: 'PodDNSConfig',
        proto: 26,
        protoPointer: true,
      },
      dnsPolicy: {
        type: 'string',
        description: 'Set DNS policy for the pod.',
        proto: 6,
      },
      enableServiceLinks: {
        type: 'boolean',
        description:
          "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links.",
        proto: 30,
        protoPointer: true,
      },
      ephemeralContainers: {
        type: 'array',
        items: {
          ref: 'EphemeralContainer',
        },
        description: 'List of ephemeral containers run in this pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 34,
      },
      hostAliases: {
        type: 'array',
        items: {
          ref: 'HostAlias',
        },
        description:
          "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified.",
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['ip'],
        proto: 23,
      },
      hostIPC: {
        type: 'boolean',
        description: "Use the host's ipc namespace.",
        proto: 13,
      },
      hostNetwork: {
        type: 'boolean',
        description: 'Host networking requested for this pod.',
        proto: 11,
      },
      hostPID: {
        type: 'boolean',
        description: "Use the host's pid namespace.",
        proto: 12,
      },
      hostUsers: {
        type: 'boolean',
        description: "Use the host's user namespace.",
        proto: 37,
        protoPointer: true,
      },
      hostname: {
        type: 'string',
        description:
          "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value.",
        proto: 16,
      },
      hostnameOverride: {
        type: 'string',
        description:
          "HostnameOverride specifies an explicit override for the pod's hostname as perceived by the pod.",
        proto: 41,
        protoPointer: true,
      },
      imagePullSecrets: {
        type: 'array',
        items: {
          ref: 'LocalObjectReference',
        },
        description:
          'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 15,
      },
      initContainers: {
        type: 'array',
        items: {
          ref: 'Container',
        },
        description: 'List of initialization containers belonging to the pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 20,
      },
      nodeName: {
        type: 'string',
        description: 'NodeName indicates in which node this pod is scheduled.',
        proto: 10,
      },
      nodeSelector: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'NodeSelector is a selector which must be true for the pod to fit on a node.',
        proto: 7,
      },
      os: {
        ref: 'PodOS',
        proto: 36,
        protoPointer: true,
      },
      overhead: {
        type: 'object',
        additionalProperties: {
          intOrString: true,
          goType: 'resource.Quantity',
        },
        description:
          'Overhead represents the resource overhead associated with running a pod for a given RuntimeClass.',
        proto: 32,
      },
      preemptionPolicy: {
        type: 'string',
        description: 'PreemptionPolicy is the Policy for preempting pods with lower priority.',
        proto: 31,
        protoPointer: true,
      },
      priority: {
        type: 'integer',
        format: 'int32',
        description: 'The priority value.',
        proto: 25,
        protoPointer: true,
      },
      priorityClassName: {
        type: 'string',
        description: "If specified, indicates the pod's priority.",
        proto: 24,
      },
      readinessGates: {
        type: 'array',
        items: {
          ref: 'PodReadinessGate',
        },
        description: 'If specified, all readiness gates will be evaluated for pod readiness.',
        listType: 'atomic',
        proto: 28,
      },
      resourceClaims: {
        type: 'array',
        items: {
          ref: 'PodResourceClaim',
        },
        description:
          'ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start.',
        patchMergeKey: 'name',
        patchStrategy: 'merge,retainKeys',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 39,
      },
      resources: {
        ref: 'ResourceRequirements',
        proto: 40,
        protoPointer: true,
      },
      restartPolicy: {
        type: 'string',
        description: 'Restart policy for all containers within the pod.',
        proto: 3,
      },
      runtimeClassName: {
        type: 'string',
        proto: 29,
        protoPointer: true,
      },
      schedulerName: {
        type: 'string',
        description: 'If specified, the pod will be dispatched by specified scheduler.',
        proto: 19,
      },
      schedulingGates: {
        type: 'array',
        items: {
          ref: 'PodSchedulingGate',
        },
        description:
          'SchedulingGates is an opaque list of values that if specified will block scheduling the pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 38,
      },
      securityContext: {
        ref: 'PodSecurityContext',
        proto: 14,
        protoPointer: true,
      },
      serviceAccount: {
        type: 'string',
        description: 'DeprecatedServiceAccount is a deprecated alias for ServiceAccountName.',
        proto: 9,
      },
      serviceAccountName: {
        type: 'string',
        description: 'ServiceAccountName is the name of the ServiceAccount to use to run this pod.',
        proto: 8,
      },
      setHostnameAsFQDN: {
        type: 'boolean',
        description:
          "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default).",
        proto: 35,
        protoPointer: true,
      },
      shareProcessNamespace: {
        type: 'boolean',
        description: 'Share a single process namespace between all of the containers in a pod.',
        proto: 27,
        protoPointer: true,
      },
      subdomain: {
        type: 'string',
        description:
          'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>".',
        proto: 17,
      },
      terminationGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'Optional duration in seconds the pod needs to terminate gracefully.',
        proto: 4,
        protoPointer: true,
      },
      tolerations: {
        type: 'array',
        items: {
          ref: 'Toleration',
        },
        description: "If specified, the pod's tolerations.",
        listType: 'atomic',
        proto: 22,
      },
      topologySpreadConstraints: {
        type: 'array',
        items: {
          ref: 'TopologySpreadConstraint',
        },
        description:
          'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains.',
        patchMergeKey: 'topologyKey',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
        proto: 33,
      },
      volumes: {
        type: 'array',
        items: {
          ref: 'Volume',
        },
        description: 'List of volumes that can be mounted by containers belonging to the pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge,retainKeys',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 1,
      },
    },
    description: 'PodSpec is a description of a pod.',
    required: ['containers'],
  },
  PodTemplateSpec: {
    type: 'object',
    properties: {
      metadata: {
        ref: 'ObjectMeta',
        proto: 1,
      },
      spec: {
        ref: 'PodSpec',
        proto: 2,
      },
    },
    description: 'PodTemplateSpec describes the data a pod should have when created from a template',
  },
  PortworxVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description:
          'fSType represents the filesystem type to mount Must be a filesystem type supported by the host operating system.',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly defaults to false (read/write).',
        proto: 3,
      },
      volumeID: {
        type: 'string',
        description: 'volumeID uniquely identifies a Portworx volume',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'PortworxVolumeSource represents a Portworx volume resource.',
    required: ['volumeID'],
  },
  PreferredSchedulingTerm: {
    type: 'object',
    properties: {
      preference: {
        ref: 'NodeSelectorTerm',
        proto: 2,
      },
      weight: {
        type: 'integer',
        format: 'int32',
        description:
          'Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'An empty preferred scheduling term matches all objects with implicit weight 0 (i.e.',
    required: ['weight'],
  },
  Probe: {
    type: 'object',
    properties: {
      exec: {
        ref: 'ExecAction',
        proto: 1,
        protoInline: 1,
        protoPointer: true,
      },
      failureThreshold: {
        type: 'integer',
        format: 'int32',
        description:
          'Minimum consecutive failures for the probe to be considered failed after having succeeded.',
        proto: 6,
      },
      grpc: {
        ref: 'GRPCAction',
        proto: 4,
        protoInline: 1,
        protoPointer: true,
      },
      httpGet: {
        ref: 'HTTPGetAction',
        proto: 2,
        protoInline: 1,
        protoPointer: true,
      },
      initialDelaySeconds: {
        type: 'integer',
        format: 'int32',
        description:
          'Number of seconds after the container has started before liveness probes are initiated.',
        proto: 2,
      },
      periodSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'How often (in seconds) to perform the probe.',
        proto: 4,
      },
      successThreshold: {
        type: 'integer',
        format: 'int32',
        description:
          'Minimum consecutive successes for the probe to be considered successful after having failed.',
        proto: 5,
      },
      tcpSocket: {
        ref: 'TCPSocketAction',
        proto: 3,
        protoInline: 1,
        protoPointer: true,
      },
      terminationGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'Optional duration in seconds the pod needs to terminate gracefully upon probe failure.',
        proto: 7,
        protoPointer: true,
      },
      timeoutSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'Number of seconds after which the probe times out.',
        proto: 3,
      },
    },
    description:
      'Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.',
  },
  ProjectedVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description: 'defaultMode are the mode bits used to set permissions on created files by default.',
        proto: 2,
        protoPointer: true,
      },
      sources: {
        type: 'array',
        items: {
          ref: 'VolumeProjection',
        },
        description: 'sources is the list of volume projections.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Represents a projected volume source',
  },
  QuobyteVolumeSource: {
    type: 'object',
    properties: {
      group: {
        type: 'string',
        description: 'group to map volume access to Default is no group',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly here will force the Quobyte volume to be mounted with read-only permissions.',
        proto: 3,
      },
      registry: {
        type: 'string',
        description:
          'registry represents a single or multiple Quobyte Registry services specified as a string as host:port pair (multiple entries are separated with commas) which acts as the central registry for volumes',
        proto: 1,
        protoKeepZero: true,
      },
      tenant: {
        type: 'string',
        description:
          'tenant owning the given Quobyte volume in the Backend Used with dynamically provisioned Quobyte volumes, value is set by the plugin',
        proto: 6,
      },
      user: {
        type: 'string',
        description: 'user to map volume access to Defaults to serivceaccount user',
        proto: 4,
      },
      volume: {
        type: 'string',
        description: 'volume is a string that references an already created Quobyte volume by name.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Represents a Quobyte mount that lasts the lifetime of a pod.',
    required: ['registry', 'volume'],
  },
  RBDVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type of the volume that you want to mount.',
        proto: 3,
      },
      image: {
        type: 'string',
        description: 'image is the rados image name.',
        proto: 2,
        protoKeepZero: true,
      },
      keyring: {
        type: 'string',
        description: 'keyring is the path to key ring for RBDUser.',
        proto: 6,
      },
      monitors: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'monitors is a collection of Ceph monitors.',
        listType: 'atomic',
        proto: 1,
      },
      pool: {
        type: 'string',
        description: 'pool is the rados pool name.',
        proto: 4,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly here will force the ReadOnly setting in VolumeMounts.',
        proto: 8,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 7,
        protoPointer: true,
      },
      user: {
        type: 'string',
        description: 'user is the rados user name.',
        proto: 5,
      },
    },
    description: 'Represents a Rados Block Device mount that lasts the lifetime of a pod.',
    required: ['image', 'monitors'],
  },
  ResourceFieldSelector: {
    type: 'object',
    properties: {
      containerName: {
        type: 'string',
        description: 'Container name: required for volumes, optional for env vars',
        proto: 1,
      },
      divisor: {
        intOrString: true,
        goType: 'resource.Quantity',
        description: 'Specifies the output format of the exposed resources, defaults to "1"',
        proto: 3,
      },
      resource: {
        type: 'string',
        description: 'Required: resource to select',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'ResourceFieldSelector represents container resources (cpu, memory) and their output format',
    required: ['resource'],
  },
  ResourceRequirements: {
    type: 'object',
    properties: {
      claims: {
        type: 'array',
        items: {
          ref: 'V1ResourceClaim',
        },
        description:
          'Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 3,
      },
      limits: {
        type: 'object',
        additionalProperties: {
          intOrString: true,
          goType: 'resource.Quantity',
        },
        description: 'Limits describes the maximum amount of compute resources allowed.',
        proto: 1,
      },
      requests: {
        type: 'object',
        additionalProperties: {
          intOrString: true,
          goType: 'resource.Quantity',
        },
        description: 'Requests describes the minimum amount of compute resources required.',
        proto: 2,
      },
    },
    description: 'ResourceRequirements describes the compute resource requirements.',
  },
  SELinuxOptions: {
    type: 'object',
    properties: {
      level: {
        type: 'string',
        description: 'Level is SELinux level label that applies to the container.',
        proto: 4,
      },
      role: {
        type: 'string',
        description: 'Role is a SELinux role label that applies to the container.',
        proto: 2,
      },
      type: {
        type: 'string',
        description: 'Type is a SELinux type label that applies to the container.',
        proto: 3,
      },
      user: {
        type: 'string',
        description: 'User is a SELinux user label that applies to the container.',
        proto: 1,
      },
    },
    description: 'SELinuxOptions are the labels to be applied to the container',
  },
  ScaleIOVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 9,
      },
      gateway: {
        type: 'string',
        description: 'gateway is the host address of the ScaleIO API Gateway.',
        proto: 1,
        protoKeepZero: true,
      },
      protectionDomain: {
        type: 'string',
        description:
          'protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly Defaults to false (read/write).',
        proto: 10,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 3,
        protoPointer: true,
      },
      sslEnabled: {
        type: 'boolean',
        description: 'sslEnabled Flag enable/disable SSL communication with Gateway, default false',
        proto: 4,
      },
      storageMode: {
        type: 'string',
        description:
          'storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned.',
        proto: 7,
      },
      storagePool: {
        type: 'string',
        description: 'storagePool is the ScaleIO Storage Pool associated with the protection domain.',
        proto: 6,
      },
      system: {
        type: 'string',
        description: 'system is the name of the storage system as configured in ScaleIO.',
        proto: 2,
        protoKeepZero: true,
      },
      volumeName: {
        type: 'string',
        description:
          'volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.',
        proto: 8,
      },
    },
    description: 'ScaleIOVolumeSource represents a persistent ScaleIO volume',
    required: ['gateway', 'system'],
  },
  SeccompProfile: {
    type: 'object',
    properties: {
      localhostProfile: {
        type: 'string',
        description: 'localhostProfile indicates a profile defined in a file on the node should be used.',
        proto: 2,
        protoPointer: true,
      },
      type: {
        type: 'string',
        description: 'type indicates which kind of seccomp profile will be applied.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: "SeccompProfile defines a pod/container's seccomp profile settings.",
    required: ['type'],
  },
  SecretEnvSource: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Specify whether the Secret must be defined',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'SecretEnvSource selects a Secret to populate the environment variables with.',
  },
  SecretKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'The key of the secret to select from.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Specify whether the Secret or its key must be defined',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'SecretKeySelector selects a key of a Secret.',
    required: ['key'],
  },
  SecretProjection: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          'items if unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value.',
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'Name of the referent.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'optional field specify whether the Secret or its key must be defined',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Adapts a secret into a projected volume.',
  },
  SecretVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description:
          'defaultMode is Optional: mode bits used to set permissions on created files by default.',
        proto: 3,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          'items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value.',
        listType: 'atomic',
        proto: 2,
      },
      optional: {
        type: 'boolean',
        description: 'optional field specify whether the Secret or its keys must be defined',
        proto: 4,
        protoPointer: true,
      },
      secretName: {
        type: 'string',
        description: "secretName is the name of the secret in the pod's namespace to use.",
        proto: 1,
      },
    },
    description: 'Adapts a Secret into a volume.',
  },
  SecurityContext: {
    type: 'object',
    properties: {
      allowPrivilegeEscalation: {
        type: 'boolean',
        description:
          'AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process.',
        proto: 7,
        protoPointer: true,
      },
      appArmorProfile: {
        ref: 'AppArmorProfile',
        proto: 12,
        protoPointer: true,
      },
      capabilities: {
        ref: 'Capabilities',
        proto: 1,
        protoPointer: true,
      },
      privileged: {
        type: 'boolean',
        description: 'Run container in privileged mode.',
        proto: 2,
        protoPointer: true,
      },
      procMount: {
        type: 'string',
        description: 'procMount denotes the type of proc mount to use for the containers.',
        proto: 9,
        protoPointer: true,
      },
      readOnlyRootFilesystem: {
        type: 'boolean',
        description: 'Whether this container has a read-only root filesystem.',
        proto: 6,
        protoPointer: true,
      },
      runAsGroup: {
        type: 'integer',
        format: 'int64',
        description: 'The GID to run the entrypoint of the container process.',
        proto: 8,
        protoPointer: true,
      },
      runAsNonRoot: {
        type: 'boolean',
        description: 'Indicates that the container must run as a non-root user.',
        proto: 5,
        protoPointer: true,
      },
      runAsUser: {
        type: 'integer',
        format: 'int64',
        description: 'The UID to run the entrypoint of the container process.',
        proto: 4,
        protoPointer: true,
      },
      seLinuxOptions: {
        ref: 'SELinuxOptions',
        proto: 3,
        protoPointer: true,
      },
      seccompProfile: {
        ref: 'SeccompProfile',
        proto: 11,
        protoPointer: true,
      },
      windowsOptions: {
        ref: 'WindowsSecurityContextOptions',
        proto: 10,
        protoPointer: true,
      },
    },
    description: 'SecurityContext holds security configuration that will be applied to a container.',
  },
  ServiceAccountTokenProjection: {
    type: 'object',
    properties: {
      audience: {
        type: 'string',
        description: 'audience is the intended audience of the token.',
        proto: 1,
      },
      expirationSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'expirationSeconds is the requested duration of validity of the service account token.',
        proto: 2,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'path is the path relative to the mount point of the file to project the token into.',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description: 'ServiceAccountTokenProjection represents a projected service account token volume.',
    required: ['path'],
  },
  SleepAction: {
    type: 'object',
    properties: {
      seconds: {
        type: 'integer',
        format: 'int64',
        description: 'Seconds is the number of seconds to sleep.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'SleepAction describes a "sleep" action.',
    required: ['seconds'],
  },
  StorageOSVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is the filesystem type to mount.',
        proto: 3,
      },
      readOnly: {
        type: 'boolean',
        description: 'readOnly defaults to false (read/write).',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 5,
        protoPointer: true,
      },
      volumeName: {
        type: 'string',
        description: 'volumeName is the human-readable name of the StorageOS volume.',
        proto: 1,
      },
      volumeNamespace: {
        type: 'string',
        description: 'volumeNamespace specifies the scope of the volume within StorageOS.',
        proto: 2,
      },
    },
    description: 'Represents a StorageOS persistent volume resource.',
  },
  Sysctl: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Name of a property to set',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description: 'Value of a property to set',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Sysctl defines a kernel parameter to be set',
    required: ['name', 'value'],
  },
  TCPSocketAction: {
    type: 'object',
    properties: {
      host: {
        type: 'string',
        description: 'Optional: Host name to connect to, defaults to the pod IP.',
        proto: 2,
      },
      port: {
        intOrString: true,
        description: 'IntOrString is a type that can hold an int32 or a string.',
        proto: 1,
      },
    },
    description: 'TCPSocketAction describes an action based on opening a socket',
    required: ['port'],
  },
  Toleration: {
    type: 'object',
    properties: {
      effect: {
        type: 'string',
        description: 'Effect indicates the taint effect to match.',
        proto: 4,
      },
      key: {
        type: 'string',
        description: 'Key is the taint key that the toleration applies to.',
        proto: 1,
      },
      operator: {
        type: 'string',
        description: "Operator represents a key's relationship to the value.",
        proto: 2,
      },
      tolerationSeconds: {
        type: 'integer',
        format: 'int64',
        description:
          'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint.',
        proto: 5,
        protoPointer: true,
      },
      value: {
        type: 'string',
        description: 'Value is the taint value the toleration matches to.',
        proto: 3,
      },
    },
    description:
      'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.',
  },
  TopologySpreadConstraint: {
    type: 'object',
    properties: {
      labelSelector: {
        ref: 'LabelSelector',
        proto: 4,
        protoPointer: true,
      },
      matchLabelKeys: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated.',
        listType: 'atomic',
        proto: 8,
      },
      maxSkew: {
        type: 'integer',
        format: 'int32',
        description: 'MaxSkew describes the degree to which pods may be unevenly distributed.',
        proto: 1,
        protoKeepZero: true,
      },
      minDomains: {
        type: 'integer',
        format: 'int32',
        description: 'MinDomains indicates a minimum number of eligible domains.',
        proto: 5,
        protoPointer: true,
      },
      nodeAffinityPolicy: {
        type: 'string',
        description:
          "NodeAffinityPolicy indicates how we will treat Pod's nodeAffinity/nodeSelector when calculating pod topology spread skew.",
        proto: 6,
        protoPointer: true,
      },
      nodeTaintsPolicy: {
        type: 'string',
        description:
          'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew.',
        proto: 7,
        protoPointer: true,
      },
      topologyKey: {
        type: 'string',
        description: 'TopologyKey is the key of node labels.',
        proto: 2,
        protoKeepZero: true,
      },
      whenUnsatisfiable: {
        type: 'string',
        description:
          "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint.",
        proto: 3,
        protoKeepZero: true,
      },
    },
    description: 'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
    required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
  },
  TypedLocalObjectReference: {
    type: 'object',
    properties: {
      apiGroup: {
        type: 'string',
        description: 'APIGroup is the group for the resource being referenced.',
        proto: 1,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description: 'Kind is the type of resource being referenced',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'Name is the name of resource being referenced',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description:
      'TypedLocalObjectReference contains enough information to let you locate the typed referenced object inside the same namespace.',
    required: ['kind', 'name'],
  },
  TypedObjectReference: {
    type: 'object',
    properties: {
      apiGroup: {
        type: 'string',
        description: 'APIGroup is the group for the resource being referenced.',
        proto: 1,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description: 'Kind is the type of resource being referenced',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'Name is the name of resource being referenced',
        proto: 3,
        protoKeepZero: true,
      },
      namespace: {
        type: 'string',
        proto: 4,
        protoPointer: true,
      },
    },
    description:
      'TypedObjectReference contains enough information to let you locate the typed referenced object',
    required: ['kind', 'name'],
  },
  V1ResourceClaim: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description:
          'Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used.',
        proto: 1,
        protoKeepZero: true,
      },
      request: {
        type: 'string',
        description: 'Request is the name chosen for a request in the referenced claim.',
        proto: 2,
      },
    },
    description: 'ResourceClaim references one entry in PodSpec.ResourceClaims.',
    required: ['name'],
  },
  Volume: {
    type: 'object',
    properties: {
      awsElasticBlockStore: {
        ref: 'AWSElasticBlockStoreVolumeSource',
        proto: 4,
        protoInline: 2,
        protoPointer: true,
      },
      azureDisk: {
        ref: 'AzureDiskVolumeSource',
        proto: 22,
        protoInline: 2,
        protoPointer: true,
      },
      azureFile: {
        ref: 'AzureFileVolumeSource',
        proto: 18,
        protoInline: 2,
        protoPointer: true,
      },
      cephfs: {
        ref: 'CephFSVolumeSource',
        proto: 14,
        protoInline: 2,
        protoPointer: true,
      },
      cinder: {
        ref: 'CinderVolumeSource',
        proto: 13,
        protoInline: 2,
        protoPointer: true,
      },
      configMap: {
        ref: 'ConfigMapVolumeSource',
        proto: 19,
        protoInline: 2,
        protoPointer: true,
      },
      csi: {
        ref: 'CSIVolumeSource',
        proto: 28,
        protoInline: 2,
        protoPointer: true,
      },
      downwardAPI: {
        ref: 'DownwardAPIVolumeSource',
        proto: 16,
        protoInline: 2,
        protoPointer: true,
      },
      emptyDir: {
        ref: 'EmptyDirVolumeSource',
        proto: 2,
        protoInline: 2,
        protoPointer: true,
      },
      ephemeral: {
        ref: 'EphemeralVolumeSource',
        proto: 29,
        protoInline: 2,
        protoPointer: true,
      },
      fc: {
        ref: 'FCVolumeSource',
        proto: 17,
        protoInline: 2,
        protoPointer: true,
      },
      flexVolume: {
        ref: 'FlexVolumeSource',
        proto: 12,
        protoInline: 2,
        protoPointer: true,
      },
      flocker: {
        ref: 'FlockerVolumeSource',
        proto: 15,
        protoInline: 2,
        protoPointer: true,
      },
      gcePersistentDisk: {
        ref: 'GCEPersistentDiskVolumeSource',
        proto: 3,
        protoInline: 2,
        protoPointer: true,
      },
      gitRepo: {
        ref: 'GitRepoVolumeSource',
        proto: 5,
        protoInline: 2,
        protoPointer: true,
      },
      glusterfs: {
        ref: 'GlusterfsVolumeSource',
        proto: 9,
        protoInline: 2,
        protoPointer: true,
      },
      hostPath: {
        ref: 'HostPathVolumeSource',
        proto: 1,
        protoInline: 2,
        protoPointer: true,
      },
      image: {
        ref: 'ImageVolumeSource',
        proto: 30,
        protoInline: 2,
        protoPointer: true,
      },
      iscsi: {
        ref: 'ISCSIVolumeSource',
        proto: 8,
        protoInline: 2,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'name of the volume.',
        proto: 1,
        protoKeepZero: true,
      },
      nfs: {
        ref: 'NFSVolumeSource',
        proto: 7,
        protoInline: 2,
        protoPointer: true,
      },
      persistentVolumeClaim: {
        ref: 'PersistentVolumeClaimVolumeSource',
        proto: 10,
        protoInline: 2,
        protoPointer: true,
      },
      photonPersistentDisk: {
        ref: 'PhotonPersistentDiskVolumeSource',
        proto: 23,
        protoInline: 2,
        protoPointer: true,
      },
      portworxVolume: {
        ref: 'PortworxVolumeSource',
        proto: 24,
        protoInline: 2,
        protoPointer: true,
      },
      projected: {
        ref: 'ProjectedVolumeSource',
        proto: 26,
        protoInline: 2,
        protoPointer: true,
      },
      quobyte: {
        ref: 'QuobyteVolumeSource',
        proto: 21,
        protoInline: 2,
        protoPointer: true,
      },
      rbd: {
        ref: 'RBDVolumeSource',
        proto: 11,
        protoInline: 2,
        protoPointer: true,
      },
      scaleIO: {
        ref: 'ScaleIOVolumeSource',
        proto: 25,
        protoInline: 2,
        protoPointer: true,
      },
      secret: {
        ref: 'SecretVolumeSource',
        proto: 6,
        protoInline: 2,
        protoPointer: true,
      },
      storageos: {
        ref: 'StorageOSVolumeSource',
        proto: 27,
        protoInline: 2,
        protoPointer: true,
      },
      vsphereVolume: {
        ref: 'VsphereVirtualDiskVolumeSource',
        proto: 20,
        protoInline: 2,
        protoPointer: true,
      },
    },
    description:
      'Volume represents a named volume in a pod that may be accessed by any container in the pod.',
    required: ['name'],
  },
  VolumeDevice: {
    type: 'object',
    properties: {
      devicePath: {
        type: 'string',
        description: 'devicePath is the path inside of the container that the device will be mapped to.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'name must match the name of a persistentVolumeClaim in the pod',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'volumeDevice describes a mapping of a raw block device within a container.',
    required: ['devicePath', 'name'],
  },
  VolumeMount: {
    type: 'object',
    properties: {
      mountPath: {
        type: 'string',
        description: 'Path within the container at which the volume should be mounted.',
        proto: 3,
        protoKeepZero: true,
      },
      mountPropagation: {
        type: 'string',
        description:
          'mountPropagation determines how mounts are propagated from the host to container and the other way around.',
        proto: 5,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'This must match the Name of a Volume.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mounted read-only if true, read-write otherwise (false or unspecified).',
        proto: 2,
      },
      recursiveReadOnly: {
        type: 'string',
        description: 'RecursiveReadOnly specifies whether read-only mounts should be handled recursively.',
        proto: 7,
        protoPointer: true,
      },
      subPath: {
        type: 'string',
        description: "Path within the volume from which the container's volume should be mounted.",
        proto: 4,
      },
      subPathExpr: {
        type: 'string',
        description: "Expanded path within the volume from which the container's volume should be mounted.",
        proto: 6,
      },
    },
    description: 'VolumeMount describes a mounting of a Volume within a container.',
    required: ['mountPath', 'name'],
  },
  VolumeProjection: {
    type: 'object',
    properties: {
      clusterTrustBundle: {
        ref: 'ClusterTrustBundleProjection',
        proto: 5,
        protoPointer: true,
      },
      configMap: {
        ref: 'ConfigMapProjection',
        proto: 3,
        protoPointer: true,
      },
      downwardAPI: {
        ref: 'DownwardAPIProjection',
        proto: 2,
        protoPointer: true,
      },
      podCertificate: {
        ref: 'PodCertificateProjection',
        proto: 6,
        protoPointer: true,
      },
      secret: {
        ref: 'SecretProjection',
        proto: 1,
        protoPointer: true,
      },
      serviceAccountToken: {
        ref: 'ServiceAccountTokenProjection',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Projection that may be projected along with other supported volume types.',
  },
  VolumeResourceRequirements: {
    type: 'object',
    properties: {
      limits: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Limits describes the maximum amount of compute resources allowed.',
        proto: 1,
      },
      requests: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Requests describes the minimum amount of compute resources required.',
        proto: 2,
      },
    },
    description: 'VolumeResourceRequirements describes the storage resource requirements for a volume.',
  },
  VsphereVirtualDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'fsType is filesystem type to mount.',
        proto: 2,
      },
      storagePolicyID: {
        type: 'string',
        description:
          'storagePolicyID is the storage Policy Based Management (SPBM) profile ID associated with the StoragePolicyName.',
        proto: 4,
      },
      storagePolicyName: {
        type: 'string',
        description: 'storagePolicyName is the storage Policy Based Management (SPBM) profile name.',
        proto: 3,
      },
      volumePath: {
        type: 'string',
        description: 'volumePath is the path that identifies vSphere volume vmdk',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Represents a vSphere volume resource.',
    required: ['volumePath'],
  },
  WeightedPodAffinityTerm: {
    type: 'object',
    properties: {
      podAffinityTerm: {
        ref: 'PodAffinityTerm',
        proto: 2,
      },
      weight: {
        type: 'integer',
        format: 'int32',
        description: 'weight associated with matching the corresponding podAffinityTerm, in the range 1-100.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description:
      'The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)',
    required: ['weight'],
  },
  WindowsSecurityContextOptions: {
    type: 'object',
    properties: {
      gmsaCredentialSpec: {
        type: 'string',
        proto: 2,
        protoPointer: true,
      },
      gmsaCredentialSpecName: {
        type: 'string',
        description: 'GMSACredentialSpecName is the name of the GMSA credential spec to use.',
        proto: 1,
        protoPointer: true,
      },
      hostProcess: {
        type: 'boolean',
        description: "HostProcess determines if a container should be run as a 'Host Process' container.",
        proto: 4,
        protoPointer: true,
      },
      runAsUserName: {
        type: 'string',
        description: 'The UserName in Windows to run the entrypoint of the container process.',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'WindowsSecurityContextOptions contain Windows-specific options and credentials.',
  },
});
