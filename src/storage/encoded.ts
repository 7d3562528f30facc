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

/** An object at rest in memory: its body and TypeMeta, and its resourceVersion as a number. */
export interface EncodedItem {
  /** The JSON text of the object without kind and apiVersion. */
  readonly body: string;
  /** The body's length in UTF-8 bytes (equal to its length in characters when it is ASCII). */
  readonly bytes: number;
  readonly typeMeta: TypeMeta;
  readonly revision: number;
}

/** Splits an object into its TypeMeta and the JSON of everything else. */
export function encodeBody(obj: ApiObject): { body: string; bytes: number; typeMeta: TypeMeta } {
  const { kind, apiVersion, ...rest } = obj;
  const typeMeta: TypeMeta = {};
  if (typeof kind === 'string') typeMeta.kind = kind;
  if (typeof apiVersion === 'string') typeMeta.apiVersion = apiVersion;
  const body = JSON.stringify(rest);
  return { body, bytes: Buffer.byteLength(body), typeMeta };
}

/** The object back from its body: a fresh, private copy. */
export function decodeBody(body: string, typeMeta: TypeMeta): ApiObject {
  const rest = JSON.parse(body) as ApiObject;
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
export function writeBody(item: EncodedItem, target: Buffer, offset: number): number {
  // ASCII (nearly every object) copies byte for byte; anything else is encoded.
  return target.write(item.body, offset, item.bytes, item.bytes === item.body.length ? 'latin1' : 'utf8');
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
export class EncodedObject implements EncodedItem {
  private decoded: ApiObject | undefined;
  private forms: Map<string, Buffer> | undefined;
  readonly body: string;
  readonly bytes: number;
  readonly typeMeta: TypeMeta;
  readonly revision: number;

  constructor(item: EncodedItem) {
    this.body = item.body;
    this.bytes = item.bytes;
    this.typeMeta = item.typeMeta;
    this.revision = item.revision;
  }

  get object(): ApiObject {
    this.decoded ??= deepFreeze(decodeBody(this.body, this.typeMeta));
    return this.decoded;
  }

  /** An encoding derived from the body, made on first request and shared after. */
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
