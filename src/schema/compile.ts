// A kind's schema, compiled once: one walk of the decoded body prunes unknown fields, fills
// defaults and finds wrong types; a second, cheaper one checks required fields and enums. Built-in
// kinds decode into fixed types upstream, so an unknown field simply disappears and a wrong type is
// a decode error; this reproduces that without a type per kind.

import {
  type FieldError,
  type FieldPath,
  newPath,
  notSupported,
  required,
} from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';
import { META_DEFINITIONS } from './meta.ts';
import type { KindSchema, NormalizeResult, SchemaNode } from './types.ts';

export interface KindSchemaInput {
  group: string;
  version: string;
  kind: string;
  /** The kind's own fields besides apiVersion, kind and metadata. */
  properties: Record<string, SchemaNode>;
  description: string;
  required?: string[];
  /** Definitions the kind refers to beyond the shared metadata ones. */
  definitions?: Record<string, SchemaNode>;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function jsonTypeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

class Compiled implements KindSchema {
  readonly root: SchemaNode;
  readonly definitions: Record<string, SchemaNode>;

  constructor(
    readonly group: string,
    readonly version: string,
    readonly kind: string,
    input: KindSchemaInput,
  ) {
    this.definitions = { ...META_DEFINITIONS, ...input.definitions };
    this.root = {
      type: 'object',
      description: input.description,
      required: input.required,
      properties: {
        apiVersion: {
          type: 'string',
          description:
            'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
        },
        kind: {
          type: 'string',
          description:
            'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to.',
        },
        metadata: { ref: 'ObjectMeta', description: "Standard object's metadata." },
        ...input.properties,
      },
    };
  }

  resolve(node: SchemaNode): SchemaNode {
    if (node.ref === undefined) return node;
    const target = this.definitions[node.ref];
    return target === undefined
      ? { preserveUnknownFields: true }
      : { ...target, description: node.description ?? target.description };
  }

  private goType(node: SchemaNode): string {
    const n = this.resolve(node);
    if (n.intOrString) return 'intstr.IntOrString';
    switch (n.type) {
      case 'string':
        return n.format === 'byte' ? '[]uint8' : 'string';
      case 'integer':
        return n.format === 'int32' ? 'int32' : 'int64';
      case 'number':
        return 'float64';
      case 'boolean':
        return 'bool';
      case 'array':
        return `[]${n.items ? this.goType(n.items) : 'interface {}'}`;
      case 'object':
        if (n.additionalProperties) return `map[string]${this.goType(n.additionalProperties)}`;
        return node.ref ?? 'struct';
      default:
        return 'interface {}';
    }
  }

  normalize(obj: ApiObject): NormalizeResult {
    const result: NormalizeResult = { unknownFields: [], typeErrors: [] };
    this.walkObject(obj as Record<string, unknown>, this.root, '', result);
    return result;
  }

  /** Checks `value` against `node`; returns false when the value must be dropped (null). */
  private walk(value: unknown, node: SchemaNode, path: string, r: NormalizeResult): boolean {
    const n = this.resolve(node);
    if (value === null) return n.nullable === true;
    if (n.preserveUnknownFields && n.type === undefined) return true;
    const mismatch = (expected: string) => {
      r.typeErrors.push(
        `json: cannot unmarshal ${jsonTypeOf(value)} into Go struct field ${this.kind}.${path} of type ${expected}`,
      );
      return true;
    };
    if (n.intOrString) {
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value)))
        return mismatch(this.goType(node));
      return true;
    }
    switch (n.type) {
      case 'string':
        if (typeof value !== 'string') return mismatch(this.goType(node));
        if (n.format === 'byte' && (!BASE64.test(value) || value.length % 4 !== 0)) {
          r.typeErrors.push(`illegal base64 data at input byte ${firstBadBase64Byte(value)}`);
        }
        return true;
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value)) return mismatch(this.goType(node));
        return true;
      case 'number':
        if (typeof value !== 'number') return mismatch(this.goType(node));
        return true;
      case 'boolean':
        if (typeof value !== 'boolean') return mismatch(this.goType(node));
        return true;
      case 'array':
        if (!Array.isArray(value)) return mismatch(this.goType(node));
        if (n.items !== undefined) {
          for (let i = 0; i < value.length; i++) {
            if (!this.walk(value[i], n.items, `${path}[${i}]`, r)) value[i] = this.zeroOf(n.items);
          }
        }
        return true;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value)) return mismatch(this.goType(node));
        this.walkObject(value as Record<string, unknown>, n, path, r);
        return true;
      default:
        return true;
    }
  }

  private zeroOf(node: SchemaNode): unknown {
    const n = this.resolve(node);
    if (n.type === 'string') return '';
    if (n.type === 'integer' || n.type === 'number') return 0;
    if (n.type === 'boolean') return false;
    return null;
  }

  private walkObject(value: Record<string, unknown>, n: SchemaNode, path: string, r: NormalizeResult): void {
    const at = (k: string) => (path === '' ? k : `${path}.${k}`);
    if (n.additionalProperties !== undefined) {
      for (const [k, v] of Object.entries(value)) {
        if (!this.walk(v, n.additionalProperties, at(k), r)) value[k] = this.zeroOf(n.additionalProperties);
      }
      return;
    }
    const props = n.properties ?? {};
    for (const [k, v] of Object.entries(value)) {
      const child = props[k];
      if (child === undefined) {
        if (n.preserveUnknownFields) continue;
        delete value[k];
        r.unknownFields.push(at(k));
        continue;
      }
      if (!this.walk(v, child, at(k), r)) delete value[k];
    }
    for (const [k, child] of Object.entries(props)) {
      if (value[k] === undefined && child.default !== undefined) value[k] = structuredClone(child.default);
    }
  }

  validate(obj: ApiObject): FieldError[] {
    const errs: FieldError[] = [];
    this.check(obj, this.root, null, errs);
    return errs;
  }

  private check(value: unknown, node: SchemaNode, path: FieldPath | null, errs: FieldError[]): void {
    const n = this.resolve(node);
    if (value === undefined || value === null) return;
    if (n.enum !== undefined && (typeof value === 'string' || typeof value === 'number')) {
      if (!n.enum.includes(value)) errs.push(notSupported(path ?? newPath(''), value, n.enum.map(String)));
    }
    if (n.type === 'array' && Array.isArray(value) && n.items !== undefined) {
      const items = n.items;
      for (let i = 0; i < value.length; i++)
        this.check(value[i], items, (path ?? newPath('')).index(i), errs);
    }
    if (n.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
      const rec = value as Record<string, unknown>;
      for (const k of n.required ?? []) {
        if (rec[k] === undefined || rec[k] === null || rec[k] === '') {
          errs.push(required(path === null ? newPath(k) : path.child(k), ''));
        }
      }
      for (const [k, child] of Object.entries(n.properties ?? {})) {
        if (k === 'metadata' && path === null) continue;
        this.check(rec[k], child, path === null ? newPath(k) : path.child(k), errs);
      }
    }
  }
}

function firstBadBase64Byte(s: string): number {
  for (let i = 0; i < s.length; i++) if (!/[A-Za-z0-9+/=]/.test(s[i])) return i;
  return s.length - (s.length % 4);
}

export function compileKindSchema(
  input: KindSchemaInput,
): KindSchema & { resolve(n: SchemaNode): SchemaNode } {
  return new Compiled(input.group, input.version, input.kind, input);
}
