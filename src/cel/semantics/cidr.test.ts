// Expected values are upstream's: the examples documented in apiserver's CEL CIDR library (1.35)
// and its tests, and messages recorded from k8s.io/apiserver v0.35.0.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CIDRError,
  cidrContainsCIDR,
  cidrContainsCIDRString,
  cidrContainsIP,
  cidrContainsIPString,
  cidrMasked,
  cidrSize,
  isCIDR,
  parseCIDR,
} from './cidr.ts';
import { parseIP } from './ip.ts';

const cidr = parseCIDR;

describe('cidr()', () => {
  it('parses, keeps the address as written, masks on request', () => {
    assert.equal(cidr('192.168.0.0/16').prefixLength, 16);
    assert.equal(cidr('::1/128').prefixLength, 128);
    assert.equal(cidr('192.168.0.1/24').ip.toString(), '192.168.0.1');
    assert.equal(cidr('192.168.0.1/24').ip.family, 4);
    assert.equal(cidr('::1/128').ip.family, 6);
    assert.equal(cidrMasked(cidr('192.168.0.1/24')).toString(), '192.168.0.0/24');
    assert.ok(cidr('192.168.0.0/24').equals(cidrMasked(cidr('192.168.0.0/24'))));
    assert.ok(!cidr('192.168.0.1/24').equals(cidrMasked(cidr('192.168.0.1/24'))));
    assert.equal(cidrMasked(cidr('2001:db8:1::/32')).toString(), '2001:db8::/32');
    assert.equal(cidr('2001:DB8::/32').toString(), '2001:db8::/32');
    assert.equal(cidrSize(cidr('10.0.0.0/9')), 2);
  });

  it("refuses what upstream refuses, with upstream's messages", () => {
    const p = 'network address parse error during conversion from string: ';
    const cases: [string, string][] = [
      ['192.168.0.0/', `${p}${p}netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`],
      ['2001:db8::/', `${p}${p}netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""`],
      ['192.168.0.0/33', `${p}${p}netip.ParsePrefix("192.168.0.0/33"): prefix length out of range`],
      ['1.2.3.4/08', `${p}${p}netip.ParsePrefix("1.2.3.4/08"): bad bits after slash: "08"`],
      ['1.2.3.4', `${p}${p}netip.ParsePrefix("1.2.3.4"): no '/'`],
      [
        'fe80::1%eth0/64',
        `${p}${p}netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix`,
      ],
      [
        '1.2.3.256/24',
        `${p}${p}netip.ParsePrefix("1.2.3.256/24"): ParseAddr("1.2.3.256"): IPv4 field has value >255`,
      ],
      ['::ffff:1.2.3.4/24', `${p}IPv4-mapped IPv6 address "::ffff:1.2.3.4/24" is not allowed`],
    ];
    for (const [input, msg] of cases) {
      assert.throws(() => cidr(input), new CIDRError(msg), input);
      assert.equal(isCIDR(input), false, input);
    }
    assert.equal(isCIDR('::1/128'), true);
    assert.equal(isCIDR('::1/129'), false);
  });

  it('containsIP and containsCIDR follow the documented examples', () => {
    assert.equal(cidrContainsIP(cidr('192.168.0.0/24'), parseIP('192.168.0.1')), true);
    assert.equal(cidrContainsIP(cidr('192.168.0.0/24'), parseIP('192.168.1.1')), false);
    assert.equal(cidrContainsIPString(cidr('192.168.0.0/24'), '192.168.0.1'), true);
    assert.equal(cidrContainsIPString(cidr('2001:db8::/32'), '2001:dc8::1'), false);
    assert.equal(cidrContainsIPString(cidr('0.0.0.0/0'), '::1'), false); // families never mix
    assert.equal(cidrContainsCIDR(cidr('192.168.0.0/16'), cidr('192.168.10.0/24')), true);
    assert.equal(cidrContainsCIDR(cidr('192.168.1.0/24'), cidr('192.168.2.0/24')), false);
    assert.equal(cidrContainsCIDRString(cidr('192.168.0.0/24'), '192.168.0.0/25'), true);
    assert.equal(cidrContainsCIDRString(cidr('192.168.0.0/24'), '192.168.0.0/23'), false);
    assert.equal(cidrContainsCIDRString(cidr('2001:db8::/32'), '2001:db8::/33'), true);
  });

  it('reports an unparseable string argument the way upstream does', () => {
    // containsIP answers `no such overload`; containsCIDR answers cidr()'s parse error.
    assert.throws(() => cidrContainsIPString(cidr('10.0.0.0/8'), 'bad'), new CIDRError('no such overload'));
    assert.throws(
      () => cidrContainsCIDRString(cidr('10.0.0.0/8'), '10.0.0.0/33'),
      /prefix length out of range/,
    );
  });
});
