// Body encodings for requests and responses: JSON (the default) and YAML. YAML output sorts keys,
// as upstream's JSON-to-YAML conversion does, so `-o yaml` style output matches byte for byte.

import { createRequire } from 'node:module';
import { type KeyOccurrence, scanDuplicateKeys } from './json-duplicates.ts';

// The YAML library loads on the first YAML body: most clients speak JSON, and loading it at start
// costs every server tens of milliseconds and megabytes. It ships CommonJS, so it loads synchronously.
const requireFromHere = createRequire(import.meta.url);
let yamlModule: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlModule ??= requireFromHere('yaml') as typeof import('yaml');
  return yamlModule;
}

/**
 * Repeated keys a body held, in the form each format's upstream decoder reports them: JSON repeats
 * by field path (interleaved with unknown fields by document position), YAML repeats by line.
 */
export type DuplicateKeys = { format: 'json'; keys: KeyOccurrence[] } | { format: 'yaml'; lines: string[] };

export interface Serializer {
  /** The media type this serializer answers with. */
  mediaType: string;
  encode(value: unknown, pretty: boolean): string;
  /** Parses a body; throws DecodeError with a message for the client. */
  decode(body: string): unknown;
  /** Parses a body as decode does, and also reports repeated keys (the last value wins). */
  decodeChecked(body: string): { value: unknown; duplicates: DuplicateKeys };
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
  decodeChecked(body) {
    const value = this.decode(body);
    return { value, duplicates: { format: 'json', keys: scanDuplicateKeys(body).duplicates } };
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

const yamlError = (err: unknown) =>
  new DecodeError(`error converting YAML to JSON: yaml: ${(err as Error).message.split('\n')[0]}`);

/** Repeated keys of every mapping, as yaml.v2 words them: `line 5: key "name" already set in map`. */
function yamlDuplicateLines(body: string): string[] {
  const Y = yaml();
  const lineCounter = new Y.LineCounter();
  const doc = Y.parseDocument(body, { merge: true, uniqueKeys: false, lineCounter });
  const found: { offset: number; text: string }[] = [];
  Y.visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const item of map.items) {
        const key = Y.isScalar(item.key) ? item.key.value : item.key;
        if (!seen.has(key)) {
          seen.add(key);
          continue;
        }
        const offset = Y.isNode(item.key) ? (item.key.range?.[0] ?? 0) : 0;
        const shown = typeof key === 'string' ? JSON.stringify(key) : String(key);
        found.push({
          offset,
          text: `line ${lineCounter.linePos(offset).line}: key ${shown} already set in map`,
        });
      }
    },
  });
  return found.sort((a, b) => a.offset - b.offset).map((f) => f.text);
}

export const YAML_SERIALIZER: Serializer = {
  mediaType: 'application/yaml',
  encode: (value) => yaml().stringify(sortKeys(value), { lineWidth: 0 }),
  decode(body) {
    try {
      // YAML 1.2 core schema, with merge keys: what Kubernetes manifests are written in.
      return yaml().parse(body, { merge: true, uniqueKeys: false });
    } catch (err) {
      throw yamlError(err);
    }
  },
  decodeChecked(body) {
    const value = this.decode(body);
    return { value, duplicates: { format: 'yaml', lines: yamlDuplicateLines(body) } };
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
