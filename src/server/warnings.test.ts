import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addWarnings,
  MAX_WARNING_ITEM_RUNES,
  MAX_WARNING_TOTAL_RUNES,
  WarningRecorder,
  warningHeaders,
} from './warnings.ts';

const runesOf = (headers: string[]) =>
  headers.reduce((n, h) => n + [...(JSON.parse(h.slice('299 - '.length)) as string)].length, 0);

describe('warning headers', () => {
  it('quotes each text after code 299 and agent -, dropping repeats and empty texts', () => {
    assert.deepEqual(warningHeaders(['a "b" \\c', '', 'x', 'a "b" \\c']), [
      '299 - "a \\"b\\" \\\\c"',
      '299 - "x"',
    ]);
  });

  it('sends no header for a text with a control character', () => {
    assert.deepEqual(warningHeaders(['my\ntext', 'ok', 'bad\u0085']), ['299 - "ok"']);
  });

  it('keeps every warning whole while the total fits', () => {
    const texts = Array.from({ length: 16 }, (_, i) => `${String(i).padStart(2, '0')}${'w'.repeat(254)}`);
    assert.equal(warningHeaders(texts).length, 16);
    assert.equal(runesOf(warningHeaders(texts)), MAX_WARNING_TOTAL_RUNES);
  });

  it('past the total, shortens every warning to 256 runes and stops once the total is reached again', () => {
    const long = (i: number) => `${i}:${'é'.repeat(1000)}`;
    const texts = Array.from({ length: 40 }, (_, i) => long(i));
    const headers = warningHeaders(texts);
    // Four whole texts fit; the fifth starts the truncation, which replays all five at 256 runes,
    // then adds shortened ones until the total reaches 4,096 runes (16 of them).
    assert.equal(headers.length, MAX_WARNING_TOTAL_RUNES / MAX_WARNING_ITEM_RUNES);
    assert.equal(headers[0], `299 - "${long(0).slice(0, MAX_WARNING_ITEM_RUNES)}"`);
    assert.equal(headers[15], `299 - "${long(15).slice(0, MAX_WARNING_ITEM_RUNES)}"`);
  });

  it('counts runes, not UTF-16 units, when shortening', () => {
    const astral = '😀'.repeat(5000);
    const [h] = warningHeaders([astral]);
    assert.equal([...(JSON.parse(h.slice('299 - '.length)) as string)].length, MAX_WARNING_ITEM_RUNES);
  });

  it('bounds 300,000 findings to what upstream sends', () => {
    const texts = Array.from({ length: 300_000 }, (_, i) => `unknown field "u${i}"`);
    const headers = warningHeaders(texts);
    assert.ok(headers.length < 400, String(headers.length));
    assert.equal(headers[0], '299 - "unknown field \\"u0\\""');
    // Shortened texts keep going until the total is reached, so it ends at or just past it.
    const total = runesOf(headers);
    assert.ok(total >= MAX_WARNING_TOTAL_RUNES && total < MAX_WARNING_TOTAL_RUNES + 32, String(total));
  });

  it('addWarnings keeps only what can still be sent, and the headers come out the same', () => {
    const texts = Array.from({ length: 300_000 }, (_, i) => `unknown field "u${i}"`);
    const kept = ['earlier warning'];
    addWarnings(kept, texts);
    assert.ok(kept.length < 400, String(kept.length));
    assert.deepEqual(warningHeaders(kept), warningHeaders(['earlier warning', ...texts]));
    const r = new WarningRecorder();
    for (const t of kept) r.add(t);
    assert.equal(r.full, true);
  });
});
