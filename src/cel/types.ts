// The declaration language for CEL variable and function types. Each caller declares its variables
// with these values (`claims` a map, `user` an object with typed fields, `request` an
// AdmissionRequest, `object` from the kind's schema); the environment turns them into the engine's
// own declarations, so no caller ever spells an engine type string.

export type PrimitiveKind =
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'null'
  | 'timestamp'
  | 'duration'
  | 'dyn'
  | 'type';

export type CelType =
  | { readonly kind: PrimitiveKind }
  | { readonly kind: 'list'; readonly elem: CelType }
  | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType }
  /** A record with named, typed fields: selecting any other field is a compile error. */
  | { readonly kind: 'object'; readonly name: string; readonly fields: Readonly<Record<string, CelType>> }
  | { readonly kind: 'optional'; readonly inner: CelType }
  /** A library's value type (Quantity, URL, IP, ...): a name whose values are instances of a class. */
  | { readonly kind: 'opaque'; readonly name: string }
  /** A type parameter of a generic overload (`list(A).sum() -> A`): one upper-case letter. */
  | { readonly kind: 'param'; readonly name: string };

const prim = (kind: PrimitiveKind): CelType => Object.freeze({ kind });

/** Constructors for declarations: `T.list(T.string)`, `T.object('User', { username: T.string })`. */
export const T = Object.freeze({
  bool: prim('bool'),
  int: prim('int'),
  uint: prim('uint'),
  double: prim('double'),
  string: prim('string'),
  bytes: prim('bytes'),
  null: prim('null'),
  timestamp: prim('timestamp'),
  duration: prim('duration'),
  dyn: prim('dyn'),
  type: prim('type'),
  list: (elem: CelType): CelType => Object.freeze({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): CelType => Object.freeze({ kind: 'map', key, value }),
  object: (name: string, fields: Record<string, CelType>): CelType =>
    Object.freeze({ kind: 'object', name, fields: Object.freeze({ ...fields }) }),
  optional: (inner: CelType): CelType => Object.freeze({ kind: 'optional', inner }),
  opaque: (name: string): CelType => Object.freeze({ kind: 'opaque', name }),
  param: (name: string): CelType => {
    if (!/^[A-Z]$/.test(name)) throw new Error(`type parameter must be one upper-case letter, got ${name}`);
    return Object.freeze({ kind: 'param', name });
  },
});

/**
 * The type as cel-go prints it in messages (`list(string)`, `map(string, dyn)`), which is also the
 * form result-type errors quote.
 */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
    case 'opaque':
    case 'param':
      return t.name;
    case 'optional':
      return `optional_type(${typeName(t.inner)})`;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'null':
      return 'null_type';
    default:
      return t.kind;
  }
}

/** Every object type reachable from `t`, innermost first, each once (by name). */
export function objectTypesIn(t: CelType, into = new Map<string, CelType & { kind: 'object' }>()) {
  switch (t.kind) {
    case 'list':
      objectTypesIn(t.elem, into);
      break;
    case 'map':
      objectTypesIn(t.key, into);
      objectTypesIn(t.value, into);
      break;
    case 'optional':
      objectTypesIn(t.inner, into);
      break;
    case 'object': {
      const seen = into.get(t.name);
      if (seen === t) break;
      if (seen !== undefined) throw new Error(`two different object types are named ${t.name}`);
      for (const f of Object.values(t.fields)) objectTypesIn(f, into);
      into.set(t.name, t);
      break;
    }
  }
  return into;
}

// --- from structural OpenAPI schemas ----------------------------------------------------------------

/** The part of a structural OpenAPI v3 schema that decides a CEL type. */
export interface StructuralSchema {
  type?: string;
  format?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/**
 * The CEL type of values that a structural schema describes, as upstream's apiserver declares it
 * for `self`, `object` and `oldObject`: properties make an object type (named after its path from
 * `name`, so nested types stay distinct), additionalProperties a map with string keys, items a
 * list, date-time strings a timestamp and duration strings a duration; int-or-string and
 * preserve-unknown-fields (or a schema without a type) are dyn, since their values are not known.
 */
export function typeFromSchema(schema: StructuralSchema, name: string): CelType {
  if (schema['x-kubernetes-int-or-string']) return T.dyn;
  switch (schema.type) {
    case 'boolean':
      return T.bool;
    case 'integer':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      if (schema.format === 'date-time') return T.timestamp;
      if (schema.format === 'duration') return T.duration;
      if (schema.format === 'byte') return T.bytes;
      return T.string;
    case 'array':
      return T.list(schema.items === undefined ? T.dyn : typeFromSchema(schema.items, `${name}.@items`));
    case 'object': {
      const ap = schema.additionalProperties;
      if (ap !== undefined && ap !== false && schema.properties === undefined) {
        return T.map(T.string, ap === true ? T.dyn : typeFromSchema(ap, `${name}.@additionalProperties`));
      }
      if (schema['x-kubernetes-preserve-unknown-fields'] && schema.properties === undefined) return T.dyn;
      const fields: Record<string, CelType> = {};
      // An embedded resource always has apiVersion, kind and metadata, declared or not.
      if (schema['x-kubernetes-embedded-resource']) {
        fields.apiVersion = T.string;
        fields.kind = T.string;
        fields.metadata = T.dyn;
      }
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        fields[key] = typeFromSchema(sub, `${name}.${key}`);
      }
      // Unknown fields kept by preserve-unknown-fields cannot be declared: such an object is dyn.
      if (schema['x-kubernetes-preserve-unknown-fields']) return T.dyn;
      return T.object(name, fields);
    }
    default:
      return T.dyn;
  }
}
