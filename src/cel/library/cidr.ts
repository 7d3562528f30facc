// Upstream's CIDR library (kube-apiserver's "kubernetes.net.cidr", on since 1.30): cidr() and
// isCIDR(), containsIP and containsCIDR (each taking a value or a string), ip(), masked(),
// prefixLength() and string(cidr), over the value type net.CIDR (and net.IP, which cidr().ip()
// returns, declared here too so the library stands alone). The semantics are semantics/cidr.ts;
// this file binds them by upstream's names and overload ids.
//
// Costs: src/cel/cost-table.ts charges upstream's cost.go figures by function name, but
// containsIP and containsCIDR depend on the size of the CIDR value (ceil(prefix length / 8)
// bytes compared), which only this library knows, so those overloads carry their own hooks.

import type { CelLibrary, CelOverload } from '../environment.ts';
import {
  CIDR,
  cidrContainsCIDR,
  cidrContainsCIDRString,
  cidrContainsIP,
  cidrContainsIPString,
  cidrMasked,
  cidrSize,
  type IPAddr,
  isCIDR,
  parseCIDR,
} from '../semantics/index.ts';
import { type CelType, T } from '../types.ts';
import { IP_TYPE, IP_TYPE_DECLARATION } from './ip.ts';

/** The CEL type of networks in CIDR notation (an opaque type upstream). */
export const CIDR_TYPE = T.opaque('net.CIDR');

const STRING_TRAVERSAL_COST_FACTOR = 0.1;

/** Code points, as cel-go sizes a string. */
function stringSize(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Upstream's containsIP/containsCIDR runtime cost: the prefix bytes of both sides compared
 * (ceil(2 × size × 0.1)); containsCIDR also masks and compares the lengths (ceil(size × 0.1) + 1);
 * a string argument is parsed first (ceil(length × 0.1)).
 */
export function containsCost(cidr: CIDR, other: unknown, masks: boolean): number {
  const size = cidrSize(cidr);
  let cost = Math.ceil((size + size) * STRING_TRAVERSAL_COST_FACTOR);
  if (masks) cost += Math.ceil(size * STRING_TRAVERSAL_COST_FACTOR) + 1;
  if (typeof other === 'string') cost += Math.ceil(stringSize(other) * STRING_TRAVERSAL_COST_FACTOR);
  return cost;
}

function contains(
  id: string,
  param: CelType,
  masks: boolean,
  impl: (c: CIDR, x: never) => boolean,
): CelOverload {
  return {
    id,
    receiver: CIDR_TYPE,
    params: [param],
    result: T.bool,
    impl,
    cost: (args) => containsCost(args[0] as CIDR, args[1], masks),
  };
}

export const cidrLibrary: CelLibrary = {
  name: 'kubernetes.net.cidr',
  types: [{ name: 'net.CIDR', ctor: CIDR }, IP_TYPE_DECLARATION],
  functions: [
    {
      name: 'cidr',
      overloads: [
        { id: 'string_to_cidr', params: [T.string], result: CIDR_TYPE, impl: (s: string) => parseCIDR(s) },
      ],
    },
    {
      name: 'isCIDR',
      overloads: [{ id: 'is_cidr', params: [T.string], result: T.bool, impl: (s: string) => isCIDR(s) }],
    },
    {
      name: 'containsIP',
      overloads: [
        contains('cidr_contains_ip_string', T.string, false, cidrContainsIPString),
        contains('cidr_contains_ip_ip', IP_TYPE, false, cidrContainsIP),
      ],
    },
    {
      name: 'containsCIDR',
      overloads: [
        contains('cidr_contains_cidr_string', T.string, true, cidrContainsCIDRString),
        contains('cidr_contains_cidr', CIDR_TYPE, true, cidrContainsCIDR),
      ],
    },
    {
      name: 'ip',
      overloads: [
        { id: 'cidr_ip', receiver: CIDR_TYPE, params: [], result: IP_TYPE, impl: (c: CIDR): IPAddr => c.ip },
      ],
    },
    {
      name: 'prefixLength',
      overloads: [
        {
          id: 'cidr_prefix_length',
          receiver: CIDR_TYPE,
          params: [],
          result: T.int,
          impl: (c: CIDR) => BigInt(c.prefixLength),
        },
      ],
    },
    {
      name: 'masked',
      overloads: [
        { id: 'cidr_masked', receiver: CIDR_TYPE, params: [], result: CIDR_TYPE, impl: cidrMasked },
      ],
    },
    {
      name: 'string',
      overloads: [
        { id: 'cidr_to_string', params: [CIDR_TYPE], result: T.string, impl: (c: CIDR) => c.toString() },
      ],
    },
  ],
};
