// Expected values are upstream's: the examples documented in apiserver's CEL semver library (1.35)
// and its tests, and messages recorded from k8s.io/apiserver v0.35.0 (blang/semver v4).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSemver, parseSemver, SemverError, semverComponentAsInt } from './semver.ts';

describe('semver()', () => {
  it('parses strictly', () => {
    const v = parseSemver('1.2.3');
    assert.deepEqual([v.major, v.minor, v.patch], [1n, 2n, 3n]);
    assert.equal(parseSemver('0.1.0-alpha.1').toString(), '0.1.0-alpha.1');
    assert.equal(isSemver('1.2.3-beta.1+build.1'), true);
    for (const bad of [
      '',
      'v1.0.0',
      ' 1.0.0',
      '1. 0.0',
      '1.0.0 ',
      '01.01.01',
      '1',
      '1.1',
      'hello',
      '200K',
      'Three',
      'Mi',
    ]) {
      assert.equal(isSemver(bad), false, bad);
    }
    assert.throws(() => parseSemver('v1.0'), new SemverError('No Major.Minor.Patch elements found'));
    assert.throws(
      () => parseSemver('01.1.1'),
      new SemverError('Major number must not contain leading zeroes "01"'),
    );
    assert.throws(
      () => parseSemver('1.0.0-01'),
      new SemverError('Numeric PreRelease version must not contain leading zeroes "01"'),
    );
    assert.throws(
      () => parseSemver('1..0'),
      new SemverError('strconv.ParseUint: parsing "": invalid syntax'),
    );
    assert.throws(() => parseSemver('1.0.0+'), new SemverError('Build meta data is empty'));
  });

  it('normalizes on request', () => {
    assert.equal(parseSemver('v1.0.0', true).toString(), '1.0.0');
    assert.equal(parseSemver('1.0', true).toString(), '1.0.0');
    assert.equal(parseSemver('01.01.01', true).toString(), '1.1.1');
    assert.equal(isSemver('v1.0', true), true);
    assert.equal(isSemver('1', true), true);
    for (const bad of ['', ' 1.0.0', '1. 0.0', '1.0.0 ']) assert.equal(isSemver(bad, true), false, bad);
    assert.throws(
      () => parseSemver('1.0-beta', true),
      new SemverError('short version cannot contain PreRelease/Build meta data'),
    );
    assert.ok(parseSemver('v01.01', true).equals(parseSemver('1.1.0')));
  });

  it('compares by precedence and ignores build metadata', () => {
    const c = (a: string, b: string) => parseSemver(a).compare(parseSemver(b));
    assert.equal(c('1.2.3', '1.2.3'), 0);
    assert.equal(c('1.2.3', '2.0.0'), -1);
    assert.equal(c('1.2.3', '0.1.2'), 1);
    assert.equal(c('1.0.0-alpha', '1.0.0'), -1);
    assert.equal(c('1.0.0-alpha.1', '1.0.0-alpha.beta'), -1);
    assert.equal(c('1.0.0-beta.2', '1.0.0-beta.11'), -1);
    assert.equal(c('1.0.0-rc.1', '1.0.0-rc.1+x'), 0);
    assert.ok(!parseSemver('1.2.3').equals(parseSemver('1.0.0')));
  });

  it('reports components as CEL ints', () => {
    assert.equal(semverComponentAsInt(parseSemver('18446744073709551615.0.0').major), -1n);
  });
});
