// Objects held as their JSON: the watch cache keeps every current object this way, so that a list
// of 100k objects is the concatenation of bytes it already has rather than an encoding of each, and
// so that an object costs its JSON's size in memory instead of several times that as a JS object
// graph. The JSON is the object's *body*: the object without its TypeMeta (kind and apiVersion),
// which is exactly how a list item is written on the wire; a single object or a watch event puts
// kind and apiVersion back in front.
//
// Where the body's bytes live is the holder's business (the cache packs neighbours' bodies into
// shared blocks, cacher/ordered-entries.ts); consumers read them through EncodedItem.

import type { ApiObject, ObjectMeta } from '../machinery/object.ts';
import { memberOf } from './json-members.ts';

/** The object's top-level kind and apiVersion, apart from its body. */
export interface TypeMeta {
  kind?: string;
  apiVersion?: string;
}

/** An object at rest in memory: its body's JSON, its TypeMeta, and its resourceVersion as a number. */
export interface EncodedItem {
  /** The body's length in UTF-8 bytes. */
  readonly bytes: number;
  readonly typeMeta: TypeMeta;
  readonly revision: number;
  /** The body's JSON text. */
  text(): string;
  /** Copies the body's bytes into `target` at `offset`; answers the bytes written (`bytes`). */
  copyTo(target: Buffer, offset: number): number;
}

/**
 * Consecutive items of a list already joined as the list writes them: their bodies separated by
 * commas, with no comma before the first or after the last.
 */
export interface JoinedItems {
  readonly joined: Buffer;
  readonly count: number;
}

/** A cache-served list as its writer takes it: items one by one, or runs already joined. */
export type EncodedRun = EncodedItem | JoinedItems;

export function isJoined(run: EncodedRun): run is JoinedItems {
  return (run as Partial<JoinedItems>).joined !== undefined;
}

/** Splits an object into its TypeMeta and the JSON of everything else. */
export function encodeBody(obj: ApiObject): { text: string; bytes: number; typeMeta: TypeMeta } {
  const { kind, apiVersion, ...rest } = obj;
  const typeMeta: TypeMeta = {};
  if (typeof kind === 'string') typeMeta.kind = kind;
  if (typeof apiVersion === 'string') typeMeta.apiVersion = apiVersion;
  const text = JSON.stringify(rest);
  return { text, bytes: Buffer.byteLength(text), typeMeta };
}

/** The object back from its body: a fresh, private copy. */
export function decodeBody(item: EncodedItem): ApiObject {
  const rest = JSON.parse(item.text()) as ApiObject;
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

/** `{"kind":"K","apiVersion":"V"` for withTypeMetaJson. */
export function typeMetaPrefix(kind: string, apiVersion: string): string {
  return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
}

/**
 * The metadata of the object a body encodes, parsing nothing else of it; with `only`, just those
 * of its members.
 */
export function metadataOfBody(body: string, only?: ReadonlySet<string>): ObjectMeta | undefined {
  return memberOf(body, 'metadata', only) as ObjectMeta | undefined;
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
  /** The metadata parsed alone, for consumers that read nothing else (the garbage collector). */
  private meta: { value: ObjectMeta | undefined } | undefined;
  private forms: Map<string, Buffer> | undefined;

  constructor(private readonly item: EncodedItem) {}

  /** The body's JSON text. */
  get body(): string {
    return this.item.text();
  }

  get revision(): number {
    return this.item.revision;
  }

  get object(): ApiObject {
    this.decoded ??= deepFreeze(decodeBody(this.item));
    return this.decoded;
  }

  /**
   * The object's metadata, as `object.metadata` would give it (frozen, shared in the same way), but
   * parsed from the body's metadata member alone while the object has not been decoded: a
   * controller that keeps a graph of owners should not decode every 3 MiB ConfigMap it sees.
   */
  get metadata(): ObjectMeta | undefined {
    if (this.decoded !== undefined) return this.decoded.metadata;
    this.meta ??= { value: deepFreeze(metadataOfBody(this.body)) };
    return this.meta.value;
  }

  /**
   * Just the metadata members `only` names, parsed alone from the body (or read off the object if
   * it was decoded): a controller that reads owners and finalizers skips a large object's
   * managedFields too. Not shared between callers; its values may be: read, never change.
   */
  metadataFields(only: ReadonlySet<string>): ObjectMeta | undefined {
    if (this.decoded === undefined) return metadataOfBody(this.body, only);
    const meta = this.decoded.metadata;
    if (meta === undefined || meta === null || typeof meta !== 'object') return meta;
    return Object.fromEntries(Object.entries(meta).filter(([k]) => only.has(k))) as ObjectMeta;
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
