// Request and response bodies on the client side, in the encodings ClientConnectionConfiguration
// names: `contentType` for what the client sends, `acceptContentTypes` for what it asks back. JSON
// always works; protobuf (the profile's media type or upstream's, which the server treats as one)
// reuses the server's codec and needs the kinds' schemas, so an object without a protobuf message
// (a custom resource) is sent as JSON, as client-go's dynamic client does, and a server that answers
// JSON to a protobuf Accept (custom resources again) is read as JSON.

import { protobufSerializer } from '../codec/binary-serializers.ts';
import { parseMediaType } from '../codec/media-type.ts';
import type { SchemaLookup } from '../codec/protobuf/index.ts';
import type { BinarySerializer } from '../codec/serializers.ts';
import { namingProfile, UPSTREAM_ALIASES } from '../naming/index.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { builtinSchemaLookup } from './protobuf-schemas.ts';

export const JSON_MEDIA_TYPE = 'application/json';

export interface ClientCodecOptions {
  /** Media type of request bodies (default JSON). */
  contentType?: string;
  /** The Accept header, comma-separated (default: the content type, and JSON after protobuf). */
  acceptContentTypes?: string;
  /** Schemas for protobuf; default: the built-in kinds under `profile`. */
  protobufSchemas?: SchemaLookup;
  profile?: NamingProfile;
}

/** Whether a media type (parameters allowed) is protobuf under either name. */
export function isProtobufMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return false;
  const essence = parseMediaType(mediaType)?.essence;
  return (
    essence === UPSTREAM_ALIASES.protobufMediaType || essence === namingProfile('spec').protobufMediaType
  );
}

/** A body the client cannot read: not in a media type it knows, or malformed in one it does. */
export class ResponseDecodeError extends Error {
  override name = 'ResponseDecodeError';
}

export class ClientCodec {
  readonly contentType: string;
  readonly accept: string;
  private lookup: Promise<SchemaLookup> | undefined;
  private serializer: Promise<BinarySerializer> | undefined;

  constructor(private readonly opts: ClientCodecOptions = {}) {
    this.contentType = opts.contentType || JSON_MEDIA_TYPE;
    const protobuf = isProtobufMediaType(this.contentType);
    this.accept =
      opts.acceptContentTypes || (protobuf ? `${this.contentType}, ${JSON_MEDIA_TYPE}` : this.contentType);
    if (!protobuf && this.contentType !== JSON_MEDIA_TYPE)
      throw new Error(`unsupported content type "${this.contentType}": use ${JSON_MEDIA_TYPE} or protobuf`);
  }

  /** Whether responses may come in protobuf (the schemas are loaded then). */
  get wantsProtobuf(): boolean {
    return (
      isProtobufMediaType(this.contentType) ||
      this.accept.split(',').some((t) => isProtobufMediaType(t.trim()))
    );
  }

  private schemas(): Promise<SchemaLookup> {
    this.lookup ??= this.opts.protobufSchemas
      ? Promise.resolve(this.opts.protobufSchemas)
      : builtinSchemaLookup(this.opts.profile ?? namingProfile('spec'));
    return this.lookup;
  }

  private protobuf(): Promise<BinarySerializer> {
    const mediaType = isProtobufMediaType(this.contentType)
      ? this.contentType
      : UPSTREAM_ALIASES.protobufMediaType;
    this.serializer ??= this.schemas().then((lookup) => protobufSerializer(mediaType, lookup));
    return this.serializer;
  }

  /** The body and its Content-Type: protobuf when configured and the kind has a message, else JSON. */
  async encode(value: unknown): Promise<{ body: string | Buffer; contentType: string }> {
    if (isProtobufMediaType(this.contentType)) {
      const obj = value as { apiVersion?: unknown; kind?: unknown };
      const lookup = await this.schemas();
      const known =
        obj.kind === 'Status' ||
        obj.kind === 'DeleteOptions' ||
        lookup(String(obj.apiVersion ?? ''), String(obj.kind ?? '')) !== undefined;
      if (known) return { body: (await this.protobuf()).encode(value), contentType: this.contentType };
    }
    return { body: JSON.stringify(value), contentType: JSON_MEDIA_TYPE };
  }

  /** A response body by its Content-Type. */
  async decode(body: Uint8Array, contentType: string | undefined): Promise<unknown> {
    if (isProtobufMediaType(contentType)) return this.decodeProtobuf(body);
    const essence = contentType === undefined ? undefined : parseMediaType(contentType)?.essence;
    if (essence !== undefined && essence !== JSON_MEDIA_TYPE && !essence.endsWith('+json'))
      throw new ResponseDecodeError(`unexpected response content type "${contentType}"`);
    try {
      return JSON.parse(Buffer.from(body).toString('utf8'));
    } catch (err) {
      throw new ResponseDecodeError(`invalid JSON in response: ${(err as Error).message}`);
    }
  }

  /** One enveloped protobuf body (a watch event's object, or a whole response). */
  async decodeProtobuf(body: Uint8Array): Promise<unknown> {
    const serializer = await this.protobuf();
    try {
      return serializer.decodeChecked(Buffer.from(body)).value;
    } catch (err) {
      throw new ResponseDecodeError((err as Error).message);
    }
  }
}
