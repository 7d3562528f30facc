// Objects held as their JSON: the watch cache keeps every current object this way, so that a list
// of 100k objects is the concatenation of bytes it already has rather than an encoding of each, and
// so that an object costs its JSON's size in memory instead of several times that as a JS object
// graph. The JSON is the object's *body*: the object without its TypeMeta (kind and apiVersion),
// which is exactly how a list item is written on the wire; a single object or a watch event puts
// kind and apiVersion back in front.

import type { ApiObject } from '../machinery/object.ts';

/** The object's top-level kind and apiVersion, apart from its body. */
export interface TypeMeta {
  kind?: string;
  apiVersion?: string;
}

/** An object at rest in memory: its body and TypeMeta, and its resourceVersion as a number. */
export interface EncodedItem {
  readonly body: Buffer;
  readonly typeMeta: TypeMeta;
  readonly revision: number;
}

/** Splits an object into its TypeMeta and the JSON of everything else. */
export function encodeBody(obj: ApiObject): { body: Buffer; typeMeta: TypeMeta } {
  const { kind, apiVersion, ...rest } = obj;
  const typeMeta: TypeMeta = {};
  if (typeof kind === 'string') typeMeta.kind = kind;
  if (typeof apiVersion === 'string') typeMeta.apiVersion = apiVersion;
  return { body: Buffer.from(JSON.stringify(rest)), typeMeta };
}

/** The object back from its body: a fresh, private copy. */
export function decodeBody(body: Buffer, typeMeta: TypeMeta): ApiObject {
  const rest = JSON.parse(body.toString('utf8')) as ApiObject;
  if (typeMeta.kind === undefined && typeMeta.apiVersion === undefined) return rest;
  return { ...typeMeta, ...rest };
}

/**
 * The JSON of `{...typeMeta, ...body}` with the TypeMeta first, in upstream's field order, made
 * from the body's bytes without decoding it. `prefix` is `{"kind":...,"apiVersion":...` (no
 * closing brace), as `typeMetaPrefix` makes it.
 */
export function withTypeMetaJson(prefix: string, body: Buffer): Buffer {
  // An empty body `{}` takes no separating comma.
  if (body.length === 2) return Buffer.from(`${prefix}}`);
  return Buffer.concat([Buffer.from(`${prefix},`), body.subarray(1)]);
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
  readonly body: Buffer;
  readonly typeMeta: TypeMeta;
  readonly revision: number;

  constructor(item: EncodedItem) {
    this.body = item.body;
    this.typeMeta = item.typeMeta;
    this.revision = item.revision;
  }

  get object(): ApiObject {
    this.decoded ??= deepFreeze(decodeBody(this.body, this.typeMeta));
    return this.decoded;
  }

  /** An encoding derived from the body, made on first request and shared after. */
  derived(id: string, make: (body: Buffer) => Buffer): Buffer {
    this.forms ??= new Map();
    let form = this.forms.get(id);
    if (form === undefined) {
      form = make(this.body);
      this.forms.set(id, form);
    }
    return form;
  }
}
