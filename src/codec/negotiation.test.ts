import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UPSTREAM_ALIASES } from '../naming/index.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import {
  NotAcceptableError,
  negotiateInput,
  negotiateOutput,
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
