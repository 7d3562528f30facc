// YAML decoded on the worker thread must be indistinguishable from YAML decoded in place: the same
// value, the same repeated-key lines, the same error class and message. A worker that dies fails
// what it owed and is replaced; and the event loop keeps turning while a large body decodes.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MAX_NESTING_DEPTH } from './depth.ts';
import { DecodeError, YAML_SERIALIZER } from './serializers.ts';
import {
  decodeYamlCheckedOffThread,
  decodeYamlOffThread,
  stopYamlWorker,
  YamlWorkerError,
} from './yaml-offload.ts';

/** A manifest of about `bytes` (block style, as kubectl writes them) with anchors, merges and repeats. */
function largeYaml(bytes: number): string {
  const head = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: big',
    '  labels: &labels {app: web, tier: "1"}',
    'extra:',
    '  <<: *labels',
    '  inf: .inf',
    '  nan: .nan',
    '  neg: -0.0',
    '  shared: *labels',
    '  app: repeated',
    '  app: again',
    'data:',
  ];
  const lines = [...head];
  for (let i = 0, size = head.join('\n').length; size < bytes; i++) {
    const line = i % 5000 === 4999 ? `  k${i - 1}: repeated` : `  k${i}: "value ${i}"`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** What the synchronous path throws for `body`, or fails when it does not throw. */
function syncError(decode: () => unknown): Error {
  try {
    decode();
  } catch (err) {
    return err as Error;
  }
  assert.fail('the synchronous decode did not throw');
}

async function assertSameError(body: string): Promise<void> {
  for (const [sync, offThread] of [
    [() => YAML_SERIALIZER.decode(body), () => decodeYamlOffThread(body)],
    [() => YAML_SERIALIZER.decodeChecked(body), () => decodeYamlCheckedOffThread(body)],
  ] as const) {
    const expected = syncError(sync);
    assert.ok(expected instanceof DecodeError);
    await assert.rejects(offThread(), (err: Error) => {
      assert.ok(err instanceof DecodeError, `${err.name} is not a DecodeError`);
      assert.equal(err.name, expected.name);
      assert.equal(err.message, expected.message);
      return true;
    });
  }
}

describe('YAML decoding on a worker thread', () => {
  after(() => stopYamlWorker());

  it('decodes a large body to the same value and repeated-key lines as the synchronous path', async () => {
    const body = largeYaml(300 * 1024);
    const expected = YAML_SERIALIZER.decodeChecked(body);
    assert.equal(expected.duplicates.format, 'yaml');
    assert.ok(expected.duplicates.format === 'yaml' && expected.duplicates.lines.length > 1);
    const got = await decodeYamlCheckedOffThread(body);
    assert.deepStrictEqual(got.value, expected.value);
    assert.deepStrictEqual(got.duplicates, expected.duplicates);
    // Values JSON could not carry come through as they are.
    const extra = (got.value as { extra: Record<string, unknown> }).extra;
    assert.equal(extra.inf, Number.POSITIVE_INFINITY);
    assert.ok(Number.isNaN(extra.nan));
    assert.ok(Object.is(extra.neg, -0));
    assert.deepStrictEqual(await decodeYamlOffThread(body), YAML_SERIALIZER.decode(body));
  });

  it('refuses an invalid large body with the identical error', async () => {
    const body = `${largeYaml(300 * 1024)}bad: [unclosed\n  - x: : y\n`;
    await assertSameError(body);
    await assertSameError(`${largeYaml(300 * 1024)}\tkey: tab-indented\n`);
  });

  it('refuses nesting past the limit with the identical error', async () => {
    // Nested in the text (refused before parsing), and nested through aliases (refused after).
    const block = Array.from({ length: MAX_NESTING_DEPTH + 2 }, (_, i) => `${'  '.repeat(i)}n${i}:`).join(
      '\n',
    );
    await assertSameError(`${largeYaml(64 * 1024)}deep:\n${block.replace(/^/gm, '  ')} x\n`);
    await assertSameError(`${'['.repeat(MAX_NESTING_DEPTH + 1)}${']'.repeat(MAX_NESTING_DEPTH + 1)}\n`);
    const half = MAX_NESTING_DEPTH / 2 + 10;
    const nest = (inner: string) => `${'['.repeat(half)}${inner}${']'.repeat(half)}`;
    await assertSameError(`a0: &a0 ${nest('x')}\na1: ${nest('*a0')}\n`);
  });

  it('fails the pending decode cleanly when its worker dies, and the next decode works', async () => {
    const body = largeYaml(300 * 1024);
    const pending = decodeYamlCheckedOffThread(body);
    await stopYamlWorker();
    await assert.rejects(pending, YamlWorkerError);
    const got = await decodeYamlCheckedOffThread(body);
    assert.deepStrictEqual(got.value, YAML_SERIALIZER.decode(body));
  });

  it('keeps the event loop turning while a large body decodes', async () => {
    const body = largeYaml(1024 * 1024);
    let turns = 0;
    let done = false;
    const turn = () => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    await decodeYamlCheckedOffThread(body);
    done = true;
    // Decoding in place would resolve before the first turn; on the worker, many pass meanwhile.
    assert.ok(turns > 1, `the event loop turned ${turns} times while the body decoded`);
  });
});
