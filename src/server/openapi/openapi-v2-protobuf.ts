// The Swagger 2.0 document in protobuf: gnostic's `openapi.v2.Document` (github.com/google/gnostic-models,
// openapiv2/OpenAPIv2.proto), which upstream serves on /openapi/v2 to clients asking for
// `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` (client-go's OpenAPISchema, so
// kubectl's client-side validation, its apply fallback and `explain --output plaintext-openapiv2`).
// Upstream parses its JSON with gnostic (ParseDocument) and marshals the result; this writes the same
// messages straight from our JSON document, choosing as gnostic's parser does:
// - the document's maps (definitions, properties, paths, responses, security, ...) become repeated
//   Named* {name, value} pairs in document order;
// - `x-` keys become `vendor_extension` NamedAny pairs whose Any carries the value as YAML text
//   (`Any.yaml`); default, example and enum values are such Anys too. kube-openapi reads them back
//   with yaml.v2, a YAML 1.1 reader, so strings like `yes` or `on` are written quoted;
// - oneofs: a parameter by its `in` (body, or header/formData/query/path), a parameter or response
//   with `$ref` is a JsonReference, additionalProperties a Schema or a boolean, a security definition
//   by its `type` and `flow`;
// - `type` is a TypeItem (a list of names), `items` an ItemsItem (a list of schemas).
// Scalars equal to proto3's zero (false, 0, "") are left out, as Go's marshaller leaves them out;
// fields go out in field-number order, as Go writes them.

import { stringify } from 'yaml';
import { WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT, Writer } from '../../codec/protobuf/wire.ts';

/**
 * Told of what gnostic's parser would refuse (a key it does not know, a value of the wrong type):
 * upstream would then serve no protobuf at all; here the rest is still written. Tests listen.
 */
export type Complaint = (path: string, problem: string) => void;

/** Writes one message's content, without its tag and length. */
type Content = (w: Writer, value: unknown, complain: Complaint, path: string) => void;

type Scalar = 'string' | 'bool' | 'double' | 'int64' | 'strings' | 'any' | 'anys';
/** A field's type: a scalar, one message, or a repeated message (a JSON array). */
type Kind = Scalar | { one: Content } | { many: Content };
/** JSON key -> [field number, type]. */
type Fields = Record<string, readonly [number, Kind]>;
type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function writeMessage(
  w: Writer,
  no: number,
  content: Content,
  v: unknown,
  complain: Complaint,
  path: string,
) {
  w.tag(no, WIRE_BYTES);
  const start = w.begin();
  content(w, v, complain, path);
  w.finish(start);
}

/** `Any`: the value as YAML in field 2 (`yaml`); field 1, a google.protobuf.Any, is never set upstream. */
const anyContent: Content = (w, v) => {
  w.tag(2, WIRE_BYTES);
  w.string(stringify(v, { version: '1.1', lineWidth: 0 }));
};

function writeField(w: Writer, no: number, kind: Kind, v: unknown, complain: Complaint, path: string): void {
  if (!writeValue(w, no, kind, v, complain, path))
    complain(path, `has unexpected value ${JSON.stringify(v)}`);
}

/** Writes field `no`; false when `v` is not of the field's type (nothing is written then). */
function writeValue(
  w: Writer,
  no: number,
  kind: Kind,
  v: unknown,
  complain: Complaint,
  path: string,
): boolean {
  if (typeof kind === 'object') {
    if ('one' in kind) writeMessage(w, no, kind.one, v, complain, path);
    else if (!Array.isArray(v)) return false;
    else for (const [i, item] of v.entries()) writeMessage(w, no, kind.many, item, complain, `${path}[${i}]`);
    return true;
  }
  switch (kind) {
    case 'string':
      if (typeof v !== 'string') return false;
      if (v !== '') {
        w.tag(no, WIRE_BYTES);
        w.string(v);
      }
      return true;
    case 'bool':
      if (typeof v !== 'boolean') return false;
      if (v) {
        w.tag(no, WIRE_VARINT);
        w.uvarint(1);
      }
      return true;
    case 'double':
      if (typeof v !== 'number') return false;
      if (v !== 0) {
        w.tag(no, WIRE_FIXED64);
        w.double(v);
      }
      return true;
    case 'int64':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) return false;
      if (v !== 0) {
        w.tag(no, WIRE_VARINT);
        w.int(v);
      }
      return true;
    case 'strings':
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) return false;
      // Repeated strings keep empty elements: only a scalar field's zero is left out.
      for (const s of v as string[]) {
        w.tag(no, WIRE_BYTES);
        w.string(s);
      }
      return true;
    case 'any':
      writeMessage(w, no, anyContent, v, complain, path);
      return true;
    case 'anys':
      if (!Array.isArray(v)) return false;
      for (const item of v) writeMessage(w, no, anyContent, item, complain, path);
      return true;
  }
}

/** A Named* pair: the key in field 1, the value in field 2. */
function pair(kind: Kind): Content {
  return (w, v, complain, path) => {
    const [name, value] = v as [string, unknown];
    writeField(w, 1, 'string', name, complain, path);
    writeField(w, 2, kind, value, complain, `${path}.${name}`);
  };
}

const namedAny = pair('any');

/** Writes the object's `x-` keys as vendor_extension pairs in field `no`. */
function writeExtensions(w: Writer, no: number, v: Json, complain: Complaint, path: string): void {
  for (const [k, value] of Object.entries(v)) {
    if (k.startsWith('x-')) writeMessage(w, no, namedAny, [k, value], complain, path);
  }
}

/** A message of named fields, with `x-` keys as vendor extensions in field `ext` (always its last). */
function message(fields: Fields, ext?: number): Content {
  const order = Object.entries(fields).sort((a, b) => a[1][0] - b[1][0]);
  return (w, v, complain, path) => {
    if (!isObject(v)) return complain(path, 'is not an object');
    for (const [key, [no, kind]] of order) {
      if (v[key] !== undefined) writeField(w, no, kind, v[key], complain, `${path}.${key}`);
    }
    if (ext !== undefined) writeExtensions(w, ext, v, complain, path);
    for (const k of Object.keys(v)) {
      if (fields[k] === undefined && !(ext !== undefined && k.startsWith('x-'))) {
        complain(path, `has invalid property: ${k}`);
      }
    }
  };
}

/** A map message (Definitions, Properties, ...): every key a Named* pair in field 1. */
function namedMap(kind: Kind): Content {
  const named = pair(kind);
  return (w, v, complain, path) => {
    if (!isObject(v)) return complain(path, 'is not an object');
    for (const entry of Object.entries(v)) writeMessage(w, 1, named, entry, complain, path);
  };
}

/** Paths and Responses: `x-` keys in field `extNo`, keys matching `pattern` as pairs in `pairNo`. */
function keyedMap(pattern: RegExp, pairNo: number, extNo: number, kind: Kind): Content {
  const named = pair(kind);
  return (w, v, complain, path) => {
    if (!isObject(v)) return complain(path, 'is not an object');
    const writePairs = () => {
      for (const e of Object.entries(v))
        if (pattern.test(e[0])) writeMessage(w, pairNo, named, e, complain, path);
    };
    if (pairNo < extNo) writePairs();
    writeExtensions(w, extNo, v, complain, path);
    if (pairNo > extNo) writePairs();
    for (const k of Object.keys(v)) {
      if (!k.startsWith('x-') && !pattern.test(k)) complain(path, `has invalid property: ${k}`);
    }
  };
}

/** Defers to a Content defined further down (the schema refers to itself). */
const later =
  (get: () => Content): Content =>
  (w, v, complain, path) =>
    get()(w, v, complain, path);

/**
 * The validation keywords that Header, PrimitivesItems and the non-body parameters share, in the same
 * order in each, numbered from `first`.
 */
function primitiveFields(first: number): Fields {
  const keys: [string, Kind][] = [
    ['type', 'string'],
    ['format', 'string'],
    ['items', { one: later(() => primitivesItems) }],
    ['collectionFormat', 'string'],
    ['default', 'any'],
    ['maximum', 'double'],
    ['exclusiveMaximum', 'bool'],
    ['minimum', 'double'],
    ['exclusiveMinimum', 'bool'],
    ['maxLength', 'int64'],
    ['minLength', 'int64'],
    ['pattern', 'string'],
    ['maxItems', 'int64'],
    ['minItems', 'int64'],
    ['uniqueItems', 'bool'],
    ['enum', 'anys'],
    ['multipleOf', 'double'],
  ];
  return Object.fromEntries(keys.map(([k, kind], i) => [k, [first + i, kind] as const]));
}

const primitivesItems: Content = message(primitiveFields(1), 18);
const header = message({ ...primitiveFields(1), description: [18, 'string'] }, 19);

const externalDocs = message({ description: [1, 'string'], url: [2, 'string'] }, 3);
const xml = message(
  {
    name: [1, 'string'],
    namespace: [2, 'string'],
    prefix: [3, 'string'],
    attribute: [4, 'bool'],
    wrapped: [5, 'bool'],
  },
  6,
);

const schema: Content = message(
  {
    $ref: [1, 'string'],
    format: [2, 'string'],
    title: [3, 'string'],
    description: [4, 'string'],
    default: [5, 'any'],
    multipleOf: [6, 'double'],
    maximum: [7, 'double'],
    exclusiveMaximum: [8, 'bool'],
    minimum: [9, 'double'],
    exclusiveMinimum: [10, 'bool'],
    maxLength: [11, 'int64'],
    minLength: [12, 'int64'],
    pattern: [13, 'string'],
    maxItems: [14, 'int64'],
    minItems: [15, 'int64'],
    uniqueItems: [16, 'bool'],
    maxProperties: [17, 'int64'],
    minProperties: [18, 'int64'],
    required: [19, 'strings'],
    enum: [20, 'anys'],
    additionalProperties: [21, { one: later(() => additionalPropertiesItem) }],
    type: [22, { one: later(() => typeItem) }],
    items: [23, { one: later(() => itemsItem) }],
    allOf: [24, { many: later(() => schema) }],
    properties: [25, { one: later(() => properties) }],
    discriminator: [26, 'string'],
    readOnly: [27, 'bool'],
    xml: [28, { one: xml }],
    externalDocs: [29, { one: externalDocs }],
    example: [30, 'any'],
  },
  31,
);

const properties = namedMap({ one: schema });

/** AdditionalPropertiesItem: oneof schema (1) or boolean (2); a oneof's false is still written. */
const additionalPropertiesItem: Content = (w, v, complain, path) => {
  if (typeof v === 'boolean') {
    w.tag(2, WIRE_VARINT);
    w.uvarint(v ? 1 : 0);
  } else if (isObject(v)) writeMessage(w, 1, schema, v, complain, path);
  else complain(path, 'contains an invalid AdditionalPropertiesItem');
};

/** TypeItem: `repeated string value = 1`, from a name or a list of names. */
const typeItem: Content = (w, v, complain, path) =>
  writeField(w, 1, 'strings', typeof v === 'string' ? [v] : v, complain, path);

/** ItemsItem: `repeated Schema schema = 1`, from one schema or a list. */
const itemsItem: Content = (w, v, complain, path) =>
  writeField(w, 1, { many: schema }, Array.isArray(v) ? v : [v], complain, path);

const jsonReference = message({ $ref: [1, 'string'], description: [2, 'string'] });

const bodyParameter = message(
  {
    description: [1, 'string'],
    name: [2, 'string'],
    in: [3, 'string'],
    required: [4, 'bool'],
    schema: [5, { one: schema }],
  },
  6,
);

const parameterHead: Fields = {
  required: [1, 'bool'],
  in: [2, 'string'],
  description: [3, 'string'],
  name: [4, 'string'],
};
/** Header and path parameters: the head, then the validation keywords from 5. */
const headerOrPathParameter = message({ ...parameterHead, ...primitiveFields(5) }, 22);
/** Query and form parameters: the head, allowEmptyValue, then the validation keywords from 6. */
const queryOrFormParameter = message(
  { ...parameterHead, allowEmptyValue: [5, 'bool'], ...primitiveFields(6) },
  23,
);

const NON_BODY: Record<string, readonly [number, Content]> = {
  header: [1, headerOrPathParameter],
  formData: [2, queryOrFormParameter],
  query: [3, queryOrFormParameter],
  path: [4, headerOrPathParameter],
};

/** Parameter: oneof body_parameter (1) or non_body_parameter (2), the latter by `in`. */
const parameter: Content = (w, v, complain, path) => {
  if (!isObject(v)) return complain(path, 'is not an object');
  if (v.in === 'body') return writeMessage(w, 1, bodyParameter, v, complain, path);
  const sub = typeof v.in === 'string' ? NON_BODY[v.in] : undefined;
  if (sub === undefined) return complain(path, 'contains an invalid NonBodyParameter');
  w.tag(2, WIRE_BYTES);
  const start = w.begin();
  writeMessage(w, sub[0], sub[1], v, complain, path);
  w.finish(start);
};

/** ParametersItem: oneof parameter (1) or json_reference (2). */
const parametersItem: Content = (w, v, complain, path) => {
  if (isObject(v) && v.$ref !== undefined) writeMessage(w, 2, jsonReference, v, complain, path);
  else writeMessage(w, 1, parameter, v, complain, path);
};

/** SchemaItem: gnostic tries Schema first, and every FileSchema is also a valid Schema. */
const schemaItem: Content = (w, v, complain, path) => writeMessage(w, 1, schema, v, complain, path);

const response = message(
  {
    description: [1, 'string'],
    schema: [2, { one: schemaItem }],
    headers: [3, { one: namedMap({ one: header }) }],
    examples: [4, { one: namedMap('any') }],
  },
  5,
);

/** ResponseValue: oneof response (1) or json_reference (2). */
const responseValue: Content = (w, v, complain, path) => {
  if (isObject(v) && v.$ref !== undefined) writeMessage(w, 2, jsonReference, v, complain, path);
  else writeMessage(w, 1, response, v, complain, path);
};

const responses = keyedMap(/^([0-9]{3})$|^(default)$/, 1, 2, { one: responseValue });

const securityRequirement = namedMap({ one: (w, v, c, p) => writeField(w, 1, 'strings', v, c, p) });

const operation = message(
  {
    tags: [1, 'strings'],
    summary: [2, 'string'],
    description: [3, 'string'],
    externalDocs: [4, { one: externalDocs }],
    operationId: [5, 'string'],
    produces: [6, 'strings'],
    consumes: [7, 'strings'],
    parameters: [8, { many: parametersItem }],
    responses: [9, { one: responses }],
    schemes: [10, 'strings'],
    deprecated: [11, 'bool'],
    security: [12, { many: securityRequirement }],
  },
  13,
);

const pathItem = message(
  {
    $ref: [1, 'string'],
    get: [2, { one: operation }],
    put: [3, { one: operation }],
    post: [4, { one: operation }],
    delete: [5, { one: operation }],
    options: [6, { one: operation }],
    head: [7, { one: operation }],
    patch: [8, { one: operation }],
    parameters: [9, { many: parametersItem }],
  },
  10,
);

const paths = keyedMap(/^\//, 2, 1, { one: pathItem });

const scopes = namedMap('string');
const oauth2 = (extra: Fields, ext: number) =>
  message({ type: [1, 'string'], flow: [2, 'string'], scopes: [3, { one: scopes }], ...extra }, ext);
const oauth2WithToken = oauth2({ tokenUrl: [4, 'string'], description: [5, 'string'] }, 6);

/** SecurityDefinitionsItem's oneof, by `type` (and `flow` for oauth2). */
const SECURITY: Record<string, readonly [number, Content]> = {
  basic: [1, message({ type: [1, 'string'], description: [2, 'string'] }, 3)],
  apiKey: [
    2,
    message({ type: [1, 'string'], name: [2, 'string'], in: [3, 'string'], description: [4, 'string'] }, 5),
  ],
  'oauth2/implicit': [3, oauth2({ authorizationUrl: [4, 'string'], description: [5, 'string'] }, 6)],
  'oauth2/password': [4, oauth2WithToken],
  'oauth2/application': [5, oauth2WithToken],
  'oauth2/accessCode': [
    6,
    oauth2({ authorizationUrl: [4, 'string'], tokenUrl: [5, 'string'], description: [6, 'string'] }, 7),
  ],
};

const securityDefinitionsItem: Content = (w, v, complain, path) => {
  if (!isObject(v)) return complain(path, 'is not an object');
  const choice = SECURITY[v.type === 'oauth2' ? `oauth2/${String(v.flow)}` : String(v.type)];
  if (choice === undefined) return complain(path, 'contains an invalid SecurityDefinitionsItem');
  writeMessage(w, choice[0], choice[1], v, complain, path);
};

const contact = message({ name: [1, 'string'], url: [2, 'string'], email: [3, 'string'] }, 4);
const license = message({ name: [1, 'string'], url: [2, 'string'] }, 3);
const info = message(
  {
    title: [1, 'string'],
    version: [2, 'string'],
    description: [3, 'string'],
    termsOfService: [4, 'string'],
    contact: [5, { one: contact }],
    license: [6, { one: license }],
  },
  7,
);
const tag = message(
  { name: [1, 'string'], description: [2, 'string'], externalDocs: [3, { one: externalDocs }] },
  4,
);

const documentContent = message(
  {
    swagger: [1, 'string'],
    info: [2, { one: info }],
    host: [3, 'string'],
    basePath: [4, 'string'],
    schemes: [5, 'strings'],
    consumes: [6, 'strings'],
    produces: [7, 'strings'],
    paths: [8, { one: paths }],
    definitions: [9, { one: namedMap({ one: schema }) }],
    parameters: [10, { one: namedMap({ one: parameter }) }],
    responses: [11, { one: namedMap({ one: response }) }],
    security: [12, { many: securityRequirement }],
    securityDefinitions: [13, { one: namedMap({ one: securityDefinitionsItem }) }],
    tags: [14, { many: tag }],
    externalDocs: [15, { one: externalDocs }],
  },
  16,
);

/** The document as an `openapi.v2.Document` message. */
export function encodeOpenApiV2(doc: unknown, complain: Complaint = () => {}): Buffer {
  const w = new Writer(1 << 16);
  documentContent(w, doc, complain, '$');
  return w.finishBuffer();
}
