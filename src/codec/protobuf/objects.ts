// Whole bodies: a kind's object, its list and the meta/v1 messages, in and out of the envelope.
// The envelope's typeMeta is filled from the schema on the way out, as upstream fills it from the
// object's group version kind, and names the decoded object's apiVersion and kind on the way in.

import type { ApiObject } from '../../machinery/object.ts';
import type { KindSchema, SchemaNode } from '../../schema/types.ts';
import { readMessage } from './decode.ts';
import { writeMessage } from './encode.ts';
import {
  decodeEnvelope,
  ENVELOPE_TAIL,
  envelopeHead,
  type TypeMeta,
  writeEnvelopeHeader,
} from './envelope.ts';
import { ProtobufError } from './errors.ts';
import { META_KINDS, META_MESSAGES, type MetaKind } from './meta-messages.ts';
import { type Definitions, type MessagePlan, messagePlan } from './plan.ts';
import { WIRE_BYTES, Writer } from './wire.ts';

/** The schemas a decoder may need: the kind an envelope names, or undefined when not served. */
export type SchemaLookup = (apiVersion: string, kind: string) => KindSchema | undefined;

/** What encoding and decoding need of a kind's schema. */
export type KindMessages = Pick<KindSchema, 'group' | 'version' | 'kind' | 'root' | 'definitions'>;

export function apiVersionOf(schema: Pick<KindSchema, 'group' | 'version'>): string {
  return schema.group === '' ? schema.version : `${schema.group}/${schema.version}`;
}

const listNodes = new WeakMap<SchemaNode, SchemaNode>();

/** A kind's list as a message: ListMeta = 1, items = 2 (the kind's message, repeated). */
function listNode(root: SchemaNode): SchemaNode {
  let node = listNodes.get(root);
  if (node === undefined) {
    node = {
      type: 'object',
      properties: {
        metadata: { ref: 'ListMeta', proto: 1 },
        items: { type: 'array', items: root, proto: 2 },
      },
    };
    listNodes.set(root, node);
  }
  return node;
}

function plan(node: SchemaNode, defs: Definitions): MessagePlan {
  return messagePlan(node, defs);
}

/** Runs an encode or decode, turning a stack overflow (a cyclic schema, absurd nesting) into our error. */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof RangeError) throw new ProtobufError(`protobuf: ${err.message}`);
    throw err;
  }
}

function asRecord(obj: unknown, what: string): Record<string, unknown> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new ProtobufError(`${what}: expected an object`);
  }
  return obj as Record<string, unknown>;
}

/** The magic, the Unknown header and the message written by `body`, in one buffer. */
function enveloped(type: TypeMeta, body: (w: Writer) => void, sizeHint = 512): Buffer {
  const w = new Writer(sizeHint);
  writeEnvelopeHeader(w, type);
  const raw = w.begin();
  body(w);
  w.finish(raw);
  w.raw(ENVELOPE_TAIL);
  return w.finishBuffer();
}

/** The kind's message alone, without the envelope (a list item, a cached watch object's payload). */
export function encodeMessage(schema: KindMessages, obj: ApiObject): Buffer {
  return guarded(() => {
    const w = new Writer();
    writeMessage(w, plan(schema.root, schema.definitions), asRecord(obj, schema.kind));
    return w.finishBuffer();
  });
}

/** A kind's message (no envelope) as its JSON object, without apiVersion and kind. */
export function decodeMessage(schema: KindMessages, raw: Uint8Array): ApiObject {
  return guarded(() => readMessage(plan(schema.root, schema.definitions), raw));
}

/** An object of the schema's kind as a protobuf body. */
export function encodeProtobuf(schema: KindMessages, obj: ApiObject): Buffer {
  const p = plan(schema.root, schema.definitions);
  const record = asRecord(obj, schema.kind);
  return guarded(() =>
    enveloped({ apiVersion: apiVersionOf(schema), kind: schema.kind }, (w) => writeMessage(w, p, record)),
  );
}

/** A list of the schema's kind (`{metadata, items}`) as a protobuf body of kind `<Kind>List`. */
export function encodeProtobufList(schema: KindMessages, list: ApiObject): Buffer {
  const p = plan(listNode(schema.root), schema.definitions);
  const record = asRecord(list, `${schema.kind}List`);
  return guarded(() =>
    enveloped(
      { apiVersion: apiVersionOf(schema), kind: `${schema.kind}List` },
      (w) => writeMessage(w, p, record),
      4096,
    ),
  );
}

/** The list message's fields for pre-encoded items: for writing a list body in pieces. */
export function encodeListMetaField(schema: KindMessages, listMeta: unknown): Buffer {
  const p = plan(listNode(schema.root), schema.definitions);
  return guarded(() => {
    const w = new Writer(64);
    writeMessage(w, { ...p, slots: p.slots.filter((s) => s.num === 1) }, { metadata: listMeta ?? {} });
    return w.finishBuffer();
  });
}

/** One item of a list message (field 2) around an item message from `encodeMessage`. */
export function encodeListItemField(itemMessage: Uint8Array): Buffer {
  const w = new Writer(itemMessage.length + 6);
  w.tag(2, WIRE_BYTES);
  w.bytes(itemMessage);
  return w.finishBuffer();
}

/**
 * A list body in pieces, from item messages encoded earlier (`encodeMessage`, perhaps cached): the
 * concatenation equals `encodeProtobufList` of the same list, without holding a second copy of it.
 */
export function encodeProtobufListChunks(
  schema: KindMessages,
  listMeta: unknown,
  itemMessages: readonly Uint8Array[],
): Buffer[] {
  const meta = encodeListMetaField(schema, listMeta);
  const items = itemMessages.map(encodeListItemField);
  const rawLength = items.reduce((n, b) => n + b.length, meta.length);
  const head = envelopeHead({ apiVersion: apiVersionOf(schema), kind: `${schema.kind}List` }, rawLength);
  return [head, meta, ...items, Buffer.from(ENVELOPE_TAIL)];
}

/** A meta/v1 message (Status, DeleteOptions, PartialObjectMetadata, ...) as a protobuf body. */
export function encodeMetaProtobuf(kind: MetaKind, obj: ApiObject, apiVersion = 'v1'): Buffer {
  const p = plan(META_MESSAGES[kind], META_MESSAGES);
  const record = asRecord(obj, kind);
  return guarded(() => enveloped({ apiVersion, kind }, (w) => writeMessage(w, p, record)));
}

/** A Status (an error body, a delete's answer) as a protobuf body; its apiVersion is the object's. */
export function encodeStatus(status: ApiObject): Buffer {
  return encodeMetaProtobuf(
    'Status',
    status,
    typeof status.apiVersion === 'string' ? status.apiVersion : 'v1',
  );
}

function isMetaKind(kind: string): kind is MetaKind {
  return (META_KINDS as readonly string[]).includes(kind);
}

/**
 * A protobuf body as its JSON object. The envelope's typeMeta picks the schema: a served kind, its
 * `<Kind>List`, or a meta/v1 message (which upstream registers in every group version).
 */
export function decodeProtobuf(lookup: SchemaLookup, bytes: Uint8Array): ApiObject {
  const env = decodeEnvelope(bytes);
  const { apiVersion, kind } = env;
  if (kind === '') throw new ProtobufError(`Object 'Kind' is missing in protobuf envelope`);
  return guarded(() => {
    const schema = lookup(apiVersion, kind);
    if (schema !== undefined) {
      // A literal with both keys, then the fields: objects of one kind share V8's hidden classes
      // (spreading a second object gave each its own, about 430 bytes per cached object).
      return { apiVersion, kind, ...readMessage(plan(schema.root, schema.definitions), env.raw) };
    }
    if (kind.endsWith('List')) {
      const item = lookup(apiVersion, kind.slice(0, -4));
      if (item !== undefined) {
        return { apiVersion, kind, ...readMessage(plan(listNode(item.root), item.definitions), env.raw) };
      }
    }
    if (isMetaKind(kind))
      return { apiVersion, kind, ...readMessage(plan(META_MESSAGES[kind], META_MESSAGES), env.raw) };
    throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  });
}
