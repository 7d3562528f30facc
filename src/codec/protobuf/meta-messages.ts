// The meta/v1 messages that are not kinds of their own: Status, DeleteOptions, WatchEvent,
// PartialObjectMetadata and its list, declared as schema nodes with upstream's field numbers so the
// same encoder and decoder serve them. They live here, not beside META_DEFINITIONS, because OpenAPI
// documents write every definition there and these have their own (or none).

import { META_DEFINITIONS } from '../../schema/meta.ts';
import type { SchemaNode } from '../../schema/types.ts';

const str = (proto: number, extra?: SchemaNode): SchemaNode => ({ type: 'string', proto, ...extra });
const int32 = (proto: number): SchemaNode => ({ type: 'integer', format: 'int32', proto });

export const META_MESSAGES: Record<string, SchemaNode> = {
  ...META_DEFINITIONS,
  Status: {
    type: 'object',
    properties: {
      metadata: { ref: 'ListMeta', proto: 1 },
      status: str(2),
      message: str(3),
      reason: str(4),
      details: { ref: 'StatusDetails', proto: 5, protoPointer: true },
      code: int32(6),
    },
  },
  StatusDetails: {
    type: 'object',
    properties: {
      name: str(1),
      group: str(2),
      kind: str(3),
      uid: str(6),
      causes: { type: 'array', items: { ref: 'StatusCause' }, proto: 4 },
      retryAfterSeconds: int32(5),
    },
  },
  StatusCause: {
    type: 'object',
    properties: { reason: str(1), message: str(2), field: str(3) },
  },
  DeleteOptions: {
    type: 'object',
    properties: {
      gracePeriodSeconds: { type: 'integer', format: 'int64', proto: 1, protoPointer: true },
      preconditions: { ref: 'Preconditions', proto: 2, protoPointer: true },
      orphanDependents: { type: 'boolean', proto: 3, protoPointer: true },
      propagationPolicy: str(4, { protoPointer: true }),
      dryRun: { type: 'array', items: { type: 'string' }, proto: 5 },
      ignoreStoreReadErrorWithClusterBreakingPotential: { type: 'boolean', proto: 6, protoPointer: true },
    },
  },
  Preconditions: {
    type: 'object',
    properties: {
      uid: str(1, { protoPointer: true }),
      resourceVersion: str(2, { protoPointer: true }),
    },
  },
  /** The object travels as raw bytes: the inner object's whole envelope (see watch.ts). */
  WatchEvent: {
    type: 'object',
    properties: {
      type: str(1, { protoKeepZero: true }),
      object: { type: 'object', protoType: 'RawExtension', proto: 2 },
    },
  },
  PartialObjectMetadata: {
    type: 'object',
    properties: { metadata: { ref: 'ObjectMeta', proto: 1 } },
  },
  PartialObjectMetadataList: {
    type: 'object',
    properties: {
      metadata: { ref: 'ListMeta', proto: 1 },
      items: { type: 'array', items: { ref: 'PartialObjectMetadata' }, proto: 2 },
    },
  },
};

/** Kinds these messages are sent as; upstream registers them in every group version. */
export const META_KINDS = [
  'Status',
  'DeleteOptions',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
] as const;
export type MetaKind = (typeof META_KINDS)[number];
