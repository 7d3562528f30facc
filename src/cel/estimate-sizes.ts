// Declared sizes for the estimator, built the way upstream declares them: a tree of maxima per
// variable (what Kubernetes' DeclType.MaxElements holds, looked up by path like the CRD and DRA
// size estimators do), and that tree derived from a structural schema as k8s.io/apiserver
// pkg/cel/common/schemas.go SchemaDeclType does: maxLength (times 4, since upstream counts bytes
// and a code point may take four), maxItems, maxProperties, the longest enum value, or, for what
// the schema leaves unbounded, whatever fits in one 3 MiB request given the smallest serialized
// size of each element.

import type { SizeEstimator } from './estimate.ts';
import {
  JSON_DATE_SIZE,
  MAX_DATETIME_SIZE_JSON,
  MAX_DURATION_SIZE_JSON,
  MIN_SERIALIZED_SIZE,
  maxListItemsFromMinSize,
  maxMapPropertiesFromMinSize,
  maxStringLengthPerRequest,
} from './limits.ts';
import type { StructuralSchema } from './types.ts';

/** Upstream's declared maximum of one value and of what it contains. */
export interface SizeNode {
  /** A string's or bytes' longest length, a list's or map's most entries; 0 (or absent) when unset. */
  readonly maxElements?: number;
  readonly fields?: Readonly<Record<string, SizeNode>>;
  /** A list's elements (`@items`) or a map's values (`@values`). */
  readonly items?: SizeNode;
  /** A map's keys (`@keys`). */
  readonly keys?: SizeNode;
  /** Every field name not in `fields` (DRA's attribute maps, where any attribute has one bound). */
  readonly anyField?: SizeNode;
  /** The smallest this value serializes to in JSON, for the request-size bounds of its container. */
  readonly minSerializedSize?: number;
}

/**
 * A SizeEstimator over declared trees, one per variable: a path that reaches a node answers
 * 0..maxElements (so 0..0 for a number or an object, as upstream does); any other path answers
 * nothing and the estimator falls back to what it knows of the type.
 */
export function sizesFromTree(roots: Readonly<Record<string, SizeNode>>): SizeEstimator {
  return (path) => {
    if (path.length === 0 || !Object.hasOwn(roots, path[0])) return undefined;
    let node: SizeNode | undefined = roots[path[0]];
    for (const name of path.slice(1)) {
      if (name === '@items' || name === '@values') node = node.items;
      else if (name === '@keys') node = node.keys;
      else
        node =
          node.fields !== undefined && Object.hasOwn(node.fields, name) ? node.fields[name] : node.anyField;
      if (node === undefined) return undefined;
    }
    return { min: 0, max: node.maxElements ?? 0 };
  };
}

/** The parts of a schema that bound sizes, beside those that decide types. */
export interface SizedSchema extends StructuralSchema {
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  required?: readonly string[];
  enum?: readonly unknown[];
  default?: unknown;
  properties?: Record<string, SizedSchema>;
  additionalProperties?: SizedSchema | boolean;
  items?: SizedSchema;
}

/** A string any longer than this does not fit in a request. */
const UNBOUNDED_STRING = maxStringLengthPerRequest();

/**
 * The size tree of a value of `schema` (schemas.go SchemaDeclType). `resourceRoot` marks the root of
 * a custom resource (or an embedded resource), which always has apiVersion, kind and
 * metadata.name/generateName, unbounded strings all. Undefined for what CEL does not see.
 */
export function sizeTreeFromSchema(schema: SizedSchema, resourceRoot = false): SizeNode | undefined {
  const nonNegative = (n: number) => Math.max(0, n);
  if (schema['x-kubernetes-int-or-string']) {
    const max = schema.maxLength !== undefined ? nonNegative(schema.maxLength) * 4 : UNBOUNDED_STRING;
    return { maxElements: max, minSerializedSize: MIN_SERIALIZED_SIZE.intOrString };
  }
  if (resourceRoot) schema = withTypeAndObjectMeta(schema);
  switch (schema.type) {
    case 'array': {
      if (schema.items === undefined) return undefined;
      const items = sizeTreeFromSchema(schema.items, schema.items['x-kubernetes-embedded-resource'] === true);
      if (items === undefined) return undefined;
      const max =
        schema.maxItems !== undefined
          ? nonNegative(schema.maxItems)
          : maxListItemsFromMinSize(items.minSerializedSize ?? 0);
      return { maxElements: max, items, minSerializedSize: MIN_SERIALIZED_SIZE.container };
    }
    case 'object': {
      const ap = schema.additionalProperties;
      if (typeof ap === 'object') {
        const values = sizeTreeFromSchema(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (values === undefined) return undefined;
        const max =
          schema.maxProperties !== undefined
            ? nonNegative(schema.maxProperties)
            : maxMapPropertiesFromMinSize(values.minSerializedSize ?? 0);
        // Keys are plain strings: upstream declares them without a bound (0).
        return {
          maxElements: max,
          items: values,
          keys: { maxElements: 0 },
          minSerializedSize: MIN_SERIALIZED_SIZE.container,
        };
      }
      const required = new Set(schema.required ?? []);
      const fields: Record<string, SizeNode> = {};
      // An object is at least `{}`, plus each required property without a default.
      let min = MIN_SERIALIZED_SIZE.container;
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const field = sizeTreeFromSchema(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (field === undefined) continue;
        fields[name] = field;
        if (required.has(name) && prop.default === undefined)
          min += name.length + (field.minSerializedSize ?? 0) + 4;
      }
      return { fields, minSerializedSize: min };
    }
    case 'string':
      return stringSizes(schema);
    case 'boolean':
      return { minSerializedSize: MIN_SERIALIZED_SIZE.bool };
    case 'number':
    case 'integer':
      return { minSerializedSize: MIN_SERIALIZED_SIZE.number };
    default:
      return undefined;
  }
}

function stringSizes(schema: SizedSchema): SizeNode {
  switch (schema.format) {
    case 'byte':
      return {
        maxElements: schema.maxLength !== undefined ? Math.max(0, schema.maxLength) : UNBOUNDED_STRING,
        minSerializedSize: MIN_SERIALIZED_SIZE.string,
      };
    case 'duration':
      return { maxElements: MAX_DURATION_SIZE_JSON, minSerializedSize: MIN_SERIALIZED_SIZE.duration };
    case 'date':
      return { maxElements: JSON_DATE_SIZE, minSerializedSize: JSON_DATE_SIZE };
    case 'date-time':
      return { maxElements: MAX_DATETIME_SIZE_JSON, minSerializedSize: MIN_SERIALIZED_SIZE.dateTime };
  }
  let max: number;
  if (schema.maxLength !== undefined) max = Math.max(0, schema.maxLength) * 4;
  else if (schema.enum !== undefined && schema.enum.length > 0) {
    max = 0;
    for (const v of schema.enum) if (typeof v === 'string' && utf8(v) > max) max = utf8(v);
  } else max = UNBOUNDED_STRING;
  return { maxElements: max, minSerializedSize: MIN_SERIALIZED_SIZE.string };
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * apiVersion, kind and metadata.name/generateName are readable at a resource root, declared or not;
 * unless the schema already declares all four as strings, upstream replaces them (and metadata's
 * other properties) by plain strings (schemas.go WithTypeAndObjectMeta).
 */
function withTypeAndObjectMeta(schema: SizedSchema): SizedSchema {
  const p = schema.properties ?? {};
  const meta = p.metadata?.properties;
  if (
    p.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    p.metadata?.type === 'object' &&
    meta?.name?.type === 'string' &&
    meta.generateName?.type === 'string'
  ) {
    return schema;
  }
  const str: SizedSchema = { type: 'string' };
  return {
    ...schema,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: str, generateName: str } },
    },
  };
}

/** Sizes for the variables (`self`, `oldSelf` of a CRD rule) holding values of `schema`. */
export function sizesFromSchema(
  names: string | readonly string[],
  schema: SizedSchema,
  resourceRoot = true,
): SizeEstimator {
  const tree = sizeTreeFromSchema(schema, resourceRoot);
  const roots: Record<string, SizeNode> = {};
  if (tree !== undefined) for (const n of typeof names === 'string' ? [names] : names) roots[n] = tree;
  return sizesFromTree(roots);
}
