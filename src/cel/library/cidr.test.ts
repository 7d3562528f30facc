// Upstream's documented examples for the CIDR library (k8s.io/apiserver/pkg/cel/library cidr.go
// and cidr_test.go, v0.35.0), messages and costs as kube-apiserver 1.35 answers them. The doc
// comment calls cidr('192.168.0.1/16') an error, but upstream accepts it (the address is kept as
// written; masked() gives the network), as the ip() and masked() examples of the same comment show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { parseCIDR, parseIP } from '../semantics/index.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { CIDR_TYPE, cidrLibrary, containsCost } from './cidr.ts';
import { ipLibrary } from './ip.ts';

const env = createEnvironment({
  variables: { net4: CIDR_TYPE, x: T.dyn },
  libraries: [ipLibrary, cidrLibrary],
});
const vars = { net4: parseCIDR('10.0.0.0/8'), x: parseCIDR('2001:db8::/32') };

const { value, failure, assertCosts } = evaluator(env, vars);
const CONVERSION = 'network address parse error during conversion from string: ';

describe('cidr library', () => {
  it('cidr() parses networks, refuses the rest with upstream messages', () => {
    assert.equal(String(value("cidr('192.168.0.0/16')")), '192.168.0.0/16');
    assert.equal(String(value("cidr('::1/128')")), '::1/128');
    assert.equal(String(value('cidr("2001:db8::/32")')), '2001:db8::/32');
    assert.equal(String(value("cidr('192.168.0.1/16')")), '192.168.0.1/16');
    assert.equal(
      failure("cidr('192.168.0.0/33')"),
      `${CONVERSION}${CONVERSION}netip.ParsePrefix("192.168.0.0/33"): prefix length out of range`,
    );
    assert.equal(
      failure("cidr('::1/129')"),
      `${CONVERSION}${CONVERSION}netip.ParsePrefix("::1/129"): prefix length out of range`,
    );
    assert.equal(
      failure('cidr("192.168.0.0/")'),
      `${CONVERSION}${CONVERSION}netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`,
    );
    assert.equal(
      failure('cidr("2001:db8::/")'),
      `${CONVERSION}${CONVERSION}netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""`,
    );
    assert.equal(
      failure("cidr('::ffff:1.2.3.4/24')"),
      `${CONVERSION}IPv4-mapped IPv6 address "::ffff:1.2.3.4/24" is not allowed`,
    );
  });

  it('isCIDR', () => {
    assert.equal(value("isCIDR('192.168.0.0/16')"), true);
    assert.equal(value("isCIDR('::1/128')"), true);
    assert.equal(value("isCIDR('192.168.0.0/33')"), false);
    assert.equal(value("isCIDR('::1/129')"), false);
  });

  it('containsIP and containsCIDR, with values and strings', () => {
    const facts: [string, boolean][] = [
      ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
      ["cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", false],
      ["cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
      ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
      ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
      ["cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))", false],
      ["cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')", true],
      ["cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", false],
      ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
      ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', true],
      ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
      ['cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', false],
      ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
      ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
      ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
      ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
      ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
      ['cidr("2001:db8::/32").containsIP("2001:dc8::1")', false],
      ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
      ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false],
      ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
      ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false],
      ["net4.containsIP('10.1.2.3') && x.containsCIDR('2001:db8:1::/48')", true],
    ];
    for (const [expr, want] of facts) assert.equal(value(expr), want, expr);
    // A string that is not an address: upstream's binding answers "no such overload".
    assert.equal(failure("cidr('192.168.0.0/24').containsIP('192.168.0')"), 'no such overload');
    assert.equal(
      failure("cidr('192.168.0.0/24').containsCIDR('192.168.0')"),
      `${CONVERSION}${CONVERSION}netip.ParsePrefix("192.168.0"): no '/'`,
    );
  });

  it('ip(), masked(), prefixLength(), string() and equality', () => {
    assert.equal(String(value("cidr('192.168.0.1/24').ip()")), '192.168.0.1');
    assert.equal(value("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')"), true);
    assert.equal(value("cidr('192.168.0.1/24').ip().family()"), 4n);
    assert.equal(String(value("cidr('::1/128').ip()")), '::1');
    assert.equal(value("cidr('::1/128').ip().family()"), 6n);
    assert.equal(value("cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')"), true);
    assert.equal(value("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')"), true);
    assert.equal(value("cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()"), true);
    assert.equal(value("cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()"), false);
    assert.equal(value('cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")'), true);
    assert.equal(value("cidr('192.168.0.0/16').prefixLength()"), 16n);
    assert.equal(value("cidr('::1/128').prefixLength()"), 128n);
    assert.equal(value('string(cidr("192.168.0.0/24"))'), '192.168.0.0/24');
    assert.equal(value("string(cidr('192.168.0.1/24').masked())"), '192.168.0.0/24');
    assert.equal(value('type(cidr("192.168.0.0/24")) == net.CIDR'), true);
    assert.equal(value('type(cidr("192.168.0.0/24")) == net.IP'), false);
  });

  it('stands alone: cidr().ip() without the ip library', () => {
    const alone = createEnvironment({ variables: {}, libraries: [cidrLibrary] });
    const c = compile(alone, "cidr('192.168.0.1/24').ip() == cidr('192.168.0.1/32').ip()");
    const r = c.ok ? evaluate(c.program, {}) : undefined;
    assert.equal(r?.ok && r.value, true);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ["cidr('10.0.0.0/8').containsIP('10.1.2.3')", 3],
      ["cidr('10.0.0.0/8').containsCIDR('10.1.2.0/24')", 6],
      ["cidr('10.0.0.0/8').containsCIDR(cidr('10.1.2.0/24'))", 6],
      ["cidr('2001:db8::/32').containsCIDR('2001:db8::/33')", 7],
      ["cidr('::/128').containsIP(ip('::1'))", 6],
      ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", 6],
      ["cidr('192.168.0.0/24').prefixLength()", 3],
    ];
    assertCosts(facts);
  });

  it("containsIP and containsCIDR cost what upstream's cost.go charges", () => {
    const c8 = parseCIDR('10.0.0.0/8');
    const c32 = parseCIDR('2001:db8::/32');
    // Figures as kube-apiserver 1.35 reports them for these calls.
    assert.equal(containsCost(c8, '10.1.2.3', false), 2);
    assert.equal(containsCost(c8, parseIP('10.1.2.3'), false), 1);
    assert.equal(containsCost(c8, '10.1.2.0/24', true), 5);
    assert.equal(containsCost(c8, parseCIDR('10.1.2.0/24'), true), 3);
    assert.equal(containsCost(c32, '2001:db8::/33', true), 5);
    assert.equal(containsCost(parseCIDR('::/128'), parseIP('::1'), false), 4);
  });
});
