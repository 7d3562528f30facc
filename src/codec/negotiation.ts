// Choosing the response encoding from Accept, and the request decoder from Content-Type.

import { covers, parseAccept, parseMediaType } from './media-type.ts';
import { JSON_SERIALIZER, SERVED_MEDIA_TYPES, type Serializer, serializerFor } from './serializers.ts';

/** A representation other than the object itself, asked for with `;as=...;g=...;v=...`. */
export interface Conversion {
  /** A Table of rows, or the objects' metadata alone (PartialObjectMetadata, for lists ...List). */
  as: 'Table' | 'PartialObjectMetadata';
  group: string;
  version: string;
}

/** Versions of the meta API each representation is served in. */
const CONVERSION_VERSIONS: Record<string, readonly string[]> = {
  Table: ['v1', 'v1beta1'],
  PartialObjectMetadata: ['v1', 'v1beta1'],
  PartialObjectMetadataList: ['v1', 'v1beta1'],
};

export interface OutputChoice {
  serializer: Serializer;
  conversion?: Conversion;
}

export interface OutputOptions {
  /** Groups that name the meta API in `g=` (the profile's and upstream's). */
  metaGroups: readonly string[];
  /** Whether this endpoint can answer with a Table (get and list of resources). */
  tables: boolean;
  /** For resource endpoints: whether the answer is a list (PartialObjectMetadataList) or one object. */
  list?: boolean;
}

/** Parameters that never change what is served. */
const NEUTRAL_PARAMS = new Set(['charset', 'pretty', 'stream']);

export class NotAcceptableError extends Error {
  override name = 'NotAcceptableError';
  constructor(readonly accepted: string[]) {
    super(`only the following media types are accepted: ${accepted.join(', ')}`);
  }
}

export class UnsupportedMediaTypeError extends Error {
  override name = 'UnsupportedMediaTypeError';
  constructor(
    readonly contentType: string,
    readonly accepted: string[],
  ) {
    super(
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    );
  }
}

/** The best clause of Accept that we can serve; NotAcceptableError when there is none. */
export function negotiateOutput(accept: string | undefined, opts: OutputOptions): OutputChoice {
  for (const clause of parseAccept(accept)) {
    const concrete = SERVED_MEDIA_TYPES.find((t) => covers(clause.essence, t));
    if (concrete === undefined) continue;
    const serializer = serializerFor(concrete)!;
    const { as, g, v, ...rest } = clause.params;
    if (Object.keys(rest).some((k) => !NEUTRAL_PARAMS.has(k))) continue;
    if (as === undefined) {
      if (g !== undefined || v !== undefined) continue;
      return { serializer };
    }
    if (!opts.tables || g === undefined || v === undefined || !opts.metaGroups.includes(g)) continue;
    if (!(CONVERSION_VERSIONS[as] ?? []).includes(v)) continue;
    if (as === 'Table') return { serializer, conversion: { as: 'Table', group: g, version: v } };
    if (as === (opts.list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata')) {
      return { serializer, conversion: { as: 'PartialObjectMetadata', group: g, version: v } };
    }
  }
  throw new NotAcceptableError(SERVED_MEDIA_TYPES);
}

/** The decoder for a request body; JSON when Content-Type is absent, as upstream does. */
export function negotiateInput(contentType: string | undefined): Serializer {
  if (contentType === undefined || contentType.trim() === '') return JSON_SERIALIZER;
  const m = parseMediaType(contentType);
  const serializer = m === null ? undefined : serializerFor(m.essence);
  if (serializer === undefined) throw new UnsupportedMediaTypeError(contentType, SERVED_MEDIA_TYPES);
  return serializer;
}
