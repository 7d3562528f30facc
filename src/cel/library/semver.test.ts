// Upstream's documented examples for the semver library (k8s.io/apiserver/pkg/cel/library
// semverlib.go and semver_test.go, v0.35.0, at library version 1 as kube-apiserver 1.35 has it),
// messages as kube-apiserver 1.35 answers them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnvironment } from '../environment.ts';
import { parseSemver } from '../semantics/index.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { quantityLibrary } from './quantity.ts';
import { SEMVER_TYPE, semverLibrary } from './semver.ts';

// With the quantity library too: both declare isLessThan, isGreaterThan and compareTo.
const env = createEnvironment({
  variables: { v: SEMVER_TYPE, x: T.dyn },
  libraries: [semverLibrary, quantityLibrary],
});
const vars = { v: parseSemver('1.30.2'), x: parseSemver('2.0.0-rc.1') };

const { value, failure, assertCosts } = evaluator(env, vars);

describe('semver library', () => {
  it('semver() parses strictly, or normalizes when asked', () => {
    assert.equal(String(value("semver('1.0.0')")), '1.0.0');
    assert.equal(String(value("semver('0.1.0-alpha.1')")), '0.1.0-alpha.1');
    assert.equal(String(value('semver("1.2.3")')), '1.2.3');
    assert.equal(failure("semver('200K')"), 'No Major.Minor.Patch elements found');
    assert.equal(failure("semver('Three')"), 'No Major.Minor.Patch elements found');
    assert.equal(failure("semver('Mi')"), 'No Major.Minor.Patch elements found');
    assert.equal(failure('semver("v1.0")'), 'No Major.Minor.Patch elements found');
    assert.equal(
      failure("semver('99999999999999999999.0.0')"),
      'strconv.ParseUint: parsing "99999999999999999999": value out of range',
    );
    assert.equal(String(value("semver('v1.0.0', true)")), '1.0.0');
    assert.equal(String(value("semver('1.0', true)")), '1.0.0');
    assert.equal(String(value("semver('01.01.01', true)")), '1.1.1');
    assert.equal(
      failure("semver('1.0-rc', true)"),
      'short version cannot contain PreRelease/Build meta data',
    );
  });

  it('isSemver, with and without normalization', () => {
    const facts: [string, boolean][] = [
      ["isSemver('1.0.0')", true],
      ["isSemver('hello')", false],
      ["isSemver('v1.0')", false],
      ["isSemver('v1.0', true)", true],
      ["isSemver('1.0', true)", true],
      ["isSemver('01.01.01', true)", true],
      ['isSemver("1.2.3-beta.1+build.1")', true],
      ['isSemver("")', false],
      ['isSemver("v1.0.0")', false],
      ['isSemver(" 1.0.0")', false],
      ['isSemver("1. 0.0")', false],
      ['isSemver("1.0.0 ")', false],
      ['isSemver("01.01.01")', false],
      ['isSemver("1")', false],
      ['isSemver("1.1")', false],
      ['isSemver("", true)', false],
      ['isSemver(" 1.0.0", true)', false],
      ['isSemver("1. 0.0", true)', false],
      ['isSemver("1.0.0 ", true)', false],
      ['isSemver("v1.0.0", true)', true],
      ['isSemver("1", true)', true],
      ['isSemver("1.1", true)', true],
    ];
    for (const [expr, want] of facts) assert.equal(value(expr), want, expr);
    assert.match(failure('isSemver([1, 2, 3])'), /found no matching overload for 'isSemver/);
  });

  it('major, minor and patch', () => {
    assert.equal(value('semver("1.2.3").major()'), 1n);
    assert.equal(value('semver("1.2.3").minor()'), 2n);
    assert.equal(value('semver("1.2.3").patch()'), 3n);
    // A uint64 component past int64 wraps, as upstream converts it.
    assert.equal(value("semver('18446744073709551615.0.0').major()"), -1n);
  });

  it('comparisons and equality', () => {
    assert.equal(value('semver("1.2.3").compareTo(semver("1.2.3"))'), 0n);
    assert.equal(value('semver("1.2.3").compareTo(semver("2.0.0"))'), -1n);
    assert.equal(value('semver("1.2.3").compareTo(semver("0.1.2"))'), 1n);
    assert.equal(value('semver("1.0.0").compareTo(semver("1.2.3"))'), -1n);
    assert.equal(value('semver("1.2.3").compareTo(semver("1.0.0"))'), 1n);
    assert.equal(value('semver("1.0.0").isLessThan(semver("1.2.3"))'), true);
    assert.equal(value('semver("1.0.0").isLessThan(semver("1.0.0"))'), false);
    assert.equal(value('semver("1.2.3").isGreaterThan(semver("1.0.0"))'), true);
    assert.equal(value('semver("1.0.0").isGreaterThan(semver("1.0.0"))'), false);
    assert.equal(value("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))"), true);
    assert.equal(value('semver("v01.01", true) == semver("1.1.0")'), true);
    assert.equal(value('semver("1.2.3") == semver("1.2.3")'), true);
    assert.equal(value('semver("1.2.3") == semver("1.0.0")'), false);
    // Build metadata does not take part in precedence, nor in equality.
    assert.equal(value("semver('1.0.0+a') == semver('1.0.0+b')"), true);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ["semver('0.1.0-alpha.1')", 2],
      ["semver('1.0.0+a') == semver('1.0.0+b')", 3],
      ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", 4],
      ["isSemver('v1.0', true)", 1],
      ["semver('1.2.3').major()", 2],
    ];
    assertCosts(facts);
  });

  it('variables and dyn values of the type', () => {
    assert.equal(value("v.isGreaterThan(semver('1.29.0')) && v.minor() == 30"), true);
    assert.equal(value("x.isLessThan(semver('2.0.0'))"), true);
    assert.equal(value("x.compareTo(semver('2.0.0-rc.1')) == 0 && x == semver('2.0.0-rc.1')"), true);
  });
});
