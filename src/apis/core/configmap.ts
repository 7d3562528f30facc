// ConfigMap: string data and base64 binaryData under shared key rules, optionally immutable.

import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';
import { validateConfigMapData, validateImmutableData } from './data-keys.ts';

const DATA_DESCRIPTION =
  "Configuration values as UTF-8 text, by key. Keys use only letters, digits, '-', '_' and '.', and may not also appear in binaryData (validation checks this); put non-UTF-8 bytes in binaryData instead.";

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  description: 'Stores configuration for pods to read.',
  properties: {
    data: {
      type: 'object',
      description: DATA_DESCRIPTION,
      additionalProperties: { type: 'string', default: '' },
      proto: 2,
    },
    binaryData: {
      type: 'object',
      description:
        "Configuration values as raw bytes, by key, for content that is not valid UTF-8. Keys use only letters, digits, '-', '_' and '.', and may not also appear in data (validation checks this).",
      additionalProperties: { type: 'string', format: 'byte' },
      proto: 3,
    },
    immutable: {
      type: 'boolean',
      description:
        'When true, the data of the ConfigMap is frozen and only its metadata may still change. While not true, this setting itself may be changed at any time. Unset by default.',
      proto: 4,
      protoPointer: true,
    },
  },
});

type Maps = Record<string, string> | undefined;

export const configMapKind: KindDefinition = {
  resource: {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    singular: 'configmap',
    kind: 'ConfigMap',
    listKind: 'ConfigMapList',
    shortNames: ['cm'],
    namespaced: true,
    verbs: STANDARD_VERBS,
    subresources: {},
  },
  schema,
  strategy: {
    ...NAMESPACED_DEFAULTS,
    validate: (obj) => [
      ...schema.validate(obj),
      ...validateConfigMapData(obj.data as Maps, obj.binaryData as Maps),
    ],
    validateUpdate: (obj, old) => validateImmutableData(obj, old, ['data', 'binaryData']),
  },
  table: [
    NAME_COLUMN,
    {
      name: 'Data',
      type: 'string',
      description: DATA_DESCRIPTION,
      cell: (obj) =>
        Object.keys((obj.data as object) ?? {}).length + Object.keys((obj.binaryData as object) ?? {}).length,
    },
    AGE_COLUMN,
  ],
};
