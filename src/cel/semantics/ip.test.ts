// Expected values are upstream's: the examples documented in apiserver's CEL IP library (1.35)
// and its tests, and messages recorded from k8s.io/apiserver v0.35.0 (Go net/netip underneath).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  IPError,
  ipIsCanonical,
  ipIsGlobalUnicast,
  ipIsLinkLocalMulticast,
  ipIsLinkLocalUnicast,
  ipIsLoopback,
  ipIsUnspecified,
  isIP,
  parseIP,
} from './ip.ts';

const ip = parseIP;

describe('ip()', () => {
  it('parses IPv4 and IPv6 and prints the canonical form', () => {
    assert.equal(ip('127.0.0.1').family, 4);
    assert.equal(ip('::1').family, 6);
    assert.equal(ip('192.168.0.1').toString(), '192.168.0.1');
    assert.equal(ip('2001:DB8::68').toString(), '2001:db8::68');
    assert.equal(ip('2001:0db8:0000:0000:0001:0000:0000:0001').toString(), '2001:db8::1:0:0:1');
    assert.equal(ip('1:0:0:2:0:0:0:3').toString(), '1:0:0:2::3');
    assert.equal(ip('0:0:0:0:0:0:0:0').toString(), '::');
    assert.equal(ip('::1.2.3.4').toString(), '::102:304');
    assert.ok(ip('::1').equals(ip('0:0:0:0:0:0:0:1')));
    assert.ok(!ip('0.0.0.0').equals(ip('::')));
  });

  it("refuses what upstream refuses, with upstream's messages", () => {
    const cases: [string, string][] = [
      [
        '192.168.0.1.0',
        'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
      ],
      [
        '2001:db8:::68',
        'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
      ],
      [
        '127.0.0.256',
        'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255',
      ],
      [
        '01.2.3.4',
        'IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero',
      ],
      [
        '12345::',
        'IP Address "12345::" parse error during conversion from string: ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")',
      ],
      ['', 'IP Address "" parse error during conversion from string: ParseAddr(""): unable to parse IP'],
      ['fe80::1%eth0', 'IP address "fe80::1%eth0" with zone value is not allowed'],
      ['::ffff:1.2.3.4', 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
    ];
    for (const [input, msg] of cases) {
      assert.throws(() => ip(input), new IPError(msg), input);
      assert.equal(isIP(input), false, input);
    }
    assert.equal(isIP('127.0.0.1'), true);
    assert.equal(isIP(':::1'), false);
  });

  it('ip.isCanonical', () => {
    assert.equal(ipIsCanonical('127.0.0.1'), true);
    assert.equal(ipIsCanonical('2001:db8::abcd'), true);
    assert.equal(ipIsCanonical('2001:DB8::ABCD'), false);
    assert.equal(ipIsCanonical('2001:db8::0:0:0:abcd'), false);
    assert.throws(() => ipIsCanonical('127.0.0.1.0'), /IPv4 address too long/);
  });

  it('address classes follow the documented examples', () => {
    const t = (f: (a: ReturnType<typeof ip>) => boolean, s: string, want: boolean) =>
      assert.equal(f(ip(s)), want, s);
    t(ipIsUnspecified, '0.0.0.0', true);
    t(ipIsUnspecified, '127.0.0.1', false);
    t(ipIsUnspecified, '::', true);
    t(ipIsUnspecified, '::1', false);
    t(ipIsLoopback, '127.0.0.1', true);
    t(ipIsLoopback, '192.168.0.1', false);
    t(ipIsLoopback, '::1', true);
    t(ipIsLoopback, '2001:db8::abcd', false);
    t(ipIsLinkLocalMulticast, '224.0.0.1', true);
    t(ipIsLinkLocalMulticast, '224.0.1.1', false);
    t(ipIsLinkLocalMulticast, 'ff02::1', true);
    t(ipIsLinkLocalMulticast, 'ff12::1', true);
    t(ipIsLinkLocalMulticast, 'fd00::1', false);
    t(ipIsLinkLocalUnicast, '169.254.169.254', true);
    t(ipIsLinkLocalUnicast, '192.168.0.1', false);
    t(ipIsLinkLocalUnicast, 'fe80::1', true);
    t(ipIsLinkLocalUnicast, 'fd80::1', false);
    t(ipIsGlobalUnicast, '192.168.0.1', true);
    t(ipIsGlobalUnicast, '255.255.255.255', false);
    t(ipIsGlobalUnicast, '2001:db8::abcd', true);
    t(ipIsGlobalUnicast, 'ff00::1', false);
  });
});
