import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UPSTREAM_ALIASES } from '../naming/index.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import { CBOR_SERIALIZER, protobufSerializer } from './binary-serializers.ts';
import {
  type CodecSet,
  NotAcceptableError,
  negotiateInput,
  negotiateOutput,
  negotiateStream,
  streamMediaTypeOf,
  UnsupportedMediaTypeError,
} from './negotiation.ts';
import { JSON_SERIALIZER, YAML_SERIALIZER } from './serializers.ts';

const SPEC = namingProfile('spec');

const META = UPSTREAM_ALIASES.metaGroup;

const opts = { metaGroups: [`${groupName(SPEC, 'meta')}`, META], tables: true };

describe('negotiation', () => {
  it('no Accept, */* and application/json answer JSON', () => {
    for (const a of [undefined, '*/*', 'application/json', 'application/json, */*']) {
      assert.equal(negotiateOutput(a, opts).serializer, JSON_SERIALIZER, String(a));
    }
  });

  it('YAML when asked', () => {
    assert.equal(negotiateOutput('application/yaml', opts).serializer, YAML_SERIALIZER);
  });

  it('Table in the meta group asked for, in either naming, falling back when tables are not served', () => {
    const kubectl = `application/json;as=Table;v=v1;g=${META},application/json;as=Table;v=v1beta1;g=${META},application/json`;
    assert.deepEqual(negotiateOutput(kubectl, opts).conversion, {
      as: 'Table',
      group: META,
      version: 'v1',
    });
    assert.deepEqual(
      negotiateOutput(`application/json;as=Table;v=v1;g=${groupName(SPEC, 'meta')}`, opts).conversion,
      {
        as: 'Table',
        group: `${groupName(SPEC, 'meta')}`,
        version: 'v1',
      },
    );
    const noTables = negotiateOutput(kubectl, { ...opts, tables: false });
    assert.equal(noTables.conversion, undefined);
    assert.equal(noTables.serializer, JSON_SERIALIZER);
  });

  it('406 when nothing in Accept can be served, naming what can', () => {
    assert.throws(() => negotiateOutput('text/html', opts), NotAcceptableError);
    assert.throws(
      () =>
        negotiateOutput(`application/json;as=Table;v=v1;g=${groupName(SPEC, 'meta')}`, {
          ...opts,
          tables: false,
        }),
      /only the following media types are accepted: application\/json, application\/yaml/,
    );
  });

  it('request bodies: JSON by default, YAML, and 415 for anything else', () => {
    assert.equal(negotiateInput(undefined), JSON_SERIALIZER);
    assert.equal(negotiateInput('application/json; charset=utf-8'), JSON_SERIALIZER);
    assert.equal(negotiateInput('application/yaml'), YAML_SERIALIZER);
    assert.throws(() => negotiateInput('text/plain'), UnsupportedMediaTypeError);
  });

  it('YAML output sorts keys; malformed bodies fail with a message', () => {
    assert.equal(YAML_SERIALIZER.encode({ b: 1, a: { d: 2, c: 3 } }, false), 'a:\n  c: 3\n  d: 2\nb: 1\n');
    assert.throws(() => JSON_SERIALIZER.decode('{"a":'), /json parse error/);
    assert.throws(() => YAML_SERIALIZER.decode('a: [1, 2'), /error converting YAML to JSON/);
  });
});

/** The protobuf media type stock clients hard-code. */
const UPSTREAM_PB = UPSTREAM_ALIASES.protobufMediaType;

describe('negotiation with binary encodings', () => {
  const lookup = () => undefined;
  const pb = protobufSerializer('application/vnd.platform.protobuf', lookup);
  const alias = protobufSerializer(UPSTREAM_PB, lookup);
  const codecs = (cbor: boolean): CodecSet => ({
    serializers: [JSON_SERIALIZER, YAML_SERIALIZER, pb, alias, ...(cbor ? [CBOR_SERIALIZER] : [])],
    advertised: [
      'application/json',
      'application/yaml',
      'application/vnd.platform.protobuf',
      ...(cbor ? ['application/cbor'] : []),
    ],
  });
  const o = (cbor: boolean) => ({ ...opts, codecs: codecs(cbor) });

  it('q-values and order pick among JSON, protobuf (either name) and CBOR', () => {
    assert.equal(negotiateOutput(`${UPSTREAM_PB},application/json`, o(false)).serializer, alias);
    assert.equal(
      negotiateOutput('application/json;q=0.5, application/vnd.platform.protobuf', o(false)).serializer,
      pb,
    );
    assert.equal(
      negotiateOutput('application/cbor, application/json;q=0.9', o(false)).serializer,
      JSON_SERIALIZER,
    );
    assert.equal(
      negotiateOutput('application/cbor, application/json;q=0.9', o(true)).serializer,
      CBOR_SERIALIZER,
    );
    assert.equal(negotiateOutput('*/*', o(true)).serializer, JSON_SERIALIZER);
  });

  it('kinds without protobuf messages: 406 or 415, and JSON when Accept falls back to it', () => {
    const noProtobuf: CodecSet = {
      serializers: [JSON_SERIALIZER, YAML_SERIALIZER],
      advertised: ['application/json', 'application/yaml'],
    };
    const without = { ...opts, codecs: noProtobuf };
    assert.throws(
      () => negotiateOutput(UPSTREAM_PB, without),
      (e: NotAcceptableError) =>
        e.message === 'only the following media types are accepted: application/json, application/yaml',
    );
    assert.equal(negotiateOutput(`${UPSTREAM_PB}, application/json`, without).serializer, JSON_SERIALIZER);
    assert.throws(
      () => negotiateInput(UPSTREAM_PB, noProtobuf),
      (e: UnsupportedMediaTypeError) => e.accepted.join(', ') === 'application/json, application/yaml',
    );
  });

  it('a Table is never protobuf: the clause is passed over for the fallback', () => {
    const accept = `${UPSTREAM_PB};as=Table;v=v1;g=${META},application/json`;
    const choice = negotiateOutput(accept, o(false));
    assert.equal(choice.serializer, JSON_SERIALIZER);
    assert.equal(choice.conversion, undefined);
  });

  it('406 and 415 list what is served, CBOR only when on', () => {
    assert.throws(
      () => negotiateOutput('application/cbor', o(false)),
      (e: NotAcceptableError) =>
        e.message ===
        'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf',
    );
    assert.throws(
      () => negotiateInput('application/cbor', codecs(false)),
      (e: UnsupportedMediaTypeError) =>
        e.accepted.join(', ') === 'application/json, application/yaml, application/vnd.platform.protobuf',
    );
    assert.equal(negotiateInput('application/cbor', codecs(true)), CBOR_SERIALIZER);
    assert.equal(negotiateInput(UPSTREAM_PB, codecs(false)), alias);
    assert.equal(negotiateInput(undefined, codecs(true)), JSON_SERIALIZER);
  });

  it('watch streams: stream media types, YAML refused', () => {
    assert.equal(negotiateStream('application/vnd.platform.protobuf', o(true)).serializer, pb);
    assert.equal(streamMediaTypeOf(pb), 'application/vnd.platform.protobuf;stream=watch');
    assert.equal(streamMediaTypeOf(CBOR_SERIALIZER), 'application/cbor-seq');
    assert.throws(
      () => negotiateStream('application/yaml, application/json', o(true)),
      (e: NotAcceptableError) =>
        e.accepted.join(', ') ===
        'application/json;stream=watch, application/vnd.platform.protobuf;stream=watch, application/cbor-seq',
    );
  });
});
