// The pod template as core/v1 declares it: every definition a PodTemplateSpec reaches, with the
// list semantics strategic merge patch and server-side apply need (merge keys, patch strategies,
// list types). Descriptions are our own words for upstream's facts. Declared as data, not code:
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
        description: 'Filesystem type of the volume to mount.',
        proto: 2,
      },
      partition: {
        type: 'integer',
        format: 'int32',
        description: 'Which partition of the volume to mount.',
        proto: 3,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the volume mounts are forced to read-only.',
        proto: 4,
      },
      volumeID: {
        type: 'string',
        description: 'Unique ID of the Amazon EBS volume (the persistent disk resource in AWS).',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A persistent disk in AWS (an EBS volume) mounted into the pod.',
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
    description: 'Scheduling rules for node affinity, pod affinity and pod anti-affinity.',
  },
  AppArmorProfile: {
    type: 'object',
    properties: {
      localhostProfile: {
        type: 'string',
        description: 'Profile already loaded on the node to use.',
        proto: 2,
        protoPointer: true,
      },
      type: {
        type: 'string',
        description: 'Which kind of AppArmor profile applies.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'AppArmor settings for a pod or a container.',
    required: ['type'],
  },
  AzureDiskVolumeSource: {
    type: 'object',
    properties: {
      cachingMode: {
        type: 'string',
        description: 'Host caching mode: None, Read Only or Read Write.',
        proto: 3,
        protoPointer: true,
      },
      diskName: {
        type: 'string',
        description: 'Name of the data disk in blob storage.',
        proto: 1,
        protoKeepZero: true,
      },
      diskURI: {
        type: 'string',
        description: 'URI of the data disk in blob storage.',
        proto: 2,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 4,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description:
          'Expected values: Shared (several blob disks per storage account), Dedicated (one blob disk per storage account) or Managed (an Azure managed data disk, only in a managed availability set).',
        proto: 6,
        protoPointer: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; defaults to false (read/write).',
        proto: 5,
        protoPointer: true,
      },
    },
    description: 'An Azure data disk mounted on the host and bind-mounted into the pod.',
    required: ['diskName', 'diskURI'],
  },
  AzureFileVolumeSource: {
    type: 'object',
    properties: {
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; defaults to false (read/write).',
        proto: 3,
      },
      secretName: {
        type: 'string',
        description: 'Name of the secret holding the Azure Storage account name and key.',
        proto: 1,
        protoKeepZero: true,
      },
      shareName: {
        type: 'string',
        description: 'Name of the Azure file share.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'An Azure File Service share mounted on the host and bind-mounted into the pod.',
    required: ['secretName', 'shareName'],
  },
  CSIVolumeSource: {
    type: 'object',
    properties: {
      driver: {
        type: 'string',
        description: 'Name of the CSI driver that serves this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
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
        description: 'Asks for a read-only volume when true.',
        proto: 2,
        protoPointer: true,
      },
      volumeAttributes: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Driver-specific properties handed to the CSI driver.',
        proto: 4,
      },
    },
    description: 'Where to find a volume that an external CSI driver manages and mounts.',
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
        description: 'Capabilities to add.',
        listType: 'atomic',
        proto: 1,
      },
      drop: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Capabilities to remove.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description: 'POSIX capabilities to add to or remove from running containers.',
  },
  CephFSVolumeSource: {
    type: 'object',
    properties: {
      monitors: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Required: the Ceph monitors to contact.',
        listType: 'atomic',
        proto: 1,
      },
      path: {
        type: 'string',
        description:
          'Optional: directory used as the root of the mount instead of the whole Ceph tree; defaults to /.',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'Optional: mount read-only when true; defaults to false (read/write).',
        proto: 6,
      },
      secretFile: {
        type: 'string',
        description:
          'Optional: path to the key ring for the user; when unset, it defaults to /etc/ceph/user.secret.',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 5,
        protoPointer: true,
      },
      user: {
        type: 'string',
        description: 'Optional: rados user name; defaults to admin.',
        proto: 3,
      },
    },
    description:
      'A Ceph filesystem mount that lives as long as the pod; CephFS volumes support neither ownership management nor SELinux relabeling.',
    required: ['monitors'],
  },
  CinderVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; defaults to false (read/write).',
        proto: 3,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 4,
        protoPointer: true,
      },
      volumeID: {
        type: 'string',
        description: 'ID that identifies the volume in Cinder.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A Cinder volume in OpenStack.',
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
        description: 'Picks one ClusterTrustBundle by its object name.',
        proto: 1,
        protoPointer: true,
      },
      optional: {
        type: 'boolean',
        description:
          'When true, pod startup goes ahead even if the referenced ClusterTrustBundles are missing.',
        proto: 5,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Path, relative to the volume root, where the bundle is written.',
        proto: 4,
        protoKeepZero: true,
      },
      signerName: {
        type: 'string',
        description: 'Picks every ClusterTrustBundle with this signer name.',
        proto: 2,
        protoPointer: true,
      },
    },
    description:
      'Which ClusterTrustBundle objects to pick and how their contents land in the pod filesystem.',
    required: ['path'],
  },
  ConfigMapEnvSource: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'The referenced object, given by its name.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the ConfigMap has to exist.',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'A ConfigMap whose entries become environment variables.',
  },
  ConfigMapKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'ConfigMap key to pick.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'The referenced object, given by its name.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the ConfigMap or its key has to exist.',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Picks one key of a ConfigMap.',
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
          'When empty, every key-value pair in the ConfigMap Data field becomes a file in the volume, named after the key and holding the value.',
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'The referenced object, given by its name.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the ConfigMap or its keys have to exist.',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Turns a ConfigMap into part of a projected volume.',
  },
  ConfigMapVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description:
          'Optional: permission mode bits applied by default to the files that get created in the volume.',
        proto: 3,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          'When empty, every key-value pair in the ConfigMap Data field becomes a file in the volume, named after the key and holding the value.',
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'The referenced object, given by its name.',
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the ConfigMap or its keys have to exist.',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Turns a ConfigMap into a volume.',
  },
  Container: {
    type: 'object',
    properties: {
      args: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Arguments passed to the entrypoint.',
        listType: 'atomic',
        proto: 4,
      },
      command: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Entrypoint to run, as an array.',
        listType: 'atomic',
        proto: 3,
      },
      env: {
        type: 'array',
        items: {
          ref: 'EnvVar',
        },
        description: 'Environment variables set in the container.',
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
        description: 'Sources whose entries become environment variables in the container.',
        listType: 'atomic',
        proto: 19,
      },
      image: {
        type: 'string',
        description: 'Name of the container image.',
        proto: 2,
      },
      imagePullPolicy: {
        type: 'string',
        description: 'When to pull the image.',
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
        description: 'Container name, as a DNS_LABEL.',
        proto: 1,
        protoKeepZero: true,
      },
      ports: {
        type: 'array',
        items: {
          ref: 'ContainerPort',
        },
        description: 'Network ports the container exposes.',
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
        description: 'How each resource of the container is resized.',
        listType: 'atomic',
        proto: 23,
      },
      resources: {
        ref: 'ResourceRequirements',
        proto: 8,
      },
      restartPolicy: {
        type: 'string',
        description: 'Restart behavior of this one container within the pod.',
        proto: 24,
        protoPointer: true,
      },
      restartPolicyRules: {
        type: 'array',
        items: {
          ref: 'ContainerRestartRule',
        },
        description:
          'Rules that are checked when the container exits, deciding whether or not the container is restarted.',
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
        description: 'Whether the container runtime gives this container a stdin buffer.',
        proto: 16,
      },
      stdinOnce: {
        type: 'boolean',
        description:
          'Whether the container runtime closes the stdin channel as soon as a single attach has opened it.',
        proto: 17,
      },
      terminationMessagePath: {
        type: 'string',
        description:
          'Optional: where, in the container filesystem, the file receiving the termination message is mounted.',
        proto: 13,
      },
      terminationMessagePolicy: {
        type: 'string',
        description: 'How the termination message gets filled in.',
        proto: 20,
      },
      tty: {
        type: 'boolean',
        description:
          'Whether the container should get a TTY of its own; this also requires stdin to be set to true.',
        proto: 18,
      },
      volumeDevices: {
        type: 'array',
        items: {
          ref: 'VolumeDevice',
        },
        description: 'Block devices the container uses.',
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
        description: 'Pod volumes mounted into the container filesystem.',
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['mountPath'],
        proto: 9,
      },
      workingDir: {
        type: 'string',
        description: 'Working directory of the container.',
        proto: 5,
      },
    },
    description: 'One application container to run inside a pod.',
    required: ['name'],
  },
  ContainerPort: {
    type: 'object',
    properties: {
      containerPort: {
        type: 'integer',
        format: 'int32',
        description: 'Port number exposed on the pod IP address.',
        proto: 3,
        protoKeepZero: true,
      },
      hostIP: {
        type: 'string',
        description: 'Host IP that the external port binds to.',
        proto: 5,
      },
      hostPort: {
        type: 'integer',
        format: 'int32',
        description: 'Port number exposed on the host.',
        proto: 2,
      },
      name: {
        type: 'string',
        description: 'When set, an IANA_SVC_NAME that no other port in the pod uses.',
        proto: 1,
      },
      protocol: {
        type: 'string',
        description: 'Port protocol.',
        default: 'TCP',
        proto: 4,
      },
    },
    description: 'A network port of one container.',
    required: ['containerPort'],
  },
  ContainerResizePolicy: {
    type: 'object',
    properties: {
      resourceName: {
        type: 'string',
        description: 'Resource that this resize policy covers.',
        proto: 1,
        protoKeepZero: true,
      },
      restartPolicy: {
        type: 'string',
        description: 'Restart policy applied when the resource is resized.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'How one resource of a container is resized.',
    required: ['resourceName', 'restartPolicy'],
  },
  ContainerRestartRule: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        description: 'What happens when a container exits and the requirements hold.',
        proto: 1,
      },
      exitCodes: {
        ref: 'ContainerRestartRuleOnExitCodes',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'How to handle a container that has exited.',
    required: ['action'],
  },
  ContainerRestartRuleOnExitCodes: {
    type: 'object',
    properties: {
      operator: {
        type: 'string',
        description:
          'How the exit code(s) of the container relate to the values listed in this requirement, for the rule to match.',
        proto: 1,
      },
      values: {
        type: 'array',
        items: {
          type: 'integer',
          format: 'int32',
        },
        description: 'Set of values the container exit code is checked against.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description:
      'Condition for handling a container that has exited, expressed in terms of the exit codes it returned.',
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
        description: 'Downward API volume files.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Downward API data projected into a projected volume.',
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
          'Optional: permission mode bits for this file, an octal value from 0000 to 0777 or a decimal value from 0 to 511.',
        proto: 4,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Required: relative path name of the file to create.',
        proto: 1,
        protoKeepZero: true,
      },
      resourceFieldRef: {
        ref: 'ResourceFieldSelector',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'How to create a file holding a pod field.',
    required: ['path'],
  },
  DownwardAPIVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description: 'Optional: permission mode bits given by default to the files created.',
        proto: 2,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'DownwardAPIVolumeFile',
        },
        description: 'Downward API volume files.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'A volume holding downward API data.',
  },
  EmptyDirVolumeSource: {
    type: 'object',
    properties: {
      medium: {
        type: 'string',
        description: 'Kind of storage medium behind this directory.',
        proto: 1,
      },
      sizeLimit: {
        intOrString: true,
        goType: 'resource.Quantity',
        description: 'Total local storage this EmptyDir volume needs.',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'An empty directory for the pod.',
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
        description: 'Optional text put in front of every environment variable name.',
        proto: 1,
      },
      secretRef: {
        ref: 'SecretEnvSource',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Source of a set of ConfigMaps or Secrets.',
  },
  EnvVar: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Environment variable name.',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description:
          '$(VAR_NAME) references expand from environment variables defined earlier in the container and from service environment variables.',
        proto: 2,
      },
      valueFrom: {
        ref: 'EnvVarSource',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'One environment variable in a container.',
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
    description: 'Where the value of an environment variable comes from.',
  },
  EphemeralContainer: {
    type: 'object',
    properties: {
      args: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Arguments passed to the entrypoint.',
        listType: 'atomic',
        proto: 4,
        protoInline: 1,
      },
      command: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Entrypoint to run, as an array.',
        listType: 'atomic',
        proto: 3,
        protoInline: 1,
      },
      env: {
        type: 'array',
        items: {
          ref: 'EnvVar',
        },
        description: 'Environment variables set in the container.',
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
        description: 'Sources whose entries become environment variables in the container.',
        listType: 'atomic',
        proto: 19,
        protoInline: 1,
      },
      image: {
        type: 'string',
        description: 'Name of the container image.',
        proto: 2,
        protoInline: 1,
      },
      imagePullPolicy: {
        type: 'string',
        description: 'When to pull the image.',
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
        description: 'Ephemeral container name, as a DNS_LABEL.',
        proto: 1,
        protoInline: 1,
        protoKeepZero: true,
      },
      ports: {
        type: 'array',
        items: {
          ref: 'ContainerPort',
        },
        description: 'Not allowed for ephemeral containers.',
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
        description: 'How each resource of the container is resized.',
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
          'Container restart policy: it governs the restart behavior of each container within a pod, this one included.',
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
          'Rules that are checked when the container exits, deciding whether or not the container is restarted.',
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
        description: 'Whether the container runtime gives this container a stdin buffer.',
        proto: 16,
        protoInline: 1,
      },
      stdinOnce: {
        type: 'boolean',
        description:
          'Whether the container runtime closes the stdin channel as soon as a single attach has opened it.',
        proto: 17,
        protoInline: 1,
      },
      targetContainerName: {
        type: 'string',
        description: 'When set, the name of the PodSpec container this ephemeral container targets.',
        proto: 2,
      },
      terminationMessagePath: {
        type: 'string',
        description:
          'Optional: where, in the container filesystem, the file receiving the termination message is mounted.',
        proto: 13,
        protoInline: 1,
      },
      terminationMessagePolicy: {
        type: 'string',
        description: 'How the termination message gets filled in.',
        proto: 20,
        protoInline: 1,
      },
      tty: {
        type: 'boolean',
        description:
          'Whether the container should get a TTY of its own; this also requires stdin to be set to true.',
        proto: 18,
        protoInline: 1,
      },
      volumeDevices: {
        type: 'array',
        items: {
          ref: 'VolumeDevice',
        },
        description: 'Block devices the container uses.',
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
        description: 'Pod volumes mounted into the container filesystem.',
        patchMergeKey: 'mountPath',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['mountPath'],
        proto: 9,
        protoInline: 1,
      },
      workingDir: {
        type: 'string',
        description: 'Working directory of the container.',
        proto: 5,
        protoInline: 1,
      },
    },
    description:
      'A temporary container that can be added to an existing Pod for user-initiated work such as debugging.',
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
    description: 'An ephemeral volume served by an ordinary storage driver.',
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
          "Command line run inside the container, with the container's root ('/') as working directory.",
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Runs a command inside the container.',
  },
  FCVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 3,
      },
      lun: {
        type: 'integer',
        format: 'int32',
        description: 'Optional: FC target LUN number.',
        proto: 2,
        protoPointer: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'Optional: mount read-only when true; defaults to false (read/write).',
        proto: 4,
      },
      targetWWNs: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Optional: FC target worldwide names (WWNs).',
        listType: 'atomic',
        proto: 1,
      },
      wwids: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'Optional: FC volume worldwide identifiers (wwids); set either wwids or targetWWNs together with lun, never both.',
        listType: 'atomic',
        proto: 5,
      },
    },
    description: 'A Fibre Channel volume.',
  },
  FileKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'Which key of the env file to read.',
        proto: 3,
        protoKeepZero: true,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the file or its key has to exist.',
        proto: 4,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Location, inside the volume, of the file to pick.',
        proto: 2,
        protoKeepZero: true,
      },
      volumeName: {
        type: 'string',
        description: 'Name of the volume mount that holds the env file.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Picks one key of an env file.',
    required: ['key', 'path', 'volumeName'],
  },
  FlexVolumeSource: {
    type: 'object',
    properties: {
      driver: {
        type: 'string',
        description: 'Name of the driver used for this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 2,
      },
      options: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Optional: extra command options, if any.',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'Optional: mount read-only when true; defaults to false (read/write).',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 3,
        protoPointer: true,
      },
    },
    description:
      'A generic volume resource that an exec-based plugin provisions or attaches on the node for use by the pod.',
    required: ['driver'],
  },
  FlockerVolumeSource: {
    type: 'object',
    properties: {
      datasetName: {
        type: 'string',
        description:
          'Name of the dataset, stored as metadata name on the Flocker dataset; it should be treated as deprecated.',
        proto: 1,
      },
      datasetUUID: {
        type: 'string',
        description: 'UUID of the dataset.',
        proto: 2,
      },
    },
    description: 'A Flocker volume, mounted by the Flocker agent.',
  },
  GCEPersistentDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type of the volume to mount.',
        proto: 2,
      },
      partition: {
        type: 'integer',
        format: 'int32',
        description: 'Which partition of the volume to mount.',
        proto: 3,
      },
      pdName: {
        type: 'string',
        description: 'Unique name of the GCE persistent disk resource.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the volume mounts are forced to read-only.',
        proto: 4,
      },
    },
    description: 'A persistent disk in Google Compute Engine.',
    required: ['pdName'],
  },
  GRPCAction: {
    type: 'object',
    properties: {
      port: {
        type: 'integer',
        format: 'int32',
        description: 'Number of the port where the gRPC service listens.',
        proto: 1,
        protoKeepZero: true,
      },
      service: {
        type: 'string',
        description:
          'Name of the service placed in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'A probe action that calls a gRPC service.',
    required: ['port'],
  },
  GitRepoVolumeSource: {
    type: 'object',
    properties: {
      directory: {
        type: 'string',
        description: 'Name of the target directory.',
        proto: 3,
      },
      repository: {
        type: 'string',
        description: 'URL of the repository.',
        proto: 1,
        protoKeepZero: true,
      },
      revision: {
        type: 'string',
        description: 'Commit hash of the revision to use.',
        proto: 2,
      },
    },
    description: 'A volume filled with the contents of a git repository.',
    required: ['repository'],
  },
  GlusterfsVolumeSource: {
    type: 'object',
    properties: {
      endpoints: {
        type: 'string',
        description: 'Name of the endpoints object that describes the Glusterfs topology.',
        proto: 1,
        protoKeepZero: true,
      },
      path: {
        type: 'string',
        description: 'Glusterfs volume path.',
        proto: 2,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description:
          'Set to true to force the Glusterfs volume to be mounted into the pod with read-only permissions.',
        proto: 3,
      },
    },
    description: 'A Glusterfs mount that lives as long as the pod.',
    required: ['endpoints', 'path'],
  },
  HTTPGetAction: {
    type: 'object',
    properties: {
      host: {
        type: 'string',
        description: 'Host to connect to, by name; defaults to the pod IP.',
        proto: 3,
      },
      httpHeaders: {
        type: 'array',
        items: {
          ref: 'HTTPHeader',
        },
        description: 'Extra headers sent with the request.',
        listType: 'atomic',
        proto: 5,
      },
      path: {
        type: 'string',
        description: 'HTTP server path to request.',
        proto: 1,
      },
      port: {
        intOrString: true,
        description: 'Holds either an int32 or a string.',
        proto: 2,
      },
      scheme: {
        type: 'string',
        description: 'Connection scheme used to reach the host.',
        proto: 4,
      },
    },
    description: 'A probe action that sends an HTTP GET request.',
    required: ['port'],
  },
  HTTPHeader: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Header field name.',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description: 'Header field value.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'A custom header sent by HTTP probes.',
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
        description: 'Host names for that IP address.',
        listType: 'atomic',
        proto: 2,
      },
      ip: {
        type: 'string',
        description: 'Hosts file entry IP address.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description:
      "An IP address together with its host names, written as one entry into the pod's hosts file when it is created.",
    required: ['ip'],
  },
  HostPathVolumeSource: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'Directory path on the host.',
        proto: 1,
        protoKeepZero: true,
      },
      type: {
        type: 'string',
        description: 'HostPath volume type; defaults to "".',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'A path on the host, mapped into the pod.',
    required: ['path'],
  },
  ISCSIVolumeSource: {
    type: 'object',
    properties: {
      chapAuthDiscovery: {
        type: 'boolean',
        description: 'Whether iSCSI Discovery CHAP authentication is supported.',
        proto: 8,
      },
      chapAuthSession: {
        type: 'boolean',
        description: 'Whether iSCSI Session CHAP authentication is supported.',
        proto: 11,
      },
      fsType: {
        type: 'string',
        description: 'Filesystem type of the volume to mount.',
        proto: 5,
      },
      initiatorName: {
        type: 'string',
        description: 'Custom iSCSI initiator name.',
        proto: 12,
        protoPointer: true,
      },
      iqn: {
        type: 'string',
        description: 'iSCSI Qualified Name of the target.',
        proto: 2,
        protoKeepZero: true,
      },
      iscsiInterface: {
        type: 'string',
        description: 'Name of the interface that uses an iSCSI transport.',
        proto: 4,
      },
      lun: {
        type: 'integer',
        format: 'int32',
        description: 'iSCSI target LUN number.',
        proto: 3,
        protoKeepZero: true,
      },
      portals: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'iSCSI target portals.',
        listType: 'atomic',
        proto: 7,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the volume mounts are forced to read-only.',
        proto: 6,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 10,
        protoPointer: true,
      },
      targetPortal: {
        type: 'string',
        description: 'iSCSI target portal.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'An iSCSI disk.',
    required: ['iqn', 'lun', 'targetPortal'],
  },
  ImageVolumeSource: {
    type: 'object',
    properties: {
      pullPolicy: {
        type: 'string',
        description: 'When to pull the OCI object.',
        proto: 2,
      },
      reference: {
        type: 'string',
        description: 'Required: reference of the image or artifact to use.',
        proto: 1,
      },
    },
    description: 'A volume backed by an OCI image or artifact.',
  },
  KeyToPath: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'Which key to project.',
        proto: 1,
        protoKeepZero: true,
      },
      mode: {
        type: 'integer',
        format: 'int32',
        description: 'Optional: permission mode bits for this file.',
        proto: 3,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'Relative path of the file the key maps to.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Maps a string key to a path inside a volume.',
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
        description: 'Label selector requirements.',
        listType: 'atomic',
        proto: 2,
      },
      matchLabels: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Map of {key,value} pairs.',
        proto: 1,
      },
    },
    description: 'A label query over a set of resources.',
  },
  LabelSelectorRequirement: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'Label key the selector applies to.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description: 'How the key relates to a set of values.',
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Array of string values.',
        listType: 'atomic',
        proto: 3,
      },
    },
    description:
      'A label selector requirement: a selector holding a key, a set of values, and an operator relating the key to them.',
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
        description: 'Signal sent to the container when it is stopped.',
        proto: 3,
        protoPointer: true,
      },
    },
    description:
      'Actions that the management system carries out in response to lifecycle events of the container it belongs to.',
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
    description: 'One action to take in a lifecycle hook.',
  },
  LocalObjectReference: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'The referenced object, given by its name.',
        proto: 1,
      },
    },
    description:
      'Carries just enough information to locate the referenced object inside the same namespace as the referrer.',
  },
  NFSVolumeSource: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'Directory exported by the NFS server.',
        proto: 2,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the NFS export is mounted with read-only permissions.',
        proto: 3,
      },
      server: {
        type: 'string',
        description: 'Host name or IP address of the NFS server.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'An NFS mount that lives as long as the pod.',
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
          'The scheduler favours nodes that meet the affinity expressions listed here, but may still pick a node that breaks one or more of them.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        ref: 'NodeSelector',
        proto: 1,
        protoPointer: true,
      },
    },
    description: 'Scheduling rules for node affinity.',
  },
  NodeSelector: {
    type: 'object',
    properties: {
      nodeSelectorTerms: {
        type: 'array',
        items: {
          ref: 'NodeSelectorTerm',
        },
        description: 'Required list of node selector terms.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description:
      'The OR of one or more label queries over a set of nodes: a node matches when any of the node selector terms matches it.',
    required: ['nodeSelectorTerms'],
  },
  NodeSelectorRequirement: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'Label key the selector applies to.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description: 'How the key relates to a set of values.',
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Array of string values.',
        listType: 'atomic',
        proto: 3,
      },
    },
    description:
      'A node selector requirement: a selector holding a key, a set of values, and an operator relating the key to them.',
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
        description: 'Node selector requirements on node labels.',
        listType: 'atomic',
        proto: 1,
      },
      matchFields: {
        type: 'array',
        items: {
          ref: 'NodeSelectorRequirement',
        },
        description: 'Node selector requirements on node fields.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description: 'A term that matches no objects when null or empty.',
  },
  ObjectFieldSelector: {
    type: 'object',
    properties: {
      apiVersion: {
        type: 'string',
        description: 'Schema version the FieldPath is written against; defaults to "v1".',
        proto: 1,
      },
      fieldPath: {
        type: 'string',
        description: 'Path of the field to pick in the given API version.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Picks a field of an object in a given API version.',
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
        description: 'Access modes the volume should offer.',
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
        description: 'Name of the StorageClass the claim needs.',
        proto: 5,
        protoPointer: true,
      },
      volumeAttributesClassName: {
        type: 'string',
        description:
          'Name of a VolumeAttributesClass, when one is wanted: setting it picks the VolumeAttributesClass of this claim.',
        proto: 9,
        protoPointer: true,
      },
      volumeMode: {
        type: 'string',
        description: 'Type of volume the claim needs.',
        proto: 6,
        protoPointer: true,
      },
      volumeName: {
        type: 'string',
        description: 'Reference binding the claim to the PersistentVolume behind it.',
        proto: 3,
      },
    },
    description:
      'Common attributes of storage devices, leaving room for a Source that carries provider-specific attributes.',
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
      'Template from which PersistentVolumeClaim objects are produced as part of an EphemeralVolumeSource.',
  },
  PersistentVolumeClaimVolumeSource: {
    type: 'object',
    properties: {
      claimName: {
        type: 'string',
        description:
          'Name of a PersistentVolumeClaim that lives in the same namespace as the pod that uses this volume.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the volume mounts are forced to read-only.',
        proto: 2,
      },
    },
    description: "Refers to the user's PVC in the same namespace.",
    required: ['claimName'],
  },
  PhotonPersistentDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount on the Photon disk.',
        proto: 2,
      },
      pdID: {
        type: 'string',
        description: 'Identifier of the Photon Controller persistent disk.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A persistent disk managed by Photon Controller.',
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
          'Soft affinity rules: the scheduler favours nodes meeting these expressions but may still pick a node that breaks one or more of them.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'PodAffinityTerm',
        },
        description:
          'Hard affinity rules: when they cannot be met at scheduling time, the pod is not placed on the node.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Rules for placing this pod near other pods.',
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
        description: 'Pod label keys used to narrow which pods are considered.',
        listType: 'atomic',
        proto: 5,
      },
      mismatchLabelKeys: {
        type: 'array',
        items: {
          type: 'string',
        },
        description:
          'Pod label keys used to narrow which pods are considered, by excluding pods whose label values match.',
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
        description: 'Fixed list of namespace names this term covers.',
        listType: 'atomic',
        proto: 2,
      },
      topologyKey: {
        type: 'string',
        description:
          'Node label key that defines co-location: this pod goes (affinity) or avoids going (anti-affinity) onto nodes whose value for this key equals that of a node running one of the selected pods.',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description:
      'A set of pods, chosen by labelSelector within the given namespaces, that this pod must run next to (affinity) or away from (anti-affinity); nodes count as co-located when they share the value of the topologyKey label',
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
          'Soft anti-affinity rules: the scheduler favours nodes meeting these expressions but may still pick a node that breaks one or more of them.',
        listType: 'atomic',
        proto: 2,
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        type: 'array',
        items: {
          ref: 'PodAffinityTerm',
        },
        description:
          'Hard anti-affinity rules: when they cannot be met at scheduling time, the pod is not placed on the node.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'Rules for keeping this pod away from other pods.',
  },
  PodCertificateProjection: {
    type: 'object',
    properties: {
      certificateChainPath: {
        type: 'string',
        description: 'Path in the projected volume where the certificate chain is written.',
        proto: 6,
      },
      credentialBundlePath: {
        type: 'string',
        description: 'Path in the projected volume where the combined credential bundle is written.',
        proto: 4,
      },
      keyPath: {
        type: 'string',
        description: 'Path in the projected volume where the private key is written.',
        proto: 5,
      },
      keyType: {
        type: 'string',
        proto: 2,
      },
      maxExpirationSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'Longest lifetime allowed for the issued certificate.',
        proto: 3,
        protoPointer: true,
      },
      signerName: {
        type: 'string',
        proto: 1,
      },
    },
    description: "Places a private key and an X.509 certificate into the pod's filesystem.",
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
        description: 'IP addresses of DNS servers.',
        listType: 'atomic',
        proto: 1,
      },
      options: {
        type: 'array',
        items: {
          ref: 'PodDNSConfigOption',
        },
        description: 'Options passed to the DNS resolver.',
        listType: 'atomic',
        proto: 3,
      },
      searches: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Search domains used when looking up host names.',
        listType: 'atomic',
        proto: 2,
      },
    },
    description: 'Extra DNS settings for the pod, merged with those derived from dnsPolicy.',
  },
  PodDNSConfigOption: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Resolver option name.',
        proto: 1,
      },
      value: {
        type: 'string',
        description: 'Setting for the resolver option.',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'One DNS resolver option for the pod.',
  },
  PodOS: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Operating system name.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Operating system settings for the pod.',
    required: ['name'],
  },
  PodReadinessGate: {
    type: 'object',
    properties: {
      conditionType: {
        type: 'string',
        description: "Type of a condition in the pod's condition list to match.",
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Points at a pod condition that gates readiness',
    required: ['conditionType'],
  },
  PodResourceClaim: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Unique name of this resource claim within the pod.',
        proto: 1,
        protoKeepZero: true,
      },
      resourceClaimName: {
        type: 'string',
        description: "Name of a ResourceClaim in the pod's namespace.",
        proto: 3,
        protoPointer: true,
      },
      resourceClaimTemplateName: {
        type: 'string',
        description: "Name of a ResourceClaimTemplate in the pod's namespace.",
        proto: 4,
        protoPointer: true,
      },
    },
    description:
      'Refers to a single ResourceClaim, either by name or through a ResourceClaimTemplate from which a claim is created for the pod.',
    required: ['name'],
  },
  PodSchedulingGate: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Gate name.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A gate attached to a pod that holds back its scheduling.',
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
        description: 'Extra supplemental group applied to every container in the pod.',
        proto: 5,
        protoPointer: true,
      },
      fsGroupChangePolicy: {
        type: 'string',
        description:
          'How ownership and permissions of a volume are changed before it is exposed inside the pod.',
        proto: 9,
        protoPointer: true,
      },
      runAsGroup: {
        type: 'integer',
        format: 'int64',
        description: 'Group ID used to run the container process entrypoint.',
        proto: 6,
        protoPointer: true,
      },
      runAsNonRoot: {
        type: 'boolean',
        description: 'When set, the container is required to run as a user other than root.',
        proto: 3,
        protoPointer: true,
      },
      runAsUser: {
        type: 'integer',
        format: 'int64',
        description: 'User ID used to run the container process entrypoint.',
        proto: 2,
        protoPointer: true,
      },
      seLinuxChangePolicy: {
        type: 'string',
        description: "How the container's SELinux label is applied to every volume the pod uses.",
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
          "Groups added to the first process in each container, on top of the container's primary GID and fsGroup (when set).",
        listType: 'atomic',
        proto: 4,
      },
      supplementalGroupsPolicy: {
        type: 'string',
        description: "How the supplemental groups of each container's first process are computed.",
        proto: 12,
        protoPointer: true,
      },
      sysctls: {
        type: 'array',
        items: {
          ref: 'Sysctl',
        },
        description: 'Namespaced sysctls applied to the pod.',
        listType: 'atomic',
        proto: 7,
      },
      windowsOptions: {
        ref: 'WindowsSecurityContextOptions',
        proto: 8,
        protoPointer: true,
      },
    },
    description: 'Security attributes at pod level plus settings shared by all containers.',
  },
  PodSpec: {
    type: 'object',
    properties: {
      activeDeadlineSeconds: {
        type: 'integer',
        format: 'int64',
        description:
          'Optional number of seconds, counted from StartTime, that the pod may stay active on the node before the system marks it failed and kills its containers.',
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
        description: 'Whether a service account token is mounted automatically.',
        proto: 21,
        protoPointer: true,
      },
      containers: {
        type: 'array',
        items: {
          ref: 'Container',
        },
        description: 'Containers that make up the pod.',
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
        description: 'Policy that governs DNS for the pod.',
        proto: 6,
      },
      enableServiceLinks: {
        type: 'boolean',
        description:
          "Whether details about services are injected into the pod's environment variables, in the style of Docker links.",
        proto: 30,
        protoPointer: true,
      },
      ephemeralContainers: {
        type: 'array',
        items: {
          ref: 'EphemeralContainer',
        },
        description: 'Ephemeral containers running in this pod.',
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
        description: "Optional host and IP entries added to the pod's hosts file.",
        patchMergeKey: 'ip',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['ip'],
        proto: 23,
      },
      hostIPC: {
        type: 'boolean',
        description: "Whether the pod uses the host's IPC namespace.",
        proto: 13,
      },
      hostNetwork: {
        type: 'boolean',
        description: 'Whether the pod uses host networking.',
        proto: 11,
      },
      hostPID: {
        type: 'boolean',
        description: "Whether the pod uses the host's PID namespace.",
        proto: 12,
      },
      hostUsers: {
        type: 'boolean',
        description: "Whether the pod uses the host's user namespace.",
        proto: 37,
        protoPointer: true,
      },
      hostname: {
        type: 'string',
        description: 'Host name of the pod; when unset, a system-defined value is used.',
        proto: 16,
      },
      hostnameOverride: {
        type: 'string',
        description: 'Explicit host name the pod sees for itself, overriding the default.',
        proto: 41,
        protoPointer: true,
      },
      imagePullSecrets: {
        type: 'array',
        items: {
          ref: 'LocalObjectReference',
        },
        description: 'Optional references to secrets in the same namespace used to pull images for this pod.',
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
        description: 'Init containers that belong to the pod.',
        patchMergeKey: 'name',
        patchStrategy: 'merge',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 20,
      },
      nodeName: {
        type: 'string',
        description: 'Node the pod is scheduled to.',
        proto: 10,
      },
      nodeSelector: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Node labels that must all match for the pod to fit on a node.',
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
        description: 'Extra resources consumed by running the pod for a given RuntimeClass.',
        proto: 32,
      },
      preemptionPolicy: {
        type: 'string',
        description: 'Policy for preempting pods of lower priority.',
        proto: 31,
        protoPointer: true,
      },
      priority: {
        type: 'integer',
        format: 'int32',
        description: 'Numeric priority.',
        proto: 25,
        protoPointer: true,
      },
      priorityClassName: {
        type: 'string',
        description: 'Name of the priority class for the pod, when set.',
        proto: 24,
      },
      readinessGates: {
        type: 'array',
        items: {
          ref: 'PodReadinessGate',
        },
        description: 'When set, every readiness gate is evaluated to decide pod readiness.',
        listType: 'atomic',
        proto: 28,
      },
      resourceClaims: {
        type: 'array',
        items: {
          ref: 'PodResourceClaim',
        },
        description: 'ResourceClaims that must be allocated and reserved before the pod may start.',
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
        description: 'Policy for restarting every container in the pod.',
        proto: 3,
      },
      runtimeClassName: {
        type: 'string',
        proto: 29,
        protoPointer: true,
      },
      schedulerName: {
        type: 'string',
        description: 'Scheduler that dispatches the pod, when set.',
        proto: 19,
      },
      schedulingGates: {
        type: 'array',
        items: {
          ref: 'PodSchedulingGate',
        },
        description: 'Opaque values that, when present, block scheduling of the pod.',
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
        description: 'Deprecated alias of serviceAccountName.',
        proto: 9,
      },
      serviceAccountName: {
        type: 'string',
        description: 'Name of the ServiceAccount the pod runs as.',
        proto: 8,
      },
      setHostnameAsFQDN: {
        type: 'boolean',
        description: "When true, the pod's hostname is its FQDN instead of the leaf name (the default).",
        proto: 35,
        protoPointer: true,
      },
      shareProcessNamespace: {
        type: 'boolean',
        description: 'Whether all containers in the pod share one process namespace.',
        proto: 27,
        protoPointer: true,
      },
      subdomain: {
        type: 'string',
        description:
          'When set, the pod\'s fully qualified hostname becomes "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>".',
        proto: 17,
      },
      terminationGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'Optional number of seconds the pod is given to shut down gracefully.',
        proto: 4,
        protoPointer: true,
      },
      tolerations: {
        type: 'array',
        items: {
          ref: 'Toleration',
        },
        description: 'Tolerations of the pod, when set.',
        listType: 'atomic',
        proto: 22,
      },
      topologySpreadConstraints: {
        type: 'array',
        items: {
          ref: 'TopologySpreadConstraint',
        },
        description: 'How a group of pods should be spread over topology domains.',
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
        description: "Volumes that the pod's containers can mount.",
        patchMergeKey: 'name',
        patchStrategy: 'merge,retainKeys',
        listType: 'map',
        listMapKeys: ['name'],
        proto: 1,
      },
    },
    description: 'Desired contents and behaviour of a pod.',
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
    description: 'Desired data for pods created from this template',
  },
  PortworxVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount; the host operating system must support it.',
        proto: 2,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; false (read/write) by default.',
        proto: 3,
      },
      volumeID: {
        type: 'string',
        description: 'Unique identifier of the Portworx volume',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A Portworx volume.',
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
        description: 'Weight, from 1 to 100, given to matching the paired nodeSelectorTerm.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description:
      'An empty preferred term matches every object with an implicit weight of 0, making it a no-op.',
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
        description: 'Consecutive failures needed, after a success, for the probe to count as failed.',
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
        description: 'Seconds to wait after the container starts before liveness probes begin.',
        proto: 2,
      },
      periodSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'Interval, in seconds, between probe runs.',
        proto: 4,
      },
      successThreshold: {
        type: 'integer',
        format: 'int32',
        description: 'Consecutive successes needed, after a failure, for the probe to count as successful.',
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
        description:
          'Optional number of seconds the pod is given to shut down gracefully after a probe failure.',
        proto: 7,
        protoPointer: true,
      },
      timeoutSeconds: {
        type: 'integer',
        format: 'int32',
        description: 'Seconds after which the probe gives up.',
        proto: 3,
      },
    },
    description: 'A health check run against a container to tell whether it is alive or ready for traffic.',
  },
  ProjectedVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description: 'Permission bits applied by default to created files.',
        proto: 2,
        protoPointer: true,
      },
      sources: {
        type: 'array',
        items: {
          ref: 'VolumeProjection',
        },
        description: 'Volume projections to combine.',
        listType: 'atomic',
        proto: 1,
      },
    },
    description: 'A volume assembled from several projected sources',
  },
  QuobyteVolumeSource: {
    type: 'object',
    properties: {
      group: {
        type: 'string',
        description: 'Volume access is mapped to this group; no group by default',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, the Quobyte volume is mounted read-only.',
        proto: 3,
      },
      registry: {
        type: 'string',
        description:
          'One or more Quobyte Registry services as host:port pairs (comma-separated when several) that act as the central registry for volumes',
        proto: 1,
        protoKeepZero: true,
      },
      tenant: {
        type: 'string',
        description:
          'Backend tenant that owns the Quobyte volume; used with dynamically provisioned volumes and set by the plugin',
        proto: 6,
      },
      user: {
        type: 'string',
        description: 'Account that volume access is mapped to; the service account user by default',
        proto: 4,
      },
      volume: {
        type: 'string',
        description: 'Name of an existing Quobyte volume.',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'A Quobyte mount that lives as long as the pod.',
    required: ['registry', 'volume'],
  },
  RBDVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type of the volume to mount.',
        proto: 3,
      },
      image: {
        type: 'string',
        description: 'Name of the RADOS image.',
        proto: 2,
        protoKeepZero: true,
      },
      keyring: {
        type: 'string',
        description: 'Path to the key ring for RBDUser.',
        proto: 6,
      },
      monitors: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Ceph monitors to contact.',
        listType: 'atomic',
        proto: 1,
      },
      pool: {
        type: 'string',
        description: 'Name of the RADOS pool.',
        proto: 4,
      },
      readOnly: {
        type: 'boolean',
        description: 'When true, forces the ReadOnly setting in VolumeMounts.',
        proto: 8,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 7,
        protoPointer: true,
      },
      user: {
        type: 'string',
        description: 'RADOS user name.',
        proto: 5,
      },
    },
    description: 'A RADOS Block Device mount that lives as long as the pod.',
    required: ['image', 'monitors'],
  },
  ResourceFieldSelector: {
    type: 'object',
    properties: {
      containerName: {
        type: 'string',
        description: 'Name of the container; required for volumes, optional for env vars',
        proto: 1,
      },
      divisor: {
        intOrString: true,
        goType: 'resource.Quantity',
        description: 'Output format of the exposed resources; "1" by default',
        proto: 3,
      },
      resource: {
        type: 'string',
        description: 'Which resource to select; required',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'Selects a container resource (cpu, memory) and the format it is exposed in',
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
        description: 'Names of resources from spec.resourceClaims that this container uses.',
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
        description: 'Upper bound on the compute resources allowed.',
        proto: 1,
      },
      requests: {
        type: 'object',
        additionalProperties: {
          intOrString: true,
          goType: 'resource.Quantity',
        },
        description: 'Lower bound on the compute resources required.',
        proto: 2,
      },
    },
    description: 'Compute resource needs.',
  },
  SELinuxOptions: {
    type: 'object',
    properties: {
      level: {
        type: 'string',
        description: 'SELinux level label applied to the container.',
        proto: 4,
      },
      role: {
        type: 'string',
        description: 'SELinux role label applied to the container.',
        proto: 2,
      },
      type: {
        type: 'string',
        description: 'SELinux type label applied to the container.',
        proto: 3,
      },
      user: {
        type: 'string',
        description: 'SELinux user label applied to the container.',
        proto: 1,
      },
    },
    description: 'SELinux labels applied to the container',
  },
  ScaleIOVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 9,
      },
      gateway: {
        type: 'string',
        description: 'Host address of the ScaleIO API Gateway.',
        proto: 1,
        protoKeepZero: true,
      },
      protectionDomain: {
        type: 'string',
        description: 'ScaleIO Protection Domain that holds the configured storage.',
        proto: 5,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; false (read/write) by default.',
        proto: 10,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 3,
        protoPointer: true,
      },
      sslEnabled: {
        type: 'boolean',
        description: 'Turns SSL communication with the Gateway on or off; off by default',
        proto: 4,
      },
      storageMode: {
        type: 'string',
        description: "Whether the volume's storage is ThickProvisioned or ThinProvisioned.",
        proto: 7,
      },
      storagePool: {
        type: 'string',
        description: 'ScaleIO Storage Pool that belongs to the protection domain.',
        proto: 6,
      },
      system: {
        type: 'string',
        description: 'Storage system name as configured in ScaleIO.',
        proto: 2,
        protoKeepZero: true,
      },
      volumeName: {
        type: 'string',
        description: 'Name of an existing ScaleIO volume tied to this volume source.',
        proto: 8,
      },
    },
    description: 'A persistent ScaleIO volume',
    required: ['gateway', 'system'],
  },
  SeccompProfile: {
    type: 'object',
    properties: {
      localhostProfile: {
        type: 'string',
        description: 'Profile from a file on the node to use.',
        proto: 2,
        protoPointer: true,
      },
      type: {
        type: 'string',
        description: 'Kind of seccomp profile to apply.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Seccomp profile settings for a pod or container.',
    required: ['type'],
  },
  SecretEnvSource: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: "Referenced object's name.",
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the Secret has to exist',
        proto: 2,
        protoPointer: true,
      },
    },
    description: 'Picks a Secret whose data fills the environment variables.',
  },
  SecretKeySelector: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        description: 'Key to pick from the secret.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: "Referenced object's name.",
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the Secret or its key has to exist',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Picks one key of a Secret.',
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
          "When unset, every key-value pair in the referenced Secret's Data becomes a file in the volume, named after the key and holding the value.",
        listType: 'atomic',
        proto: 2,
      },
      name: {
        type: 'string',
        description: "Referenced object's name.",
        proto: 1,
        protoInline: 1,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the Secret or its key has to exist',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Projects a secret into a projected volume.',
  },
  SecretVolumeSource: {
    type: 'object',
    properties: {
      defaultMode: {
        type: 'integer',
        format: 'int32',
        description: 'Optional permission bits applied by default to created files.',
        proto: 3,
        protoPointer: true,
      },
      items: {
        type: 'array',
        items: {
          ref: 'KeyToPath',
        },
        description:
          "When unset, every key-value pair in the referenced Secret's Data becomes a file in the volume, named after the key and holding the value.",
        listType: 'atomic',
        proto: 2,
      },
      optional: {
        type: 'boolean',
        description: 'Whether the Secret or its keys have to exist',
        proto: 4,
        protoPointer: true,
      },
      secretName: {
        type: 'string',
        description: "Name of the secret, in the pod's namespace, to use.",
        proto: 1,
      },
    },
    description: 'Exposes a Secret as a volume.',
  },
  SecurityContext: {
    type: 'object',
    properties: {
      allowPrivilegeEscalation: {
        type: 'boolean',
        description: 'Whether a process may obtain more privileges than its parent.',
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
        description: 'Runs the container in privileged mode.',
        proto: 2,
        protoPointer: true,
      },
      procMount: {
        type: 'string',
        description: 'Kind of proc mount used for the containers.',
        proto: 9,
        protoPointer: true,
      },
      readOnlyRootFilesystem: {
        type: 'boolean',
        description: "Whether the container's root filesystem is read-only.",
        proto: 6,
        protoPointer: true,
      },
      runAsGroup: {
        type: 'integer',
        format: 'int64',
        description: 'Group ID used to run the container process entrypoint.',
        proto: 8,
        protoPointer: true,
      },
      runAsNonRoot: {
        type: 'boolean',
        description: 'When set, the container is required to run as a user other than root.',
        proto: 5,
        protoPointer: true,
      },
      runAsUser: {
        type: 'integer',
        format: 'int64',
        description: 'User ID used to run the container process entrypoint.',
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
    description: 'Security settings applied to one container.',
  },
  ServiceAccountTokenProjection: {
    type: 'object',
    properties: {
      audience: {
        type: 'string',
        description: 'Intended recipient of the token.',
        proto: 1,
      },
      expirationSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'Requested validity period of the service account token.',
        proto: 2,
        protoPointer: true,
      },
      path: {
        type: 'string',
        description: 'File path, relative to the mount point, where the token is written.',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description: 'A projected service account token.',
    required: ['path'],
  },
  SleepAction: {
    type: 'object',
    properties: {
      seconds: {
        type: 'integer',
        format: 'int64',
        description: 'How many seconds to sleep.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A "sleep" action.',
    required: ['seconds'],
  },
  StorageOSVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 3,
      },
      readOnly: {
        type: 'boolean',
        description: 'Mount read-only when true; false (read/write) by default.',
        proto: 4,
      },
      secretRef: {
        ref: 'LocalObjectReference',
        proto: 5,
        protoPointer: true,
      },
      volumeName: {
        type: 'string',
        description: 'Human-readable StorageOS volume name.',
        proto: 1,
      },
      volumeNamespace: {
        type: 'string',
        description: 'Scope of the volume inside StorageOS.',
        proto: 2,
      },
    },
    description: 'A persistent volume provided by StorageOS.',
  },
  Sysctl: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Property to set',
        proto: 1,
        protoKeepZero: true,
      },
      value: {
        type: 'string',
        description: 'What to set the property to',
        proto: 2,
        protoKeepZero: true,
      },
    },
    description: 'A kernel parameter to set',
    required: ['name', 'value'],
  },
  TCPSocketAction: {
    type: 'object',
    properties: {
      host: {
        type: 'string',
        description: 'Optional host name to connect to; the pod IP by default.',
        proto: 2,
      },
      port: {
        intOrString: true,
        description: 'Holds either an int32 or a string.',
        proto: 1,
      },
    },
    description: 'An action that opens a socket',
    required: ['port'],
  },
  Toleration: {
    type: 'object',
    properties: {
      effect: {
        type: 'string',
        description: 'Taint effect to match.',
        proto: 4,
      },
      key: {
        type: 'string',
        description: 'Taint key this toleration applies to.',
        proto: 1,
      },
      operator: {
        type: 'string',
        description: 'How the key relates to the value.',
        proto: 2,
      },
      tolerationSeconds: {
        type: 'integer',
        format: 'int64',
        description:
          'How long the toleration tolerates the taint; only used with effect NoExecute and ignored otherwise.',
        proto: 5,
        protoPointer: true,
      },
      value: {
        type: 'string',
        description: 'Taint value this toleration matches.',
        proto: 3,
      },
    },
    description:
      'The pod carrying this toleration tolerates every taint whose <key,value,effect> triple matches under the operator <operator>.',
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
        description: 'Pod label keys used to pick the pods over which spreading is computed.',
        listType: 'atomic',
        proto: 8,
      },
      maxSkew: {
        type: 'integer',
        format: 'int32',
        description: 'How unevenly pods may be spread.',
        proto: 1,
        protoKeepZero: true,
      },
      minDomains: {
        type: 'integer',
        format: 'int32',
        description: 'Minimum count of eligible domains.',
        proto: 5,
        protoPointer: true,
      },
      nodeAffinityPolicy: {
        type: 'string',
        description:
          "How the pod's nodeAffinity/nodeSelector is handled when computing topology spread skew.",
        proto: 6,
        protoPointer: true,
      },
      nodeTaintsPolicy: {
        type: 'string',
        description: 'How node taints are handled when computing topology spread skew.',
        proto: 7,
        protoPointer: true,
      },
      topologyKey: {
        type: 'string',
        description: 'Node label key used as the topology.',
        proto: 2,
        protoKeepZero: true,
      },
      whenUnsatisfiable: {
        type: 'string',
        description: 'What to do with a pod that does not meet the spread constraint.',
        proto: 3,
        protoKeepZero: true,
      },
    },
    description: 'How matching pods are spread across a topology.',
    required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
  },
  TypedLocalObjectReference: {
    type: 'object',
    properties: {
      apiGroup: {
        type: 'string',
        description: 'API group of the referenced resource.',
        proto: 1,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description: 'Type of the referenced resource',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: "Referenced resource's name",
        proto: 3,
        protoKeepZero: true,
      },
    },
    description: 'Enough information to find a typed object in the same namespace.',
    required: ['kind', 'name'],
  },
  TypedObjectReference: {
    type: 'object',
    properties: {
      apiGroup: {
        type: 'string',
        description: 'API group of the referenced resource.',
        proto: 1,
        protoPointer: true,
      },
      kind: {
        type: 'string',
        description: 'Type of the referenced resource',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: "Referenced resource's name",
        proto: 3,
        protoKeepZero: true,
      },
      namespace: {
        type: 'string',
        proto: 4,
        protoPointer: true,
      },
    },
    description: 'Enough information to find a typed object',
    required: ['kind', 'name'],
  },
  V1ResourceClaim: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description:
          'Must equal the name of an entry in pod.spec.resourceClaims of the pod using this field.',
        proto: 1,
        protoKeepZero: true,
      },
      request: {
        type: 'string',
        description: 'Name of a request within the referenced claim.',
        proto: 2,
      },
    },
    description: 'Points at one entry of PodSpec.ResourceClaims.',
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
        description: 'Volume name.',
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
    description: 'A named volume in a pod that any of its containers can use.',
    required: ['name'],
  },
  VolumeDevice: {
    type: 'object',
    properties: {
      devicePath: {
        type: 'string',
        description: 'Path in the container where the device is mapped.',
        proto: 2,
        protoKeepZero: true,
      },
      name: {
        type: 'string',
        description: 'Must equal the name of a persistentVolumeClaim in the pod',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'Maps a raw block device into a container.',
    required: ['devicePath', 'name'],
  },
  VolumeMount: {
    type: 'object',
    properties: {
      mountPath: {
        type: 'string',
        description: 'Path in the container where the volume is mounted.',
        proto: 3,
        protoKeepZero: true,
      },
      mountPropagation: {
        type: 'string',
        description: 'How mounts propagate between the host and the container, in either direction.',
        proto: 5,
        protoPointer: true,
      },
      name: {
        type: 'string',
        description: 'Must equal the name of a Volume.',
        proto: 1,
        protoKeepZero: true,
      },
      readOnly: {
        type: 'boolean',
        description: 'Read-only when true; read-write when false or unset.',
        proto: 2,
      },
      recursiveReadOnly: {
        type: 'string',
        description: 'Whether read-only mounts are applied recursively.',
        proto: 7,
        protoPointer: true,
      },
      subPath: {
        type: 'string',
        description: 'Path inside the volume to mount for the container.',
        proto: 4,
      },
      subPathExpr: {
        type: 'string',
        description: 'Path inside the volume to mount for the container, with variables expanded.',
        proto: 6,
      },
    },
    description: 'Mounts a Volume into a container.',
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
    description: 'A projection that can be combined with other supported volume types.',
  },
  VolumeResourceRequirements: {
    type: 'object',
    properties: {
      limits: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Upper bound on the compute resources allowed.',
        proto: 1,
      },
      requests: {
        type: 'object',
        additionalProperties: {
          type: 'string',
        },
        description: 'Lower bound on the compute resources required.',
        proto: 2,
      },
    },
    description: 'Storage resource needs of a volume.',
  },
  VsphereVirtualDiskVolumeSource: {
    type: 'object',
    properties: {
      fsType: {
        type: 'string',
        description: 'Filesystem type to mount.',
        proto: 2,
      },
      storagePolicyID: {
        type: 'string',
        description: 'Storage Policy Based Management (SPBM) profile ID linked to storagePolicyName.',
        proto: 4,
      },
      storagePolicyName: {
        type: 'string',
        description: 'Storage Policy Based Management (SPBM) profile name.',
        proto: 3,
      },
      volumePath: {
        type: 'string',
        description: 'Path to the vSphere volume vmdk',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description: 'A vSphere volume.',
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
        description: 'Weight, from 1 to 100, given to matching the paired podAffinityTerm.',
        proto: 1,
        protoKeepZero: true,
      },
    },
    description:
      'For each node, the weights of every matched WeightedPodAffinityTerm are summed to find the preferred node(s)',
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
        description: 'Name of the GMSA credential spec to use.',
        proto: 1,
        protoPointer: true,
      },
      hostProcess: {
        type: 'boolean',
        description: "Whether the container runs as a 'Host Process' container.",
        proto: 4,
        protoPointer: true,
      },
      runAsUserName: {
        type: 'string',
        description: 'Windows user name used to run the container process entrypoint.',
        proto: 3,
        protoPointer: true,
      },
    },
    description: 'Options and credentials specific to Windows.',
  },
});
