// The ordered blocks against a plain sorted model: random sets and deletes across splits and
// merges, ranges at any bounds, and the bytes of packed runs, before and after packing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJoined } from '../encoded.ts';
import { Entry } from './entry.ts';
import { OrderedEntries } from './ordered-entries.ts';

function entry(key: string, version: number): Entry {
  // Some bodies are not ASCII, some are large enough to split blocks by bytes.
  const filler = version % 7 === 0 ? 'ü€🙂' : version % 97 === 0 ? 'z'.repeat(300_000) : '';
  const text = JSON.stringify({ metadata: { name: key, resourceVersion: String(version) }, f: filler });
  return new Entry(text, Buffer.byteLength(text), {}, version, key, undefined, undefined);
}

/** A deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function written(entries: OrderedEntries, start: string, end: string): string {
  return entries
    .runs(start, end)
    .map((r) => (isJoined(r) ? r.joined.toString() : r.text()))
    .join(',');
}

describe('ordered entries', () => {
  it('agrees with a sorted model through sets, deletes, splits and merges', () => {
    const next = random(7);
    const entries = new OrderedEntries();
    const model = new Map<string, Entry>();
    const key = () => `/r/ns${Math.floor(next() * 5)}/o${String(Math.floor(next() * 400)).padStart(3, '0')}`;
    for (let step = 1; step <= 6000; step++) {
      const k = key();
      if (next() < 0.3) {
        assert.equal(entries.delete(k), model.get(k));
        model.delete(k);
      } else {
        const e = entry(k, step);
        assert.equal(entries.set(k, e), model.get(k));
        model.set(k, e);
      }
      if (step % 500 === 0) entries.pack();
      if (step % 250 !== 0) continue;
      assert.equal(entries.size, model.size);
      const sorted = [...model.keys()].sort();
      for (const [start, end] of [
        ['', '\u{10FFFF}'],
        ['/r/ns1/', '/r/ns10'],
        ['/r/ns2/o1', '/r/ns3/o2'],
        ['/r/ns9/', '/r/ns9~'],
      ]) {
        const keys = sorted.filter((x) => x >= start && x < end);
        const slice = entries.slice(start, end);
        assert.deepEqual(slice.keys, keys);
        assert.deepEqual(
          slice.entries,
          keys.map((x) => model.get(x)),
        );
        assert.deepEqual(entries.range(start, end), slice.entries);
        const expected = keys.map((x) => model.get(x)?.text()).join(',');
        assert.equal(written(entries, start, end), expected);
        const bytes = entries
          .runs(start, end)
          .reduce((n, r) => n + (isJoined(r) ? r.joined.length : r.bytes), 0);
        assert.equal(bytes + Math.max(0, entries.runs(start, end).length - 1), Buffer.byteLength(expected));
      }
    }
  });

  it('keeps what a reader took: replaced and deleted entries, and earlier runs, read as they were', () => {
    const entries = new OrderedEntries();
    for (let i = 0; i < 100; i++) entries.set(`k${String(i).padStart(3, '0')}`, entry(`k${i}`, i + 1));
    const before = written(entries, '', '~');
    const runs = entries.runs('', '~');
    const replaced = entries.get('k010') as Entry;
    const deleted = entries.get('k020') as Entry;
    const replacedText = replaced.text();
    const deletedText = deleted.text();
    entries.set('k010', entry('k10', 500));
    entries.delete('k020');
    entries.pack();
    assert.equal(replaced.text(), replacedText);
    assert.equal(deleted.text(), deletedText);
    const target = Buffer.alloc(replaced.bytes);
    assert.equal(replaced.copyTo(target, 0), replaced.bytes);
    assert.equal(target.toString(), replacedText);
    assert.equal(runs.map((r) => (isJoined(r) ? r.joined.toString() : r.text())).join(','), before);
    assert.notEqual(written(entries, '', '~'), before);
  });

  it('lists a whole collection as a few joined runs', () => {
    const entries = new OrderedEntries();
    for (let i = 0; i < 1000; i++) entries.set(`/a/${String(i).padStart(4, '0')}`, entry(`n${i}`, 1));
    const runs = entries.runs('/a/', '/a0');
    assert.ok(runs.every(isJoined));
    assert.ok(runs.length <= 1000 / 16, `${runs.length} runs`);
    assert.equal(
      runs.reduce((n, r) => n + (isJoined(r) ? r.count : 1), 0),
      1000,
    );
  });
});
