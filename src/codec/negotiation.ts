// Choosing the response encoding from Accept, and the request decoder from Content-Type, among the
// encodings an endpoint serves (its CodecSet: JSON and YAML everywhere; protobuf for built-in kinds;
// CBOR when its gate is on).

import { covers, parseAccept, parseMediaType } from './media-type.ts';
import { JSON_SERIALIZER, type Serializer, TEXT_SERIALIZERS } from './serializers.ts';

/** The encodings one endpoint serves. */
export interface CodecSet {
  /** In upstream's order: the first answers `*\/*` and reads bodies without a Content-Type. */
  serializers: readonly Serializer[];
  /** What 406 and 415 answers list: the served types, without aliases accepted for stock clients. */
  advertised: readonly string[];
}

/** JSON and YAML alone: what endpoints without binary encodings serve. */
export const TEXT_CODECS: CodecSet = {
  serializers: TEXT_SERIALIZERS,
  advertised: TEXT_SERIALIZERS.map((s) => s.mediaType),
};

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
  /** The encodings served; JSON and YAML when absent. */
  codecs?: CodecSet;
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
  const codecs = opts.codecs ?? TEXT_CODECS;
  for (const clause of parseAccept(accept)) {
    const serializer = codecs.serializers.find((s) => covers(clause.essence, s.mediaType));
    if (serializer === undefined) continue;
    const { as, g, v, ...rest } = clause.params;
    if (Object.keys(rest).some((k) => !NEUTRAL_PARAMS.has(k))) continue;
    if (as === undefined) {
      if (g !== undefined || v !== undefined) continue;
      return { serializer };
    }
    if (!opts.tables || g === undefined || v === undefined || !opts.metaGroups.includes(g)) continue;
    if (!(CONVERSION_VERSIONS[as] ?? []).includes(v)) continue;
    // A Table has no protobuf message upstream: such a clause is passed over for the next one.
    if (as === 'Table' && serializer.binary && !serializer.schemaless) continue;
    if (as === 'Table') return { serializer, conversion: { as: 'Table', group: g, version: v } };
    if (as === (opts.list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata')) {
      return { serializer, conversion: { as: 'PartialObjectMetadata', group: g, version: v } };
    }
  }
  throw new NotAcceptableError([...codecs.advertised]);
}

/** The Content-Type of a watch stream in `s`, or undefined when it has no stream framing (YAML). */
export function streamMediaTypeOf(s: Serializer): string | undefined {
  if (s.binary) return s.streamMediaType;
  return s === JSON_SERIALIZER ? s.mediaType : undefined;
}

/**
 * The encoding of a watch stream: negotiated as any response, but only among encodings with stream
 * framing; a 406 lists the stream media types (`application/json;stream=watch`, ...), as upstream's.
 */
export function negotiateStream(accept: string | undefined, opts: OutputOptions): OutputChoice {
  const codecs = opts.codecs ?? TEXT_CODECS;
  const refuse = () => {
    const types = codecs.serializers
      .filter((s) => codecs.advertised.includes(s.mediaType) && streamMediaTypeOf(s) !== undefined)
      .map((s) => (s.binary ? s.streamMediaType : `${s.mediaType};stream=watch`));
    return new NotAcceptableError(types);
  };
  let choice: OutputChoice;
  try {
    choice = negotiateOutput(accept, opts);
  } catch (err) {
    if (err instanceof NotAcceptableError) throw refuse();
    throw err;
  }
  if (streamMediaTypeOf(choice.serializer) === undefined) throw refuse();
  return choice;
}

/** The decoder for a request body; the first (JSON) when Content-Type is absent, as upstream does. */
export function negotiateInput(contentType: string | undefined, codecs: CodecSet = TEXT_CODECS): Serializer {
  if (contentType === undefined || contentType.trim() === '') return codecs.serializers[0];
  const m = parseMediaType(contentType);
  const serializer = m === null ? undefined : codecs.serializers.find((s) => s.mediaType === m.essence);
  if (serializer === undefined) throw new UnsupportedMediaTypeError(contentType, [...codecs.advertised]);
  return serializer;
}
