// A kind's schema, compiled once: one walk of the decoded body prunes unknown fields, fills
// defaults, finds wrong types and puts timestamps in their canonical form; a second, cheaper one
// checks required fields and enums. Built-in kinds decode into Go structs upstream, so an unknown
// field simply disappears and a wrong type is a decode error whose text names the innermost struct,
// the JSON path without map keys or indices, and the Go type:
// `json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`.
// This reproduces those texts without a type per kind. Nothing in here throws on any input.

import {
  type FieldError,
  type FieldPath,
  newPath,
  notSupported,
  required,
} from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';
import { base64Error, goBase64ErrorOffset } from './go-base64.ts';
import { parseGoTime } from './go-time.ts';
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
  /**
   * Definitions the kind refers to beyond the shared metadata ones; a function is called on first
   * use, so a large closure (the pod template) costs nothing until a request needs it.
   */
  definitions?: Record<string, SchemaNode> | (() => Record<string, SchemaNode>);
}

/** Where the walk is, for error texts: the struct being filled and the JSON field names so far. */
interface Context {
  struct: string;
  /** Dotted JSON field names, map keys and indices left out (Go's error field). */
  goField: string;
  /** The path unknown fields are reported under: `spec.items[0].name`, `data[key]`. */
  path: string;
}

const INT_RANGE: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  // 2^63 is the first double past int64's range.
  int64: [-(2 ** 63), 2 ** 63 - 1024],
};

function jsonTypeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'object') return 'object';
  return typeof v === 'number' ? 'number' : 'string';
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
}

class Compiled implements KindSchema {
  readonly root: SchemaNode;
  private resolved: Record<string, SchemaNode> | undefined;
  private readonly declared: KindSchemaInput['definitions'];

  get definitions(): Record<string, SchemaNode> {
    if (this.resolved === undefined) {
      const own = typeof this.declared === 'function' ? this.declared() : this.declared;
      this.resolved = { ...META_DEFINITIONS, ...own };
    }
    return this.resolved;
  }

  constructor(
    readonly group: string,
    readonly version: string,
    readonly kind: string,
    input: KindSchemaInput,
  ) {
    this.declared = input.definitions;
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
        // Every kind's message carries its metadata as field 1; apiVersion and kind travel in the envelope.
        metadata: { ref: 'ObjectMeta', description: "Standard object's metadata.", proto: 1 },
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

  /** The Go struct name a node decodes into: its definition's name, or one derived from the field. */
  private structName(node: SchemaNode, parent: string, field: string): string {
    if (node.goType !== undefined) return node.goType.replace(/^.*\./, '');
    if (node.ref !== undefined) return node.ref;
    return `${parent}${capitalize(field)}`;
  }

  /** Go's name of the type a node decodes into, as reflect prints it (`v1.ObjectMeta`, `[]uint8`). */
  private goType(node: SchemaNode, parent: string, field: string): string {
    if (node.goType !== undefined) return node.goType;
    const n = this.resolve(node);
    if (n.goType !== undefined) return n.goType;
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
        return `[]${n.items ? this.goType(n.items, parent, field) : 'interface {}'}`;
      case 'object':
        if (n.additionalProperties) return `map[string]${this.goType(n.additionalProperties, parent, field)}`;
        if (n.properties === undefined) return 'map[string]interface {}';
        return `v1.${this.structName(node, parent, field)}`;
      default:
        return 'interface {}';
    }
  }

  normalize(obj: ApiObject): NormalizeResult {
    const result: NormalizeResult = { unknownFields: [], typeErrors: [] };
    const value: unknown = obj;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      result.typeErrors.push(
        `json: cannot unmarshal ${value === null ? 'null' : jsonTypeOf(value)} into Go value of type v1.${this.kind}`,
      );
      return result;
    }
    try {
      this.walkObject(
        value as Record<string, unknown>,
        this.root,
        { struct: this.kind, goField: '', path: '' },
        result,
      );
    } catch (err) {
      // A body deep enough to exhaust the stack is not a Go value either.
      result.typeErrors.push(`json: ${err instanceof RangeError ? 'exceeded max depth' : String(err)}`);
    }
    return result;
  }

  /**
   * Checks `value` against `node` (reached through field `field` of the struct in `ctx`); returns
   * the value to keep: the same one, a canonical form, or undefined to drop the field (null).
   */
  private walk(value: unknown, node: SchemaNode, ctx: Context, field: string, r: NormalizeResult): unknown {
    if (value === null || value === undefined) return undefined;
    const n = this.resolve(node);
    if (n.preserveUnknownFields && n.type === undefined) return value;
    if (n.intOrString) {
      if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) return value;
      return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
    }
    switch (n.type) {
      case 'string':
        if (typeof value !== 'string') {
          // Time and MicroTime decode themselves: a non-string fails inside as a plain string would.
          if (n.format !== 'date-time') return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
          r.typeErrors.push(`json: cannot unmarshal ${jsonTypeOf(value)} into Go value of type string`);
          return value;
        }
        if (n.format === 'byte') {
          const at = goBase64ErrorOffset(value);
          if (at >= 0) {
            r.typeErrors.push(base64Error(at));
            return value;
          }
          // Upstream holds the bytes and writes them back in the canonical encoding (no line breaks).
          return /[\r\n]/.test(value)
            ? Buffer.from(value.replace(/[\r\n]/g, ''), 'base64').toString('base64')
            : value;
        }
        if (n.format === 'date-time') {
          const parsed = parseGoTime(value, n.goType === 'v1.MicroTime');
          if (!parsed.ok) {
            r.typeErrors.push(parsed.error);
            return value;
          }
          return parsed.canonical;
        }
        return value;
      case 'integer': {
        if (typeof value !== 'number') return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
        const [lo, hi] = INT_RANGE[n.format === 'int32' ? 'int32' : 'int64'];
        if (!Number.isInteger(value) || value < lo || value > hi)
          return this.mismatch(value, node, ctx, field, r, `number ${value}`);
        return value;
      }
      case 'number':
        if (typeof value !== 'number') return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
        return value;
      case 'boolean':
        if (typeof value !== 'boolean') return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
        return value;
      case 'array':
        if (!Array.isArray(value)) return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
        if (n.items !== undefined) {
          for (let i = 0; i < value.length; i++) {
            const item = this.walk(value[i], n.items, { ...ctx, path: `${ctx.path}[${i}]` }, field, r);
            value[i] = item === undefined ? this.zeroOf(n.items) : item;
          }
        }
        return value;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value))
          return this.mismatch(value, node, ctx, field, r, jsonTypeOf(value));
        if (n.additionalProperties !== undefined) {
          const map = value as Record<string, unknown>;
          for (const [k, v] of Object.entries(map)) {
            const item = this.walk(
              v,
              n.additionalProperties,
              { ...ctx, path: `${ctx.path}[${k}]` },
              field,
              r,
            );
            map[k] = item === undefined ? this.zeroOf(n.additionalProperties) : item;
          }
          return value;
        }
        if (n.properties === undefined) return value;
        this.walkObject(
          value as Record<string, unknown>,
          n,
          { ...ctx, struct: this.structName(node, ctx.struct, field) },
          r,
        );
        return value;
      default:
        return value;
    }
  }

  /**
   * Go writes optional maps and lists with `omitempty`: an empty one is not stored or shown (labels
   * emptied by `kubectl label x key-` disappear). Required ones, and structs, stay.
   */
  private omittedWhenEmpty(value: unknown, child: SchemaNode, key: string, parent: SchemaNode): boolean {
    if (parent.required?.includes(key)) return false;
    const n = this.resolve(child);
    if (Array.isArray(value)) return value.length === 0 && n.type === 'array';
    if (value === null || typeof value !== 'object') return false;
    return (
      n.additionalProperties !== undefined && n.properties === undefined && Object.keys(value).length === 0
    );
  }

  /** What Go leaves in a map entry or list item that was null: the element type's zero value. */
  private zeroOf(node: SchemaNode): unknown {
    const n = this.resolve(node);
    if (n.type === 'string') return '';
    if (n.type === 'integer' || n.type === 'number') return 0;
    if (n.type === 'boolean') return false;
    if (n.type === 'object' && n.properties !== undefined) return {};
    return null;
  }

  // A method rather than a closure in walk: a closure made for every value walked showed in the
  // rollout bench's profiles (under tsx, each also gets its name set).
  private mismatch(
    value: unknown,
    node: SchemaNode,
    ctx: Context,
    field: string,
    r: NormalizeResult,
    valueText: string,
  ): unknown {
    r.typeErrors.push(
      `json: cannot unmarshal ${valueText} into Go struct field ${ctx.struct}.${ctx.goField} of type ${this.goType(node, ctx.struct, field)}`,
    );
    return value;
  }

  private walkObject(value: Record<string, unknown>, n: SchemaNode, ctx: Context, r: NormalizeResult): void {
    const props = n.properties ?? {};
    for (const [k, v] of Object.entries(value)) {
      const child = Object.hasOwn(props, k) ? props[k] : undefined;
      if (child === undefined) {
        if (n.preserveUnknownFields) continue;
        delete value[k];
        r.unknownFields.push(ctx.path === '' ? k : `${ctx.path}.${k}`);
        continue;
      }
      const next: Context = {
        struct: ctx.struct,
        goField: ctx.goField === '' ? k : `${ctx.goField}.${k}`,
        path: ctx.path === '' ? k : `${ctx.path}.${k}`,
      };
      const kept = this.walk(v, child, next, k, r);
      if (kept === undefined || this.omittedWhenEmpty(kept, child, k, n)) delete value[k];
      else value[k] = kept;
    }
    for (const [k, child] of Object.entries(props)) {
      if (value[k] === undefined && child.default !== undefined) value[k] = structuredClone(child.default);
    }
  }

  validate(obj: ApiObject): FieldError[] {
    const errs: FieldError[] = [];
    try {
      this.check(obj, this.root, null, errs);
    } catch {
      // Only a body too deep for the stack gets here, and normalize has refused it already.
    }
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

export function compileKindSchema(
  input: KindSchemaInput,
): KindSchema & { resolve(n: SchemaNode): SchemaNode } {
  return new Compiled(input.group, input.version, input.kind, input);
}
