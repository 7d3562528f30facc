// The schema vocabulary. A kind is declared once as a tree of SchemaNodes (structural OpenAPI v3 in
// spirit); the markers are neutral property names here and become the wire's extension keys only
// when an OpenAPI document is written (the extension names live in src/naming/).

import type { FieldError } from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';

export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  /** A map's value schema (type object without fixed properties). */
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  required?: string[];
  enum?: readonly (string | number)[];
  default?: unknown;
  nullable?: boolean;
  /** Name of a shared definition (ObjectMeta, Time, ...), resolved against the definition table. */
  ref?: string;
  intOrString?: boolean;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
  structType?: 'atomic' | 'granular';
  patchStrategy?: string;
  patchMergeKey?: string;
  /**
   * The Go type upstream decodes this node into, where the default guess is wrong (`v1.SecretType`,
   * `v1.LeaseSpec`, `v1.MicroTime`); decode error texts name it. Never written to OpenAPI documents.
   */
  goType?: string;

  // Protobuf wire facts (upstream's generated.proto numbering and the Go field's shape), read only by
  // src/codec/protobuf; never written to OpenAPI documents. Set on a property of a message.
  /** The field number of this property in its parent's message. A property without one is not on the wire. */
  proto?: number;
  /**
   * The Go field is a pointer: written only when the property is set (an explicit zero included) and
   * present after decoding only when it was on the wire. Without it the field is a Go value: written
   * even when absent (as its zero) and, for a struct, always present after decoding.
   */
  protoPointer?: boolean;
  /** A scalar Go value field without omitempty: its decoded zero ('', 0, false) stays in the object. */
  protoKeepZero?: boolean;
  /**
   * The Go struct this property sits in is embedded inline in JSON but is its own message on the wire,
   * at this field number of the parent (a Volume's VolumeSource, a Probe's ProbeHandler).
   */
  protoInline?: number;
  /**
   * The wire type where the JSON schema cannot say it. Others are inferred: Time and MicroTime from
   * their refs, Quantity from `goType: 'resource.Quantity'`, IntOrString from `intOrString`, bytes from
   * `format: 'byte'`. `StringList` is a list of strings whose Go type is a named slice that the wire
   * wraps in a message of its own, the items at field 1 (authentication's ExtraValue).
   */
  protoType?: 'FieldsV1' | 'RawExtension' | 'StringList';
  /** The wire message's fields where the schema keeps the value opaque (preserveUnknownFields). */
  protoProperties?: Record<string, SchemaNode>;
}

/** The protobuf markers alone, for schema helpers that take them beside a description. */
export type ProtoMarkers = Pick<
  SchemaNode,
  'proto' | 'protoPointer' | 'protoKeepZero' | 'protoInline' | 'protoType' | 'protoProperties'
>;

/** What checking a decoded body against its kind's schema found. */
export interface NormalizeResult {
  /** Paths of fields the schema does not know, already removed: `spec.foo`, `data[0].bar`. */
  unknownFields: string[];
  /** Values of the wrong type; the request is a 400 BadRequest when any is present. */
  typeErrors: string[];
}

/** One kind's compiled schema: built once at startup, used on every write. */
export interface KindSchema {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The kind's root node, refs unresolved (writers of documents resolve them). */
  readonly root: SchemaNode;
  /** Shared definitions the root refers to, by name. */
  readonly definitions: Readonly<Record<string, SchemaNode>>;
  /**
   * Prunes unknown fields (in place), fills schema defaults, and reports type mismatches.
   * Never throws on any input.
   */
  normalize(obj: ApiObject): NormalizeResult;
  /** Schema-level validation that produces field errors (enum, required, formats). */
  validate(obj: ApiObject): FieldError[];
}
