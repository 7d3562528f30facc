// Smoke run of the codec scenario: every codec encodes and decodes both objects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codecScenario } from './index.ts';

describe('codec bench scenario (quick)', () => {
  it('measures every codec for both objects', async () => {
    const out = await codecScenario.run({
      backends: ['sqlite'],
      quick: true,
      protocol: 'http1',
      encoding: 'json',
      log: () => {},
    });
    const results = out.results as { codec: string; encodePerSecond: number; decodePerSecond: number }[];
    assert.equal(results.length, 8);
    for (const r of results) assert.ok(r.encodePerSecond > 0 && r.decodePerSecond > 0, r.codec);
    assert.match(out.markdown, /application\/vnd\.platform\.protobuf/);
    assert.match(out.markdown, /application\/cbor/);
  });
});
