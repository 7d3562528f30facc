// ConfigMap: string data and base64 binaryData under shared key rules, optionally immutable.

import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';
import { validateConfigMapData, validateImmutableData } from './data-keys.ts';

const DATA_DESCRIPTION =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  description: 'ConfigMap holds configuration data for pods to consume.',
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
        "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process.",
      additionalProperties: { type: 'string', format: 'byte' },
      proto: 3,
    },
    immutable: {
      type: 'boolean',
      description:
        'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
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
