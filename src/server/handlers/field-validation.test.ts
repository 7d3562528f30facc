import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JSON_SERIALIZER, YAML_SERIALIZER } from '../../codec/serializers.ts';
import { startTestApiServer, type TestApiServer, warningsOf } from '../testing/index.ts';
import { compareSortedWalk, sortedWalkOrder, strictFindings } from './field-validation.ts';

// Upstream's field validation integration test body, trimmed: repeats known and unknown fields at
// several depths. The unknown field list is what the Deployment schema reports for it.
const JSON_BODY = `{
  "metadata": {"name": "dupename", "name": "real", "labels": {"app": "nginx"}, "unknownMeta": "metaVal"},
  "spec": {
    "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2",
    "paused": true, "paused": false,
    "template": {"spec": {"containers": [{
      "name": "nginx", "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never"
    }]}}
  }
}`;
const YAML_BODY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: real
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  template:
    spec:
      containers:
      - name: nginx
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never
`;
const UNKNOWN = [
  'metadata.unknownMeta',
  'spec.unknown1',
  'spec.unknownDupe',
  'spec.template.spec.containers[0].unknownNested',
];

describe('strictFindings', () => {
  it('interleaves JSON repeats and unknown fields in document order, a repeated unknown field once', () => {
    const { duplicates } = JSON_SERIALIZER.decodeChecked(JSON_BODY);
    const found = strictFindings(duplicates, UNKNOWN);
    assert.deepEqual(found.warnings, [
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
    assert.deepEqual(found.errors, found.warnings);
  });

  it('keeps the last value of a JSON repeat', () => {
    const { value } = JSON_SERIALIZER.decodeChecked(JSON_BODY);
    assert.equal((value as { metadata: { name: string } }).metadata.name, 'real');
  });

  it('reports YAML repeats by line, then unknown fields in key-sorted order, folding repeats for Strict', () => {
    const { value, duplicates } = YAML_SERIALIZER.decodeChecked(YAML_BODY);
    assert.equal((value as { spec: { paused: boolean } }).spec.paused, false);
    const found = strictFindings(duplicates, UNKNOWN);
    const lines = [
      'line 5: key "name" already set in map',
      'line 10: key "unknownDupe" already set in map',
      'line 12: key "paused" already set in map',
      'line 19: key "imagePullPolicy" already set in map',
    ];
    const unknown = [
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ];
    assert.deepEqual(found.warnings, [...lines, ...unknown]);
    assert.deepEqual(found.errors, [`yaml: unmarshal errors:\n  ${lines.join('\n  ')}`, ...unknown]);
  });

  it('says the same thing once however often a key repeats', () => {
    const body = '{"a":1,"a":2,"a":3}';
    const { duplicates } = JSON_SERIALIZER.decodeChecked(body);
    assert.deepEqual(strictFindings(duplicates, []).warnings, ['duplicate field "a"']);
  });
});

describe('compareSortedWalk', () => {
  it('compares key by key and indices by number', () => {
    const paths = ['spec.unknown1', 'spec.template.x', 'a[10].b', 'a[2].b', 'spec'];
    assert.deepEqual(paths.sort(compareSortedWalk), [
      'a[2].b',
      'a[10].b',
      'spec',
      'spec.template.x',
      'spec.unknown1',
    ]);
  });
});

describe('sortedWalkOrder', () => {
  it('orders as a sort by compareSortedWalk does, ties kept in place', () => {
    const paths = ['b', 'a[10]', 'a[2].x', 'a[02].x', 'a.b.c', 'a[2]', 'a', 'a.b', 'x[1][0]', 'x[1]', 'x.y'];
    assert.deepEqual(sortedWalkOrder(paths), [...paths].sort(compareSortedWalk));
  });
});

describe('strictFindings with many fields', () => {
  it('leaves out repeats inside unknown fields, found by prefix (keys may hold dots)', () => {
    const unknown = ['spec.bogus', 'metadata.labels.a.b', 'list[3]'];
    const keys = [
      'spec.bogus',
      'spec.bogus.x',
      'spec.bogus[0]',
      'spec.bogusx',
      'metadata.labels.a.b.c',
      'metadata.labels.a',
      'list[3].z',
      'list[30]',
    ].map((path, ordinal) => ({ path, ordinal }));
    const duplicates = { format: 'json' as const, keys, ordinalsOf: () => new Map<string, number>() };
    const found = strictFindings(duplicates, unknown);
    const repeats = found.warnings.filter((w) => w.startsWith('duplicate'));
    assert.deepEqual(repeats, [
      'duplicate field "spec.bogusx"',
      'duplicate field "metadata.labels.a"',
      'duplicate field "list[30]"',
    ]);
  });

  it('takes time in proportion to the findings', () => {
    const unknown = Array.from({ length: 50_000 }, (_, i) => `u${i}`);
    const keys = Array.from({ length: 50_000 }, (_, i) => ({ path: `data.k${i}`, ordinal: i }));
    const duplicates = { format: 'json' as const, keys, ordinalsOf: () => new Map<string, number>() };
    // Quadratic, this is 2.5 billion comparisons; it finishes in milliseconds.
    assert.equal(strictFindings(duplicates, unknown).warnings.length, 100);
  });
});

describe('fieldValidation over HTTP', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  const CM = '/api/v1/namespaces/default/configmaps';
  const jsonBody = (name: string) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","name":"${name}","bogus":1},` +
    `"data":{"a":"1","a":"2"},"extra":{"z":1,"z":2}}`;
  const yamlBody = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  name: ${name}\n  bogus: 1\ndata:\n  a: "1"\n  a: "2"\n`;
  const jsonFindings = [
    'duplicate field "metadata.name"',
    'unknown field "metadata.bogus"',
    'duplicate field "data.a"',
    'unknown field "extra"',
  ];
  const yamlFindings = [
    'line 5: key "name" already set in map',
    'line 9: key "a" already set in map',
    'unknown field "metadata.bogus"',
  ];

  for (const [format, body, contentType, findings, strict] of [
    ['JSON', jsonBody, 'application/json', jsonFindings, jsonFindings.join(', ')],
    [
      'YAML',
      yamlBody,
      'application/yaml',
      yamlFindings,
      `yaml: unmarshal errors:\n  ${yamlFindings.slice(0, 2).join('\n  ')}, ${yamlFindings[2]}`,
    ],
  ] as const) {
    it(`${format}: Strict refuses with every finding and stores nothing`, async () => {
      const r = await t.call({
        method: 'POST',
        path: `${CM}?fieldValidation=Strict`,
        body: body('strict'),
        headers: { 'content-type': contentType },
      });
      assert.equal(r.status, 400, r.body);
      assert.equal(r.json().reason, 'BadRequest');
      assert.equal(
        r.json().message,
        `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ${strict}`,
      );
      assert.equal((await t.call({ path: `${CM}/strict` })).status, 404);
    });

    it(`${format}: Warn (the default) creates the object, last values winning, one warning per finding`, async () => {
      const name = `warn-${format.toLowerCase()}`;
      const r = await t.call({
        method: 'POST',
        path: CM,
        body: body(name),
        headers: { 'content-type': contentType },
      });
      assert.equal(r.status, 201, r.body);
      assert.deepEqual(warningsOf(r), findings);
      const created = r.json() as { metadata: Record<string, unknown>; data: Record<string, string> };
      assert.equal(created.metadata.name, name);
      assert.equal(created.metadata.bogus, undefined);
      assert.deepEqual(created.data, { a: '2' });
    });

    it(`${format}: Ignore says nothing`, async () => {
      const name = `ignore-${format.toLowerCase()}`;
      const r = await t.call({
        method: 'POST',
        path: `${CM}?fieldValidation=Ignore`,
        body: body(name),
        headers: { 'content-type': contentType },
      });
      assert.equal(r.status, 201, r.body);
      assert.deepEqual(warningsOf(r), []);
    });
  }

  it('PUT reports the same way', async () => {
    const r = await t.call({
      method: 'PUT',
      path: `${CM}/warn-json?fieldValidation=Strict`,
      body: jsonBody('warn-json'),
    });
    assert.equal(r.status, 400, r.body);
    assert.match(
      String(r.json().message),
      /strict decoding error: duplicate field "metadata.name", unknown field/,
    );
  });

  it('Warn with thousands of unknown fields sends Warning headers bounded as upstream bounds them', async () => {
    const unknown = Array.from({ length: 5000 }, (_, i) => `"unknown-field-number-${i}":1`).join(',');
    const r = await t.call({
      method: 'POST',
      path: CM,
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"many-unknown"},${unknown}}`,
    });
    assert.equal(r.status, 201, r.body);
    const warnings = warningsOf(r);
    assert.ok(warnings.length > 0 && warnings.length < 5000, String(warnings.length));
    // Upstream adds warnings until their total reaches 4096 runes: the last may pass it by one's worth.
    assert.ok(warnings.join('').length < 4096 + 256, 'about 4096 characters of warnings in all');
    assert.equal(warnings[0], 'unknown field "unknown-field-number-0"');
  });

  it('a bad fieldValidation value is a 400', async () => {
    const r = await t.call({ method: 'POST', path: `${CM}?fieldValidation=Loud`, body: jsonBody('loud') });
    assert.equal(r.status, 400);
    assert.equal(
      r.json().message,
      'fieldValidation must be one of "Ignore", "Warn", or "Strict", got "Loud"',
    );
  });
});
