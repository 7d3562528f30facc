// The /openapi/v2 protobuf read back by an independent decoder: protobufjs with gnostic's own
// OpenAPIv2.proto (test/fixtures/protobuf). Decoded and turned back into JSON the way gnostic's
// messages map to Swagger (Named* pairs to maps, vendor extensions to `x-` keys, Any's YAML to values,
// oneofs unwrapped), the served document must come back whole.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { builtinKinds } from '../../apis/index.ts';
import { OPENAPI_EXTENSIONS as X } from '../../naming/openapi-extensions.ts';
import { namingProfile } from '../../naming/profile.ts';
import { openApiV2Document } from './documents.ts';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.ts';

type Rec = Record<string, unknown>;

const PROTO = fileURLToPath(new URL('../../../test/fixtures/protobuf/OpenAPIv2.proto', import.meta.url));
const root = new protobuf.Root().loadSync(PROTO, { keepCase: true });
const DocumentType = root.lookupType('openapi.v2.Document');

function decode(bytes: Buffer): Rec {
  return DocumentType.toObject(DocumentType.decode(bytes), { longs: Number }) as Rec;
}

const jsonKey = (field: string) =>
  field === '_ref' ? '$ref' : field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function fieldValue(f: protobuf.Field, v: unknown): unknown {
  if (!(f.resolvedType instanceof protobuf.Type)) return v;
  const t = f.resolvedType;
  return f.repeated ? (v as Rec[]).map((m) => back(t, m)) : back(t, v as Rec);
}

/** A decoded gnostic message as the Swagger JSON it stands for. */
function back(type: protobuf.Type, m: Rec): unknown {
  switch (type.name) {
    case 'Any':
      return parseYaml(m.yaml as string, { version: '1.1' });
    case 'TypeItem': {
      const names = m.value as string[];
      return names.length === 1 ? names[0] : names;
    }
    case 'ItemsItem': {
      const schemas = (m.schema as Rec[]).map((s) =>
        back(type.fields.schema.resolvedType as protobuf.Type, s),
      );
      return schemas.length === 1 ? schemas[0] : schemas;
    }
    case 'StringArray':
      return m.value ?? [];
  }
  const oneof = type.oneofsArray.find((o) => o.name === 'oneof');
  if (oneof !== undefined) {
    const set = oneof.fieldsArray.filter((f) => m[f.name] !== undefined);
    assert.equal(set.length, 1, `${type.name}: one member of the oneof is set`);
    return fieldValue(set[0], m[set[0].name]);
  }
  const out: Rec = {};
  for (const f of type.fieldsArray) {
    const v = m[f.name];
    if (v === undefined) continue;
    const named = f.resolvedType instanceof protobuf.Type && f.resolvedType.name.startsWith('Named');
    if (f.repeated && named) {
      // Named* pairs: the map they came from (definitions, properties, paths, x- keys, ...).
      const valueField = (f.resolvedType as protobuf.Type).fields.value;
      for (const p of v as Rec[]) out[(p.name as string | undefined) ?? ''] = fieldValue(valueField, p.value);
    } else out[jsonKey(f.name)] = fieldValue(f, v);
  }
  return out;
}

/** Keys whose values travel as YAML in an Any, whole. */
const ANY_KEYS = new Set(['default', 'example', 'enum']);

/**
 * The JSON as proto3 can carry it: an empty list is no entries at all, so it comes back absent. A
 * security requirement's empty scope list is a present StringArray message and stays.
 */
function proto3View(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => proto3View(x, key));
  if (v === null || typeof v !== 'object' || ANY_KEYS.has(key) || key.startsWith('x-')) return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) {
    if (Array.isArray(x) && x.length === 0 && key !== 'security') continue;
    out[k] = proto3View(x, k);
  }
  return out;
}

const profile = namingProfile('spec');
const doc = openApiV2Document(builtinKinds(profile), profile, { title: 'test', version: 'v1.35.0' }) as Rec;
const complaints: string[] = [];
const bytes = encodeOpenApiV2(doc, (path, problem) => complaints.push(`${path} ${problem}`));
const decoded = decode(bytes);
const definitions = doc.definitions as Record<string, Rec>;

/** A definition as decoded, before turning back into JSON. */
function decodedDefinition(name: string): Rec {
  const pairs = (decoded.definitions as { additional_properties: { name: string; value: Rec }[] })
    .additional_properties;
  const found = pairs.find((p) => p.name === name);
  assert.ok(found, name);
  return found.value;
}

function definitionNamed(suffix: string): string {
  const name = Object.keys(definitions).find((n) => n.endsWith(suffix));
  assert.ok(name, suffix);
  return name;
}

/** A property's decoded Schema message. */
function decodedProperty(schema: Rec, name: string): Rec {
  const props = (schema.properties as { additional_properties: { name: string; value: Rec }[] })
    .additional_properties;
  const found = props.find((p) => p.name === name);
  assert.ok(found, name);
  return found.value;
}

/** The decoded vendor extensions of a message, by name, as YAML text. */
function extensions(m: Rec): Record<string, string> {
  const list = (m.vendor_extension ?? []) as { name: string; value: { yaml: string } }[];
  return Object.fromEntries(list.map((e) => [e.name, e.value.yaml]));
}

describe('OpenAPI v2 as gnostic protobuf', () => {
  it('encodes every key gnostic knows, with values of its types', () => {
    assert.deepEqual(complaints, []);
  });

  it('decodes with protobufjs back into the whole JSON document', () => {
    assert.deepStrictEqual(back(DocumentType, decoded), proto3View(doc));
  });

  it('the group-version-kind extension is YAML kubectl reads back', () => {
    const name = definitionNamed('.core.v1.ConfigMap');
    const ext = extensions(decodedDefinition(name));
    assert.equal(ext[X.groupVersionKind], '- group: ""\n  kind: ConfigMap\n  version: v1\n');
    assert.deepEqual(parseYaml(ext[X.groupVersionKind]), definitions[name][X.groupVersionKind]);
  });

  it('patch strategy and merge key of a list field are vendor extensions', () => {
    const podSpec = decodedDefinition(definitionNamed('.apps.v1.PodSpec'));
    const containers = decodedProperty(podSpec, 'containers');
    const ext = extensions(containers);
    assert.equal(ext[X.patchMergeKey], 'name\n');
    assert.equal(ext[X.patchStrategy], 'merge\n');
    assert.deepEqual(containers.type, { value: ['array'] });
    const items = (containers.items as { schema: Rec[] }).schema;
    assert.equal(items.length, 1);
    assert.equal(items[0]._ref, `#/definitions/${definitionNamed('.apps.v1.Container')}`);
  });

  it('additionalProperties is the schema member of its oneof; a default is YAML', () => {
    const cm = decodedDefinition(definitionNamed('.core.v1.ConfigMap'));
    const data = decodedProperty(cm, 'data');
    assert.deepEqual(data.type, { value: ['object'] });
    const ap = data.additional_properties as Rec;
    assert.deepEqual(Object.keys(ap), ['schema']);
    assert.deepEqual(ap.schema, { type: { value: ['string'] }, default: { yaml: '""\n' } });
  });

  it('parameters are body, query or path members of their oneofs; operations carry their kind', () => {
    const pairs = (decoded.paths as { path: { name: string; value: Rec }[] }).path;
    const item = pairs.find((p) => p.name === '/api/v1/namespaces/{namespace}/configmaps');
    assert.ok(item);
    const post = item.value.post as Rec;
    const params = post.parameters as Rec[];
    const body = (params[0].parameter as Rec).body_parameter as Rec;
    assert.equal(body.in, 'body');
    assert.equal(body.required, true);
    const query = params
      .map(
        (p) =>
          ((p.parameter as Rec).non_body_parameter as Rec | undefined)?.query_parameter_sub_schema as Rec,
      )
      .find((q) => q?.name === 'fieldValidation');
    assert.deepEqual([query?.in, query?.type, query?.unique_items], ['query', 'string', true]);
    const pathParam = ((item.value.parameters as Rec[])[0].parameter as Rec).non_body_parameter as Rec;
    assert.equal((pathParam.path_parameter_sub_schema as Rec).name, 'namespace');
    const ext = extensions(post);
    assert.deepEqual(parseYaml(ext[X.groupVersionKind]), { group: '', kind: 'ConfigMap', version: 'v1' });
    assert.equal(ext[X.action], 'post\n');
    const codes = (post.responses as { response_code: { name: string }[] }).response_code.map((c) => c.name);
    assert.deepEqual(codes, ['200', '201', '401']);
  });

  it('the document under the upstream naming profile encodes as cleanly', () => {
    const upstream = namingProfile('upstream');
    const other = openApiV2Document(builtinKinds(upstream), upstream, { title: 't', version: 'v1.35.0' });
    const found: string[] = [];
    const out = decode(encodeOpenApiV2(other, (p, m) => found.push(`${p} ${m}`)));
    assert.deepEqual(found, []);
    assert.deepStrictEqual(back(DocumentType, out), proto3View(other));
  });

  it('writes what the built-in document does not use: references, oneof falses, YAML 1.1 quoting', () => {
    const synthetic: Rec = {
      swagger: '2.0',
      info: {
        title: 't',
        version: 'v1',
        description: 'd',
        termsOfService: 'tos',
        contact: { name: 'n', url: 'u', email: 'e' },
        license: { name: 'Apache-2.0', url: 'u' },
        'x-info': { a: [1, 2] },
      },
      host: 'h',
      basePath: '/b',
      schemes: ['https'],
      consumes: ['application/json'],
      produces: ['application/json'],
      externalDocs: { description: 'd', url: 'u' },
      paths: {
        'x-paths': true,
        '/things': {
          parameters: [{ $ref: '#/parameters/shared' }],
          get: {
            parameters: [
              { name: 'h', in: 'header', type: 'string', enum: ['yes', 'on', '1.0'], default: 'yes' },
              { name: 'f', in: 'formData', type: 'integer', maximum: 10, minimum: -3, maxLength: 4 },
              {
                name: 'a',
                in: 'query',
                type: 'array',
                items: { type: 'string', items: { type: 'integer' } },
                collectionFormat: 'csv',
              },
            ],
            responses: {
              default: { $ref: '#/responses/oops' },
              '200': { description: 'OK', headers: { 'X-Rate': { type: 'integer', description: 'd' } } },
              'x-responses': 'r',
            },
            security: [{ key: [] }],
          },
        },
      },
      definitions: {
        Closed: { type: 'object', additionalProperties: false, properties: {} },
        Open: { type: 'object', additionalProperties: true },
        Tuple: { type: ['array', 'null'], items: [{ type: 'string' }, { $ref: '#/definitions/Open' }] },
        Rich: {
          format: 'f',
          title: 't',
          description: 'd',
          default: 3,
          multipleOf: 0.5,
          maximum: 5.5,
          exclusiveMaximum: true,
          minimum: -1,
          exclusiveMinimum: true,
          maxLength: 9,
          minLength: 1,
          pattern: '^a',
          maxItems: 3,
          minItems: 1,
          uniqueItems: true,
          maxProperties: 4,
          minProperties: 1,
          required: ['a'],
          enum: [1, 'b', { c: null }],
          discriminator: 'kind',
          readOnly: true,
          xml: { name: 'n', namespace: 'ns', prefix: 'p', attribute: true, wrapped: true },
          externalDocs: { url: 'u' },
          'x-rich': [{ deep: { deeper: 'yes' } }],
        },
        Both: {
          allOf: [{ $ref: '#/definitions/Open' }, { $ref: '#/definitions/Closed' }],
          example: { k: 'no' },
        },
      },
      parameters: { shared: { name: 'pretty', in: 'query', type: 'string' } },
      responses: { oops: { description: 'bad', examples: { 'application/json': { why: 'off' } } } },
      securityDefinitions: {
        key: { type: 'apiKey', name: 'authorization', in: 'header', description: 'd' },
        basic: { type: 'basic', description: 'd' },
        implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'a', scopes: {}, description: 'd' },
        password: { type: 'oauth2', flow: 'password', tokenUrl: 't', scopes: { w: 'w' } },
        application: { type: 'oauth2', flow: 'application', tokenUrl: 't', scopes: {}, 'x-app': 1 },
        oauth: {
          type: 'oauth2',
          flow: 'accessCode',
          authorizationUrl: 'a',
          tokenUrl: 't',
          scopes: { read: 'r' },
        },
      },
      tags: [{ name: 'n', externalDocs: { url: 'u' } }],
      'x-top': null,
    };
    const found: string[] = [];
    const out = decode(encodeOpenApiV2(synthetic, (p, m) => found.push(`${p} ${m}`)));
    assert.deepEqual(found, []);
    assert.deepStrictEqual(back(DocumentType, out), synthetic);
    const closed = (out.definitions as { additional_properties: { name: string; value: Rec }[] })
      .additional_properties[0].value;
    assert.deepEqual(closed.additional_properties, { boolean: false });
    assert.deepEqual(closed.properties, {}, 'an empty properties message is still present');
    const header = (((out.paths as Rec).path as { value: Rec }[])[0].value.get as Rec).parameters as Rec[];
    const h = ((header[0].parameter as Rec).non_body_parameter as Rec).header_parameter_sub_schema as Rec;
    assert.deepEqual(
      (h.enum as { yaml: string }[]).map((e) => e.yaml),
      ['"yes"\n', '"on"\n', '"1.0"\n'],
    );
  });

  it('tells of keys and values gnostic would refuse, and writes the rest', () => {
    const found: string[] = [];
    const out = decode(
      encodeOpenApiV2(
        {
          swagger: '2.0',
          info: { title: 't', version: 1 },
          definitions: { A: { type: 'string', nullable: true } },
        },
        (p, m) => found.push(`${p} ${m}`),
      ),
    );
    assert.deepEqual(found, [
      '$.info.version has unexpected value 1',
      '$.definitions.A has invalid property: nullable',
    ]);
    assert.equal(out.swagger, '2.0');
  });
});
