// A schema node seen as a protobuf message: its fields in wire order and by number, each with what
// its value is on the wire. Built once per node (per definition table) on first use, so the hot path
// only walks prepared arrays.

import type { SchemaNode } from '../../schema/types.ts';
import { ProtobufError } from './errors.ts';

/** What one value is on the wire (a singular field's value, a list item, a map value). */
export type ElemKind =
  | 'string'
  | 'bytes'
  | 'int'
  | 'bool'
  | 'double'
  | 'message'
  | 'time'
  | 'microtime'
  | 'intorstring'
  | 'quantity'
  | 'fieldsv1'
  | 'rawextension'
  | 'stringlist';

export interface Elem {
  kind: ElemKind;
  /** The message's plan, for kind 'message' (resolved lazily: definitions may refer to themselves). */
  message?: () => MessagePlan;
  /** Decodes as Go's int32 (low 32 bits). */
  int32?: boolean;
}

export interface FieldPlan {
  name: string;
  num: number;
  shape: 'single' | 'list' | 'map';
  elem: Elem;
  pointer: boolean;
  keepZero: boolean;
}

/** A Go struct embedded inline in JSON but nested on the wire: its fields sit in the parent object. */
export interface InlinePlan {
  num: number;
  inline: MessagePlan;
}

export type Slot = FieldPlan | InlinePlan;

export interface MessagePlan {
  /** In field-number order, as Go's generated marshalers write them. */
  slots: Slot[];
  byNum: Map<number, Slot>;
  /** Every field that lands in this object (inline ones included), in the schema's property order. */
  props: FieldPlan[];
}

export type Definitions = Readonly<Record<string, SchemaNode>>;

const plans = new WeakMap<Definitions, WeakMap<SchemaNode, MessagePlan>>();

function resolve(node: SchemaNode, defs: Definitions): SchemaNode {
  if (node.ref === undefined) return node;
  const target = defs[node.ref];
  if (target === undefined) throw new ProtobufError(`schema refers to unknown definition ${node.ref}`);
  return target;
}

function elemOf(node: SchemaNode, defs: Definitions, where: string): Elem {
  if (node.protoType === 'FieldsV1') return { kind: 'fieldsv1' };
  if (node.protoType === 'RawExtension') return { kind: 'rawextension' };
  if (node.protoType === 'StringList') return { kind: 'stringlist' };
  const n = resolve(node, defs);
  const goType = node.goType ?? n.goType;
  if (goType === 'v1.Time' || node.ref === 'Time') return { kind: 'time' };
  if (goType === 'v1.MicroTime' || node.ref === 'MicroTime') return { kind: 'microtime' };
  if (goType === 'resource.Quantity') return { kind: 'quantity' };
  if (n.intOrString) return { kind: 'intorstring' };
  switch (n.type) {
    case 'string':
      return { kind: n.format === 'byte' ? 'bytes' : 'string' };
    case 'integer':
      return { kind: 'int', int32: n.format === 'int32' };
    case 'number':
      return { kind: 'double' };
    case 'boolean':
      return { kind: 'bool' };
    case 'object':
      if (
        n.properties !== undefined ||
        n.protoProperties !== undefined ||
        node.protoProperties !== undefined
      ) {
        const target = node.protoProperties !== undefined ? node : n;
        // Resolved on first use (schemas recurse) and then kept: every message value written or
        // read asks for its plan, and the plan cache's two WeakMap lookups showed in profiles.
        let resolved: MessagePlan | undefined;
        return { kind: 'message', message: () => (resolved ??= messagePlan(target, defs)) };
      }
      break;
  }
  throw new ProtobufError(`${where} has no protobuf form`);
}

function fieldOf(name: string, node: SchemaNode, defs: Definitions): FieldPlan {
  const num = node.proto as number;
  const n = resolve(node, defs);
  const base = { name, num, pointer: node.protoPointer === true, keepZero: node.protoKeepZero === true };
  if (n.type === 'array' && node.protoType !== 'StringList') {
    if (n.items === undefined) throw new ProtobufError(`${name} is a list without an item schema`);
    return { ...base, shape: 'list', elem: elemOf(n.items, defs, `${name}[]`) };
  }
  const isMessage = n.properties !== undefined || n.protoProperties !== undefined;
  if (n.type === 'object' && n.additionalProperties !== undefined && !isMessage && !n.intOrString) {
    return { ...base, shape: 'map', elem: elemOf(n.additionalProperties, defs, `${name}{}`) };
  }
  return { ...base, shape: 'single', elem: elemOf(node, defs, name) };
}

/** The plan of a message node (an object node with properties, or protoProperties). */
export function messagePlan(node: SchemaNode, defs: Definitions): MessagePlan {
  let byDefs = plans.get(defs);
  if (byDefs === undefined) {
    byDefs = new WeakMap();
    plans.set(defs, byDefs);
  }
  const cached = byDefs.get(node);
  if (cached !== undefined) return cached;

  const props = node.protoProperties ?? node.properties ?? {};
  const plan: MessagePlan = { slots: [], byNum: new Map(), props: [] };
  const inlines = new Map<number, MessagePlan>();
  for (const [name, child] of Object.entries(props)) {
    if (child.proto === undefined) continue;
    const field = fieldOf(name, child, defs);
    plan.props.push(field);
    if (child.protoInline === undefined) {
      plan.byNum.set(field.num, field);
      continue;
    }
    let inline = inlines.get(child.protoInline);
    if (inline === undefined) {
      inline = { slots: [], byNum: new Map(), props: [] };
      inlines.set(child.protoInline, inline);
      plan.byNum.set(child.protoInline, { num: child.protoInline, inline });
    }
    inline.slots.push(field);
    inline.byNum.set(field.num, field);
    inline.props.push(field);
  }
  for (const inline of inlines.values()) inline.slots.sort((a, b) => a.num - b.num);
  plan.slots = [...plan.byNum.values()].sort((a, b) => a.num - b.num);
  byDefs.set(node, plan);
  return plan;
}

export const isInline = (slot: Slot): slot is InlinePlan => 'inline' in slot;
