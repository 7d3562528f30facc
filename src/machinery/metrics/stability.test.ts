import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsRegistry } from './registry.ts';
import { annotatedHelp, isHidden, validateShowHiddenVersion } from './stability.ts';

describe('metric stability', () => {
  it('prefixes the class and notes a deprecation once the current release has reached it', () => {
    assert.equal(annotatedHelp('Counts.', { stability: 'STABLE' }, '1.35'), '[STABLE] Counts.');
    assert.equal(annotatedHelp('Counts.', {}, '1.35'), '[ALPHA] Counts.');
    assert.equal(
      annotatedHelp('Counts.', { stability: 'BETA', deprecatedVersion: '1.35.0' }, '1.35'),
      '[BETA] (Deprecated from 1.35) Counts.',
    );
    // Deprecated in a later release: not yet.
    assert.equal(annotatedHelp('Counts.', { deprecatedVersion: '1.36' }, '1.35'), '[ALPHA] Counts.');
  });

  it("hides a deprecated metric once its class's period has run out, unless asked", () => {
    // ALPHA (and INTERNAL): hidden from the release that deprecates it.
    assert.equal(isHidden({ deprecatedVersion: '1.35' }, '1.35', false), true);
    assert.equal(isHidden({ deprecatedVersion: '1.36' }, '1.35', false), false);
    // BETA: one more release.
    assert.equal(isHidden({ stability: 'BETA', deprecatedVersion: '1.35' }, '1.35', false), false);
    assert.equal(isHidden({ stability: 'BETA', deprecatedVersion: '1.34' }, '1.35', false), true);
    // STABLE: three more.
    assert.equal(isHidden({ stability: 'STABLE', deprecatedVersion: '1.33.0' }, '1.35', false), false);
    assert.equal(isHidden({ stability: 'STABLE', deprecatedVersion: '1.32.0' }, '1.35', false), true);
    assert.equal(isHidden({ stability: 'STABLE', deprecatedVersion: '0.99' }, '1.35', false), true);
    assert.equal(isHidden({ deprecatedVersion: '1.34' }, '1.35', true), false);
    assert.equal(isHidden({}, '1.35', false), false);
  });

  it('accepts only the previous minor release for --show-hidden-metrics-for-version', () => {
    assert.equal(validateShowHiddenVersion('', '1.35'), undefined);
    assert.equal(validateShowHiddenVersion('1.34', '1.35'), undefined);
    for (const bad of ['1.33', '1.35', 'x']) {
      assert.equal(
        validateShowHiddenVersion(bad, '1.35'),
        "--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor version is allowed",
      );
    }
  });

  it('leaves hidden metrics out of the exposition and brings them back with the flag', async () => {
    const define = (r: MetricsRegistry) => {
      r.counter({ name: 'kept_total', help: 'Kept.', stability: 'STABLE' });
      const old = r.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.34' });
      old.inc(); // recording into a hidden metric is harmless
    };
    const plain = new MetricsRegistry();
    define(plain);
    const text = await plain.metrics();
    assert.match(text, /^# HELP kept_total \[STABLE\] Kept\.$/m);
    assert.doesNotMatch(text, /old_total/);

    const shown = new MetricsRegistry({ showHiddenMetricsForVersion: '1.34' });
    define(shown);
    assert.match(await shown.metrics(), /^# HELP old_total \[ALPHA\] \(Deprecated from 1\.34\) Old\.$/m);
    assert.throws(
      () => new MetricsRegistry({ showHiddenMetricsForVersion: '1.30' }),
      /Only the previous minor/,
    );
  });
});
