// Upstream's documented examples for the quantity library (k8s.io/apiserver/pkg/cel/library
// quantity.go and quantity_test.go, v0.35.0); where the doc comment and the implementation
// disagree, the figures are what kube-apiserver 1.35 answers (checked with it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quantity } from '../../machinery/quantity.ts';
import { createEnvironment } from '../environment.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { QUANTITY_TYPE, quantityLibrary } from './quantity.ts';

const env = createEnvironment({
  variables: { q: QUANTITY_TYPE, x: T.dyn },
  libraries: [quantityLibrary],
});
const vars = { q: Quantity.parse('16Gi'), x: Quantity.parse('1k') };

const { value, failure, assertCosts } = evaluator(env, vars);
const REGEX_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

describe('quantity library', () => {
  it('quantity() parses or fails with upstream messages', () => {
    assert.equal(String(value("quantity('1.5G')")), '1500M');
    assert.equal(String(value("quantity('200k')")), '200k');
    assert.equal(String(value('quantity("12Mi")')), '12Mi');
    assert.equal(failure("quantity('200K')"), "unable to parse quantity's suffix");
    assert.equal(failure("quantity('Three')"), REGEX_ERROR);
    assert.equal(failure('quantity("10Mo")'), REGEX_ERROR);
    assert.equal(failure('quantity("10Mm")'), "unable to parse quantity's suffix");
    assert.equal(failure("quantity('invalid')"), REGEX_ERROR);
    // The doc comment lists quantity('Mi') as an error; upstream's parser reads it as zero.
    assert.equal(String(value("quantity('Mi')")), '0');
  });

  it('isQuantity', () => {
    assert.equal(value("isQuantity('1.3G')"), true);
    assert.equal(value("isQuantity('1.3Gi')"), true);
    assert.equal(value("isQuantity('1,3G')"), false);
    assert.equal(value("isQuantity('10000k')"), true);
    assert.equal(value("isQuantity('200K')"), false);
    assert.equal(value("isQuantity('Three')"), false);
    assert.equal(value('isQuantity("20")'), true);
    assert.equal(value('isQuantity("20M")'), true);
    assert.equal(value('isQuantity("20Mi")'), true);
    assert.equal(value('isQuantity("20Mo")'), false);
    assert.equal(value('isQuantity("10Mm")'), false);
    assert.match(failure('isQuantity([1, 2, 3])'), /found no matching overload for 'isQuantity/);
  });

  it('conversion to scalars', () => {
    assert.equal(value('quantity("50000000G").isInteger()'), true);
    assert.equal(value('quantity("50k").isInteger()'), true);
    assert.equal(value('quantity("50").isInteger()'), true);
    assert.equal(
      failure('quantity("9999999999999999999999999999999999999G").asInteger()'),
      'cannot convert value to integer',
    );
    assert.equal(value('quantity("9999999999999999999999999999999999999G").isInteger()'), false);
    assert.equal(value('quantity("50k").asInteger() == 50000'), true);
    assert.equal(value('quantity("50k").asInteger()'), 50000n);
    assert.equal(value('quantity("50k").sub(20000).asApproximateFloat() == 30000.0'), true);
    assert.equal(value('quantity("50.703k").asApproximateFloat()'), 50703);
  });

  it('arithmetic', () => {
    assert.equal(value('quantity("50k").add(20) == quantity("50020")'), true);
    assert.equal(value('quantity("50k").sub(20000) == quantity("30k")'), true);
    assert.equal(value('quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")'), true);
    assert.equal(value('quantity("50k").add(quantity("20")) == quantity("50.02k")'), true);
    assert.equal(value('quantity("50k").add(20).isLessThan(quantity("50020"))'), false);
    assert.equal(value('quantity("50k").sub(quantity("20")) == quantity("49.98k")'), true);
    assert.equal(value('quantity("50k").sub(20) == quantity("49980")'), true);
    assert.equal(value('quantity("50k").add(20).sub(quantity("100k")).asInteger()'), -49980n);
    assert.equal(value('quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()'), 20n);
    // The doc comment's add("20k") has no overload: only quantities and ints are added.
    assert.match(failure('quantity("50k").add("20k")'), /found no matching overload for '[^']*add/);
  });

  it('sign is a global function, as upstream declares it', () => {
    assert.equal(value('sign(quantity("50k"))'), 1n);
    assert.equal(value('sign(quantity("-50k"))'), -1n);
    assert.equal(value('sign(quantity("0"))'), 0n);
    assert.match(failure('quantity("50k").sign()'), /found no matching overload for '[^']*sign/);
  });

  it('comparisons', () => {
    assert.equal(value('quantity("200M").compareTo(quantity("0.2G"))'), 0n);
    assert.equal(value('quantity("50M").compareTo(quantity("50Mi"))'), -1n);
    assert.equal(value('quantity("50Mi").compareTo(quantity("50M"))'), 1n);
    assert.equal(value('quantity("150Mi").isGreaterThan(quantity("100Mi"))'), true);
    assert.equal(value('quantity("50Mi").isGreaterThan(quantity("100Mi"))'), false);
    assert.equal(value('quantity("50Mi").isGreaterThan(quantity("50M"))'), true);
    assert.equal(value('quantity("50M").isGreaterThan(quantity("100M"))'), false);
    assert.equal(value('quantity("50M").isLessThan(quantity("100M"))'), true);
    assert.equal(value('quantity("100M").isLessThan(quantity("50M"))'), false);
    assert.equal(value('quantity("50M").isLessThan(quantity("50Mi"))'), true);
    // Values at one scale and across scales, small and arbitrary-precision ones (checked upstream).
    assert.equal(value('quantity("1.0000000001").compareTo(quantity("1.000000001"))'), 0n);
    assert.equal(value('quantity("-1.5").compareTo(quantity("-1500m"))'), 0n);
    assert.equal(value('quantity("-2").compareTo(quantity("-1"))'), -1n);
    assert.equal(value('quantity("1e3").compareTo(quantity("1k"))'), 0n);
    // Parsed values are shared between evaluations; each stays what it was.
    assert.equal(
      value('quantity("1k").add(1) == quantity("1001") && quantity("1k") == quantity("1000")'),
      true,
    );
  });

  it('equality compares values, not spellings', () => {
    assert.equal(value('quantity("200M") == quantity("200M")'), true);
    assert.equal(value('quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")'), true);
    assert.equal(
      value(
        'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
      ),
      true,
    );
    assert.equal(value('quantity("200M") == quantity("0.3G")'), false);
    assert.equal(value('quantity("200M") != quantity("0.3G")'), true);
    assert.equal(
      value('[quantity("1")] == [quantity("1000m")] && quantity("1") in [quantity("1000m")]'),
      true,
    );
    assert.equal(value('x == quantity("1000")'), true);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ["quantity('1.5G') == quantity('1500M')", 3],
      ["sign(quantity('-50k'))", 2],
      ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")', 7],
      ["quantity('123456789012').add(quantity('1')).isLessThan(quantity('1'))", 6],
      ["isQuantity('123456789012345678901234567890')", 3],
    ];
    assertCosts(facts);
  });

  it('variables and dyn values of the type', () => {
    assert.equal(value('q.isGreaterThan(quantity("8Gi"))'), true);
    assert.equal(value('x.compareTo(quantity("999"))'), 1n);
    assert.equal(value('type(q) == type(quantity("1"))'), true);
    assert.equal(value('type(q) == kubernetes.Quantity && type(x) == kubernetes.Quantity'), true);
    assert.match(failure('x.compareTo(1)'), /no (such|matching) overload/);
  });
});
