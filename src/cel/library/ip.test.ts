// Upstream's documented examples for the IP library (k8s.io/apiserver/pkg/cel/library ip.go and
// ip_test.go, v0.35.0), messages as kube-apiserver 1.35 answers them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnvironment } from '../environment.ts';
import { parseIP } from '../semantics/index.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { cidrLibrary } from './cidr.ts';
import { IP_TYPE, ipLibrary } from './ip.ts';

const env = createEnvironment({
  variables: { addr: IP_TYPE, x: T.dyn },
  libraries: [ipLibrary, cidrLibrary],
});
const vars = { addr: parseIP('10.0.0.1'), x: parseIP('::1') };

const { value, failure, assertCosts } = evaluator(env, vars);

describe('ip library', () => {
  it('ip() parses IPv4 and IPv6, refuses the rest with upstream messages', () => {
    assert.equal(String(value("ip('127.0.0.1')")), '127.0.0.1');
    assert.equal(String(value("ip('::1')")), '::1');
    assert.equal(String(value('ip("2001:db8::68")')), '2001:db8::68');
    assert.equal(
      failure("ip('127.0.0.256')"),
      'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255',
    );
    assert.equal(
      failure("ip(':::1')"),
      'IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")',
    );
    assert.equal(
      failure('ip("192.168.0.1.0")'),
      'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
    );
    assert.equal(
      failure('ip("2001:db8:::68")'),
      'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    );
    assert.equal(failure("ip('::ffff:1.2.3.4')"), 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
    assert.equal(failure("ip('fe80::1%eth0')"), 'IP address "fe80::1%eth0" with zone value is not allowed');
    assert.equal(
      failure("ip('01.1.1.1')"),
      'IP Address "01.1.1.1" parse error during conversion from string: ParseAddr("01.1.1.1"): IPv4 field has octet with leading zero',
    );
  });

  it('isIP', () => {
    assert.equal(value("isIP('127.0.0.1')"), true);
    assert.equal(value("isIP('::1')"), true);
    assert.equal(value("isIP('127.0.0.256')"), false);
    assert.equal(value("isIP(':::1')"), false);
    assert.equal(value('isIP("192.168.0.1.0")'), false);
    assert.equal(value('isIP("2001:db8::68")'), true);
    assert.equal(value("isIP('::ffff:1.2.3.4')"), false);
    assert.match(failure('isIP(cidr("192.168.0.0/24"))'), /found no matching overload for 'isIP/);
  });

  it('ip.isCanonical', () => {
    assert.equal(value("ip.isCanonical('127.0.0.1')"), true);
    assert.equal(value("ip.isCanonical('2001:db8::abcd')"), true);
    assert.equal(value("ip.isCanonical('2001:DB8::ABCD')"), false);
    assert.equal(value("ip.isCanonical('2001:db8::0:0:0:abcd')"), false);
    assert.equal(
      failure('ip.isCanonical("127.0.0.1.0")'),
      'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long',
    );
  });

  it('family and the address classes', () => {
    assert.equal(value("ip('127.0.0.1').family()"), 4n);
    assert.equal(value("ip('::1').family()"), 6n);
    assert.equal(value("ip('127.0.0.1').family() == 4"), true);
    assert.equal(value("ip('::1').family() == 6"), true);
    const facts: [string, boolean][] = [
      ["ip('0.0.0.0').isUnspecified()", true],
      ["ip('127.0.0.1').isUnspecified()", false],
      ["ip('::').isUnspecified()", true],
      ["ip('::1').isUnspecified()", false],
      ["ip('127.0.0.1').isLoopback()", true],
      ["ip('192.168.0.1').isLoopback()", false],
      ["ip('1.2.3.4').isLoopback()", false],
      ["ip('::1').isLoopback()", true],
      ["ip('2001:db8::abcd').isLoopback()", false],
      ["ip('224.0.0.1').isLinkLocalMulticast()", true],
      ["ip('224.0.1.1').isLinkLocalMulticast()", false],
      ["ip('ff02::1').isLinkLocalMulticast()", true],
      ["ip('fd00::1').isLinkLocalMulticast()", false],
      ["ip('169.254.169.254').isLinkLocalUnicast()", true],
      ["ip('192.168.0.1').isLinkLocalUnicast()", false],
      ["ip('fe80::1').isLinkLocalUnicast()", true],
      ["ip('fd80::1').isLinkLocalUnicast()", false],
      ["ip('192.168.0.1').isGlobalUnicast()", true],
      ["ip('255.255.255.255').isGlobalUnicast()", false],
      ["ip('2001:db8::abcd').isGlobalUnicast()", true],
      ["ip('ff00::1').isGlobalUnicast()", false],
    ];
    for (const [expr, want] of facts) assert.equal(value(expr), want, expr);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ["ip('127.0.0.1').family()", 2],
      ["ip.isCanonical('2001:db8::0:0:0:abcd')", 4],
      ["isIP('2001:db8::68')", 2],
      ["string(ip('192.168.0.1'))", 3],
    ];
    assertCosts(facts);
  });

  it('string(), type and equality', () => {
    assert.equal(value('string(ip("192.168.0.1"))'), '192.168.0.1');
    assert.equal(value('string(ip("2001:DB8::0:0:0:68"))'), '2001:db8::68');
    assert.equal(value('type(ip("192.168.0.1")) == net.IP'), true);
    assert.equal(value('type(ip("192.168.0.1")) == type(ip("::1"))'), true);
    assert.equal(value('type(ip("192.168.0.1")) == type(cidr("192.168.0.0/24"))'), false);
    assert.equal(value('ip("192.168.0.1") == ip("192.168.0.1")'), true);
    assert.equal(value('ip("2001:db8::68") == ip("2001:DB8::68")'), true);
    assert.equal(value('ip("192.168.0.1") != ip("192.168.0.2")'), true);
    assert.equal(value('addr.isGlobalUnicast() && x.isLoopback() && x == ip("::1")'), true);
  });
});
