import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoTime } from './go-time.ts';

// Every expectation here was produced by Go's time.Parse with the same layouts.
const ok = (s: string, micro = false) => {
  const r = parseGoTime(s, micro);
  assert.ok(r.ok, JSON.stringify(r));
  return r.canonical;
};
const err = (s: string, micro = false) => {
  const r = parseGoTime(s, micro);
  assert.ok(!r.ok, `${s} parsed`);
  return r.error;
};

describe('parseGoTime (metav1.Time)', () => {
  it('writes back UTC seconds, dropping any fraction', () => {
    assert.equal(ok('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00Z');
    assert.equal(ok('2024-01-01T00:00:00.123Z'), '2024-01-01T00:00:00Z');
    assert.equal(ok('2024-02-29T23:59:59-01:30'), '2024-03-01T01:29:59Z');
    assert.equal(ok('2024-01-01T1:00:00Z'), '2024-01-01T01:00:00Z');
    assert.equal(ok('0001-01-01T00:00:00Z'), '0001-01-01T00:00:00Z');
  });

  it('fails with the element that does not parse', () => {
    assert.equal(
      err('abc'),
      'parsing time "abc" as "2006-01-02T15:04:05Z07:00": cannot parse "abc" as "2006"',
    );
    assert.equal(
      err('2024-01-01T00:00:00'),
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    );
    assert.equal(
      err('2024-01-01t00:00:00Z'),
      'parsing time "2024-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T"',
    );
    assert.equal(
      err('2024-01-01T00:00:00+0200'),
      'parsing time "2024-01-01T00:00:00+0200" as "2006-01-02T15:04:05Z07:00": cannot parse "+0200" as "Z07:00"',
    );
    assert.equal(err('2024-1-01T00:00:00Z').endsWith('cannot parse "1-01T00:00:00Z" as "01"'), true);
    assert.equal(err('YW\nJj').includes('"YW\\x0aJj"'), true);
  });

  it('names ranges and trailing text', () => {
    assert.equal(err('2024-13-01T00:00:00Z'), 'parsing time "2024-13-01T00:00:00Z": month out of range');
    assert.equal(err('2023-02-29T00:00:00Z'), 'parsing time "2023-02-29T00:00:00Z": day out of range');
    assert.equal(err('2024-01-01T24:00:00Z'), 'parsing time "2024-01-01T24:00:00Z": hour out of range');
    assert.equal(err('2024-01-01T00:00:60Z'), 'parsing time "2024-01-01T00:00:60Z": second out of range');
    assert.equal(
      err('2024-01-01T00:00:00+25:00'),
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
    );
    assert.equal(
      err('2024-01-01T00:00:00Zjunk'),
      'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"',
    );
  });
});

describe('parseGoTime (metav1.MicroTime)', () => {
  it('needs exactly six fraction digits and writes them back in UTC', () => {
    assert.equal(ok('2024-01-01T10:00:00.123456+02:00', true), '2024-01-01T08:00:00.123456Z');
    assert.equal(ok('2024-01-01T00:00:00,123456Z', true), '2024-01-01T00:00:00.123456Z');
    assert.equal(
      err('2024-01-01T00:00:00Z', true),
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
    assert.equal(
      err('2024-01-01T00:00:00.1234567Z', true),
      'parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"',
    );
  });
});
