import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupName, namingProfile } from '../naming/profile.ts';
import { covers, parseAccept, parseMediaType } from './media-type.ts';

const SPEC = namingProfile('spec');

describe('media types', () => {
  it('parses type, parameters and quality', () => {
    assert.deepEqual(parseMediaType('Application/JSON; charset=utf-8'), {
      essence: 'application/json',
      params: { charset: 'utf-8' },
      q: 1,
    });
    assert.deepEqual(parseMediaType(`application/json;as=Table;v=v1;g=${groupName(SPEC, 'meta')};q=0.5`), {
      essence: 'application/json',
      params: { as: 'Table', v: 'v1', g: `${groupName(SPEC, 'meta')}` },
      q: 0.5,
    });
    assert.equal(parseMediaType('not a type'), null);
    assert.equal(parseMediaType('application/json;broken'), null);
  });

  it('orders Accept clauses by quality, then by position, and drops q=0', () => {
    const accept = parseAccept('application/yaml;q=0.5, application/json, text/plain;q=0, */*;q=0.1');
    assert.deepEqual(
      accept.map((m) => m.essence),
      ['application/json', 'application/yaml', '*/*'],
    );
  });

  it('an absent Accept header accepts anything', () => {
    assert.deepEqual(
      parseAccept(undefined).map((m) => m.essence),
      ['*/*'],
    );
    assert.deepEqual(
      parseAccept('  ').map((m) => m.essence),
      ['*/*'],
    );
  });

  it('wildcards cover concrete types', () => {
    assert.ok(covers('*/*', 'application/json'));
    assert.ok(covers('application/*', 'application/yaml'));
    assert.ok(!covers('text/*', 'application/json'));
    assert.ok(covers('application/json', 'application/json'));
  });
});
