import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoDigits, formatBytes, formatNumber, formatSummary } from './format.ts';
import { summarize } from './stats.ts';

describe('formatNumber', () => {
  it('groups thousands and rounds to the requested digits', () => {
    assert.equal(formatNumber(1234567.89), '1,234,568');
    assert.equal(formatNumber(1.2345, 2), '1.23');
  });
});

describe('autoDigits', () => {
  it('keeps about two significant digits for small values', () => {
    assert.equal(autoDigits(12345), 0);
    assert.equal(autoDigits(42.5), 1);
    assert.equal(autoDigits(3.2), 2);
    assert.equal(autoDigits(0.42), 3);
    assert.equal(autoDigits(0), 0);
  });
});

describe('formatSummary', () => {
  it('renders median with the range at one precision', () => {
    assert.equal(formatSummary(summarize([11900, 12345, 12800])), '12,345 (11,900–12,800)');
    assert.equal(formatSummary(summarize([0.41, 0.4, 0.45]), ' s'), '0.410 s (0.400–0.450)');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KiB');
    assert.equal(formatBytes(50 * 1024 * 1024), '50.0 MiB');
  });
});
