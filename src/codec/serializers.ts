// Body encodings for requests and responses: JSON (the default) and YAML, which are text, and the
// binary ones (protobuf, CBOR; see binary-serializers.ts), which read and write Buffers. YAML output
// sorts keys, as upstream's JSON-to-YAML conversion does, so `-o yaml` style output matches byte for byte.

import { createRequire } from 'node:module';
import { jsonDepthMessage, jsonTooDeep, MAX_NESTING_DEPTH, valueTooDeep, yamlTooDeep } from './depth.ts';
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
export type DuplicateKeys =
  | {
      format: 'json';
      keys: KeyOccurrence[];
      /** Where the first key at each of `paths` sits among all keys (orders unknown fields among repeats). */
      ordinalsOf(paths: ReadonlySet<string>): Map<string, number>;
    }
  | { format: 'yaml'; lines: string[] };

export interface TextSerializer {
  binary: false;
  /** The media type this serializer answers with. */
  mediaType: string;
  encode(value: unknown, pretty: boolean): string;
  /** Parses a body; throws DecodeError with a message for the client. */
  decode(body: string): unknown;
  /** Parses a body as decode does, and also reports repeated keys (the last value wins). */
  decodeChecked(body: string): { value: unknown; duplicates: DuplicateKeys };
}

/** A binary body encoding. Decoding failures throw DecodeError (or the codec's own error class). */
export interface BinarySerializer {
  binary: true;
  mediaType: string;
  /** Whether it encodes any JSON value (CBOR), or only objects with a declared message (protobuf). */
  schemaless: boolean;
  /** The Content-Type of a watch stream in this encoding. */
  streamMediaType: string;
  encode(value: unknown): Buffer;
  /** Parses a body, reporting repeated keys where the encoding can hold them. */
  decodeChecked(body: Buffer): { value: unknown; duplicates: DuplicateKeys };
  /** Encodes one watch event from its object, encoded once with `encode`. */
  watchEvent(type: string, objectBody: Buffer): Buffer;
}

export type Serializer = TextSerializer | BinarySerializer;

export class DecodeError extends Error {
  override name = 'DecodeError';
}

export const JSON_SERIALIZER: TextSerializer = {
  binary: false,
  mediaType: 'application/json',
  encode: (value, pretty) => (pretty ? `${JSON.stringify(value, null, 2)}\n` : `${JSON.stringify(value)}\n`),
  decode(body) {
    // Refused before parsing: what comes after the parser recurses (see depth.ts).
    const deep = jsonTooDeep(body);
    if (deep !== undefined) throw new DecodeError(`json parse error: ${jsonDepthMessage(deep)}`);
    try {
      return JSON.parse(body);
    } catch (err) {
      throw new DecodeError(`json parse error: ${(err as Error).message}`);
    }
  },
  decodeChecked(body) {
    const value = this.decode(body);
    return {
      value,
      duplicates: {
        format: 'json',
        keys: scanDuplicateKeys(body).duplicates,
        ordinalsOf: (paths) => scanDuplicateKeys(body, paths).ordinals,
      },
    };
  },
};

/** A copy of a JSON value with every object's keys in sorted order, as upstream's YAML writes them. */
export function sortKeys(value: unknown): unknown {
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

/** go-yaml's refusal of a document nested too deeply (it names no line on the first). */
const yamlDepthError = (line: number) =>
  new DecodeError(
    `error converting YAML to JSON: yaml: ${line > 1 ? `line ${line}: ` : ''}exceeded max depth of ${MAX_NESTING_DEPTH}`,
  );

// YAML 1.2 core schema, with merge keys: what manifests are written in. Repeated keys are kept
// (the last wins) and reported separately, as upstream's decoders report them.
const YAML_PARSE_OPTIONS = { merge: true, uniqueKeys: false } as const;

/** A parsed YAML document and the line positions of its text. */
interface ParsedYaml {
  doc: import('yaml').Document;
  lineCounter: import('yaml').LineCounter;
}

/**
 * Parses YAML text to a JSON value, refusing nesting beyond the limit. The YAML library recurses
 * as deep as the text nests (and past its stack, spends all memory on its error message), so the
 * nesting is bounded from the text first, as upstream's YAML scanner bounds it; aliases can nest
 * further than the text shows, hence the second check. With `lines`, the parsed document is kept
 * (with line positions) so that its repeated keys can be found without parsing the text again.
 */
function parseYaml(body: string, lines: boolean): { value: unknown; parsed?: ParsedYaml } {
  const line = yamlTooDeep(body);
  if (line !== undefined) throw yamlDepthError(line);
  const Y = yaml();
  let value: unknown;
  let parsed: ParsedYaml | undefined;
  try {
    if (lines) {
      // What yaml.parse does, keeping the document: the first error is thrown, then toJS.
      const lineCounter = new Y.LineCounter();
      const doc = Y.parseDocument(body, { ...YAML_PARSE_OPTIONS, lineCounter });
      if (doc.errors.length > 0) throw doc.errors[0];
      value = doc.toJS(YAML_PARSE_OPTIONS);
      parsed = { doc, lineCounter };
    } else {
      value = Y.parse(body, YAML_PARSE_OPTIONS);
    }
  } catch (err) {
    throw yamlError(err);
  }
  if (valueTooDeep(value) !== undefined) throw yamlDepthError(1);
  return { value, parsed };
}

/** Repeated keys of every mapping, as yaml.v2 words them: `line 5: key "name" already set in map`. */
function yamlDuplicateLines({ doc, lineCounter }: ParsedYaml): string[] {
  const Y = yaml();
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

export const YAML_SERIALIZER: TextSerializer = {
  binary: false,
  mediaType: 'application/yaml',
  encode: (value) => yaml().stringify(sortKeys(value), { lineWidth: 0 }),
  decode: (body) => parseYaml(body, false).value,
  decodeChecked(body) {
    // One parse serves both the value and the repeated keys.
    const { value, parsed } = parseYaml(body, true);
    return {
      value,
      duplicates: { format: 'yaml', lines: yamlDuplicateLines(parsed as ParsedYaml) },
    };
  },
};

/** The text encodings every endpoint serves, in upstream's order (the first is the default). */
export const TEXT_SERIALIZERS: readonly TextSerializer[] = [JSON_SERIALIZER, YAML_SERIALIZER];
