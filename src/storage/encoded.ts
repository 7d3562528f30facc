// Objects held as their JSON: the watch cache keeps every current object this way, so that a list
// of 100k objects is the concatenation of bytes it already has rather than an encoding of each, and
// so that an object costs its JSON's size in memory instead of several times that as a JS object
// graph. The JSON is the object's *body*: the object without its TypeMeta (kind and apiVersion),
// which is exactly how a list item is written on the wire; a single object or a watch event puts
// kind and apiVersion back in front.
//
// A body is a JS string, not a Buffer: V8 keeps ASCII text at one byte a character inside its own
// heap, which it compacts, while a small Buffer is a slice of a shared 8 KiB slab that stays alive
// as long as any slice of it does, so long-lived bodies cut between short-lived allocations pinned
// whole slabs (measured: 7.8 KB resident per 1.4 KB object on etcd, where gRPC allocates from the
// same pool).

import type { ApiObject } from '../machinery/object.ts';

/** The object's top-level kind and apiVersion, apart from its body. */
export interface TypeMeta {
  kind?: string;
  apiVersion?: string;
}

/**
 * An object at rest in memory: its body and TypeMeta, and its resourceVersion as a number. The
 * body's text is `body`, or, for an object with managedFields, `body + shared + rest`: the
 * managedFields' JSON is one string shared by every object whose entries are the same (objects
 * written by one client in one second), as much as a third of a small object.
 */
export interface EncodedItem {
  readonly body: string;
  readonly shared?: string;
  readonly rest?: string;
  /** The whole body's length in UTF-8 bytes (equal to its length in characters when it is ASCII). */
  readonly bytes: number;
  readonly typeMeta: TypeMeta;
  readonly revision: number;
}

/** The parts of an encoded body, for EncodedItem. */
export type BodyParts = Pick<EncodedItem, 'body' | 'shared' | 'rest' | 'bytes'>;

/** Stands in for managedFields while the rest of the object is encoded. */
const MARK = '\u0000managedFields\u0000';
const MARK_JSON = JSON.stringify(MARK);

/**
 * A copy of a piece of a longer string that does not keep the longer one alive (V8 represents a
 * slice as a view of its parent).
 */
function detached(text: string, ascii: boolean): string {
  return ascii ? Buffer.from(text, 'latin1').toString('latin1') : Buffer.from(text).toString();
}

/**
 * Splits an object into its TypeMeta and the JSON of everything else; `share` hands back one
 * string for equal managedFields texts.
 */
export function encodeBody(
  obj: ApiObject,
  share?: (managedFieldsJson: string) => string,
): BodyParts & { typeMeta: TypeMeta } {
  const { kind, apiVersion, ...rest } = obj;
  const typeMeta: TypeMeta = {};
  if (typeof kind === 'string') typeMeta.kind = kind;
  if (typeof apiVersion === 'string') typeMeta.apiVersion = apiVersion;
  const meta = rest.metadata;
  const managed = meta?.managedFields;
  if (share !== undefined && meta !== undefined && Array.isArray(managed) && managed.length > 0) {
    const text = JSON.stringify({ ...rest, metadata: { ...meta, managedFields: MARK } });
    const at = text.indexOf(MARK_JSON);
    // Only where the mark is unambiguous: a user's string could hold the same characters.
    if (at !== -1 && text.lastIndexOf(MARK_JSON) === at) {
      const shared = share(JSON.stringify(managed));
      const bytes = Buffer.byteLength(text) - MARK_JSON.length + Buffer.byteLength(shared);
      const ascii = bytes === text.length - MARK_JSON.length + shared.length;
      return {
        body: detached(text.slice(0, at), ascii),
        shared,
        rest: detached(text.slice(at + MARK_JSON.length), ascii),
        bytes,
        typeMeta,
      };
    }
  }
  const body = JSON.stringify(rest);
  return { body, bytes: Buffer.byteLength(body), typeMeta };
}

/** The whole body's JSON text. */
export function bodyText(item: BodyParts): string {
  return item.shared === undefined ? item.body : item.body + item.shared + (item.rest ?? '');
}

/** The object back from its body: a fresh, private copy. */
export function decodeBody(item: BodyParts & { typeMeta: TypeMeta }): ApiObject {
  const rest = JSON.parse(bodyText(item)) as ApiObject;
  const { typeMeta } = item;
  if (typeMeta.kind === undefined && typeMeta.apiVersion === undefined) return rest;
  return { ...typeMeta, ...rest };
}

/**
 * The JSON of `{...typeMeta, ...body}` with the TypeMeta first, in upstream's field order, made
 * from the body's text without decoding it. `prefix` is `{"kind":...,"apiVersion":...` (no
 * closing brace), as `typeMetaPrefix` makes it.
 */
export function withTypeMetaJson(prefix: string, body: string): Buffer {
  // An empty body `{}` takes no separating comma.
  if (body.length === 2) return Buffer.from(`${prefix}}`);
  return Buffer.from(`${prefix},${body.slice(1)}`);
}

/** Copies a body into `target` at `offset` as UTF-8; answers the bytes written. */
export function writeBody(item: BodyParts, target: Buffer, offset: number): number {
  const { body, shared, rest } = item;
  const length = body.length + (shared?.length ?? 0) + (rest?.length ?? 0);
  // ASCII (nearly every object) copies byte for byte; anything else is encoded.
  const encoding = item.bytes === length ? 'latin1' : 'utf8';
  let at = offset + target.write(body, offset, encoding);
  if (shared !== undefined) at += target.write(shared, at, encoding);
  if (rest !== undefined) at += target.write(rest, at, encoding);
  return at - offset;
}

/** `{"kind":"K","apiVersion":"V"` for withTypeMetaJson. */
export function typeMetaPrefix(kind: string, apiVersion: string): string {
  return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One object as an event carries it to every watcher: its body, decoded at most once (frozen, since
 * every watcher shares it) and only for consumers that want the object rather than bytes, plus a
 * place to keep encodings made from the body so that each is made once however many clients watch.
 * Short-lived by design: it lives as long as some watcher's queue holds the event.
 */
export class EncodedObject {
  private decoded: ApiObject | undefined;
  private forms: Map<string, Buffer> | undefined;

  constructor(private readonly item: EncodedItem) {}

  /** The whole body's JSON text. */
  get body(): string {
    return bodyText(this.item);
  }

  get revision(): number {
    return this.item.revision;
  }

  get object(): ApiObject {
    this.decoded ??= deepFreeze(decodeBody(this.item));
    return this.decoded;
  }

  /** An encoding derived from the body's text, made on first request and shared after. */
  derived(id: string, make: (body: string) => Buffer): Buffer {
    this.forms ??= new Map();
    let form = this.forms.get(id);
    if (form === undefined) {
      form = make(this.body);
      this.forms.set(id, form);
    }
    return form;
  }
}
