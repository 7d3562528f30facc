// The encodings this server serves, built once at startup: JSON and YAML everywhere; protobuf for
// built-in kinds, under the profile's media type and upstream's (which stock clients hard-code);
// CBOR when the CBORServingAndStorage gate is on. Upstream's order: JSON, YAML, protobuf, CBOR.

import { CBOR_SERIALIZER, protobufSerializer } from '../codec/binary-serializers.ts';
import type { CodecSet } from '../codec/negotiation.ts';
import { apiVersionOf } from '../codec/protobuf/index.ts';
import { type Serializer, TEXT_SERIALIZERS } from '../codec/serializers.ts';
import { UPSTREAM_ALIASES } from '../naming/index.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { KindSchema } from '../schema/types.ts';
import type { ServedResources } from './served-resources.ts';

export interface ServerCodecs {
  /** Built-in kinds: every encoding. */
  builtin: CodecSet;
  /** Kinds without protobuf messages (custom resources, aggregated types): no protobuf, as upstream. */
  withoutProtobuf: CodecSet;
  /** Whether CBOR is served (its gate). */
  cbor: boolean;
}

function codecSet(serializers: Serializer[], hidden: ReadonlySet<string>): CodecSet {
  const advertised = serializers.map((s) => s.mediaType).filter((t) => !hidden.has(t));
  return { serializers, advertised: [...new Set(advertised)] };
}

/** Every served kind's schema (and its sub-resources' views) by apiVersion and kind. */
function schemaLookup(served: ServedResources): (apiVersion: string, kind: string) => KindSchema | undefined {
  const byType = new Map<string, KindSchema>();
  const add = (schema: KindSchema) => byType.set(`${apiVersionOf(schema)} ${schema.kind}`, schema);
  // Aliases too: a protobuf body names the group of the path it was sent to.
  for (const { kind } of [...served.list, ...served.aliases]) {
    add(kind.schema);
    for (const view of Object.values(kind.views ?? {})) add(view.schema);
    for (const a of Object.values(kind.actions ?? {}))
      for (const s of [a.schema, ...(a.aliases ?? [])]) add(s);
  }
  return (apiVersion, kind) => byType.get(`${apiVersion} ${kind}`);
}

export function serverCodecs(profile: NamingProfile, served: ServedResources, cbor: boolean): ServerCodecs {
  const lookup = schemaLookup(served);
  const own = protobufSerializer(profile.protobufMediaType, lookup);
  const upstreamType = UPSTREAM_ALIASES.protobufMediaType;
  const protobuf = upstreamType === own.mediaType ? [own] : [own, protobufSerializer(upstreamType, lookup)];
  // Upstream's name is accepted, and answered in, but not advertised beside the profile's.
  const hidden = new Set(upstreamType === own.mediaType ? [] : [upstreamType]);
  const binary = cbor ? [CBOR_SERIALIZER] : [];
  return {
    builtin: codecSet([...TEXT_SERIALIZERS, ...protobuf, ...binary], hidden),
    withoutProtobuf: codecSet([...TEXT_SERIALIZERS, ...binary], hidden),
    cbor,
  };
}
