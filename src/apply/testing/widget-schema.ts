// A test kind with every topology server-side apply knows, in two versions of its schema that
// differ only in whether `spec.config` and `spec.flags` are granular or atomic (spec rule 6).

import { compileKindSchema } from '../../schema/compile.ts';
import type { KindSchema, SchemaNode } from '../../schema/types.ts';

const str: SchemaNode = { type: 'string' };
const int: SchemaNode = { type: 'integer', format: 'int32' };

function spec(configAtomic: boolean, flagsAtomic: boolean): SchemaNode {
  return {
    type: 'object',
    properties: {
      replicas: int,
      image: str,
      labels: { type: 'object', additionalProperties: str },
      selector: { type: 'object', additionalProperties: str, mapType: 'atomic' },
      limits: { type: 'object', properties: { cpu: str, memory: str }, structType: 'atomic' },
      template: { type: 'object', properties: { name: str, color: str } },
      ports: {
        type: 'array',
        listType: 'map',
        listMapKeys: ['port', 'protocol'],
        items: {
          type: 'object',
          properties: { port: int, protocol: { type: 'string', default: 'TCP' }, name: str },
        },
      },
      containers: {
        type: 'array',
        listType: 'map',
        listMapKeys: ['name'],
        items: {
          type: 'object',
          properties: {
            name: str,
            image: str,
            args: { type: 'array', items: str, listType: 'atomic' },
            env: {
              type: 'array',
              listType: 'map',
              listMapKeys: ['name'],
              items: { type: 'object', properties: { name: str, value: str } },
            },
          },
        },
      },
      tags: { type: 'array', listType: 'set', items: str },
      args: { type: 'array', items: str },
      legacy: {
        type: 'array',
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        items: { type: 'object', properties: { name: str, value: str } },
      },
      legacySet: { type: 'array', patchStrategy: 'merge', items: str },
      extra: { type: 'object', preserveUnknownFields: true },
      config: configAtomic
        ? { type: 'object', additionalProperties: str, mapType: 'atomic' }
        : { type: 'object', additionalProperties: str },
      flags: flagsAtomic
        ? { type: 'array', items: str, listType: 'atomic' }
        : { type: 'array', items: str, listType: 'set' },
    },
  };
}

function widget(version: 'granular' | 'atomic'): KindSchema {
  const atomic = version === 'atomic';
  return compileKindSchema({
    group: 'tests.example',
    version: 'v1',
    kind: 'Widget',
    description: 'A test kind.',
    properties: {
      spec: spec(atomic, !atomic),
      status: { type: 'object', properties: { phase: str, ready: int } },
    },
  });
}

export const WIDGET_GRANULAR = widget('granular');
/** The same kind after `spec.config` became atomic and `spec.flags` became a set. */
export const WIDGET_ATOMIC = widget('atomic');
