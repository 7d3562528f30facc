// The DRA device selector of issue 27 and upstream's DRA selector examples
// (k8s.io/dynamic-resource-allocation/cel compile_test.go, v0.35.0), compiled against the device
// type upstream declares (kubernetes.DRADevice: driver, attributes of int/bool/string/semver,
// capacity of quantities, allowMultipleAllocations) with the libraries of the base environment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quantity } from '../../machinery/quantity.ts';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { parseSemver } from '../semantics/index.ts';
import { T } from '../types.ts';
import { cidrLibrary } from './cidr.ts';
import { formatLibrary } from './format.ts';
import { ipLibrary } from './ip.ts';
import { QUANTITY_TYPE, quantityLibrary } from './quantity.ts';
import { semverLibrary } from './semver.ts';
import { urlLibrary } from './url.ts';

const device = T.object('kubernetes.DRADevice', {
  driver: T.string,
  allowMultipleAllocations: T.bool,
  attributes: T.map(T.string, T.map(T.string, T.dyn)),
  capacity: T.map(T.string, T.map(T.string, QUANTITY_TYPE)),
});
const env = createEnvironment({
  variables: { device },
  libraries: [quantityLibrary, semverLibrary, ipLibrary, cidrLibrary, urlLibrary, formatLibrary],
});

function run(expr: string, d: Record<string, unknown>) {
  const c = compile(env, expr, { expected: [T.bool] });
  if (!c.ok) throw new Error(c.error.message);
  return evaluate(c.program, { device: d });
}
function matches(expr: string, d: Record<string, unknown>): unknown {
  const r = run(expr, d);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const gpu = (memory: string) => ({
  driver: 'gpu.example.com',
  allowMultipleAllocations: false,
  attributes: { 'gpu.example.com': { memory: Quantity.parse(memory), cores: 16n, model: 'a100' } },
  capacity: { 'gpu.example.com': { memory: Quantity.parse(memory) } },
});

describe('DRA device selectors', () => {
  it("issue 27's selector: a quantity held in a dyn attribute", () => {
    const expr =
      'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0';
    assert.equal(matches(expr, gpu('16Gi')), true);
    assert.equal(matches(expr, gpu('8Gi')), true);
    assert.equal(matches(expr, gpu('4Gi')), false);
    assert.equal(matches(expr, { ...gpu('16Gi'), driver: 'other.example.com' }), false);
  });

  it('the same over capacity, where upstream keeps quantities', () => {
    const expr = 'device.capacity["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0';
    assert.equal(matches(expr, gpu('16Gi')), true);
    assert.equal(matches(expr, gpu('7Gi')), false);
    assert.equal(
      matches('device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("1Ki"))', gpu('1Mi')),
      true,
    );
  });

  it("upstream's scenario of every attribute kind", () => {
    const expr = `
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
`;
    const d = {
      driver: 'dra.example.com',
      allowMultipleAllocations: true,
      attributes: {
        'dra.example.com': { bool: true, int: 1n, string: 'fish', version: parseSemver('1.0.0') },
      },
      capacity: { 'dra.example.com': { quantity: Quantity.parse('1Mi') } },
    };
    assert.equal(matches(expr, d), true);
    assert.equal(
      matches(
        'device.attributes["dra.example.com"].version.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)',
        d,
      ),
      true,
    );
    assert.equal(
      matches('cel.bind(dra, device.attributes["dra.example.com"], dra.string == "fish")', d),
      true,
    );
    assert.equal(matches('device.allowMultipleAllocations == true', d), true);
    assert.equal(
      matches(
        '"quantity" in device.capacity["dra.example.com"] && !("name" in device.capacity["dra.example.com"])',
        d,
      ),
      true,
    );
  });

  it('a missing attribute is an error; a wrong attribute kind too', () => {
    const d = gpu('1Gi');
    const missing = run('device.attributes["gpu.example.com"].noSuchAttr.isGreaterThan(quantity("0"))', d);
    assert.equal(missing.ok, false);
    if (!missing.ok) assert.equal(missing.error.message, 'no such key: noSuchAttr');
    const wrongKind = run('device.attributes["gpu.example.com"].model.isGreaterThan(quantity("0"))', d);
    assert.equal(wrongKind.ok, false);
    assert.match(failed(wrongKind), /no (such|matching) overload/);
  });

  it('an unknown field of the device is a compile error', () => {
    const c = compile(env, 'device.noSuchField == 1');
    assert.equal(c.ok, false);
    if (!c.ok) assert.match(c.error.message, /undefined field 'noSuchField'/);
  });
});

function failed(r: ReturnType<typeof evaluate>): string {
  return r.ok ? `value ${String(r.value)}` : r.error.message;
}
