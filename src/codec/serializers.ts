// Body encodings for requests and responses: JSON (the default) and YAML. YAML output sorts keys,
// as upstream's JSON-to-YAML conversion does, so `-o yaml` style output matches byte for byte.

import { createRequire } from 'node:module';

// The YAML library loads on the first YAML body: most clients speak JSON, and loading it at start
// costs every server tens of milliseconds and megabytes. It ships CommonJS, so it loads synchronously.
const requireFromHere = createRequire(import.meta.url);
let yamlModule: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlModule ??= requireFromHere('yaml') as typeof import('yaml');
  return yamlModule;
}

export interface Serializer {
  /** The media type this serializer answers with. */
  mediaType: string;
  encode(value: unknown, pretty: boolean): string;
  /** Parses a body; throws DecodeError with a message for the client. */
  decode(body: string): unknown;
}

export class DecodeError extends Error {
  override name = 'DecodeError';
}

export const JSON_SERIALIZER: Serializer = {
  mediaType: 'application/json',
  encode: (value, pretty) => (pretty ? `${JSON.stringify(value, null, 2)}\n` : `${JSON.stringify(value)}\n`),
  decode(body) {
    try {
      return JSON.parse(body);
    } catch (err) {
      throw new DecodeError(`json parse error: ${(err as Error).message}`);
    }
  },
};

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export const YAML_SERIALIZER: Serializer = {
  mediaType: 'application/yaml',
  encode: (value) => yaml().stringify(sortKeys(value), { lineWidth: 0 }),
  decode(body) {
    try {
      // YAML 1.2 core schema, with merge keys: what Kubernetes manifests are written in.
      return yaml().parse(body, { merge: true, uniqueKeys: false });
    } catch (err) {
      throw new DecodeError(`error converting YAML to JSON: yaml: ${(err as Error).message.split('\n')[0]}`);
    }
  },
};

const BY_MEDIA_TYPE = new Map<string, Serializer>([
  ['application/json', JSON_SERIALIZER],
  ['application/yaml', YAML_SERIALIZER],
]);

export function serializerFor(mediaType: string): Serializer | undefined {
  return BY_MEDIA_TYPE.get(mediaType);
}

export const SERVED_MEDIA_TYPES = [...BY_MEDIA_TYPE.keys()];
