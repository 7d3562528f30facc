// Upstream's IP library (kube-apiserver's "kubernetes.net.ip", on since 1.30): ip() and isIP(),
// ip.isCanonical(), family(), the address-class predicates and string(ip), over the value type
// net.IP. The semantics are semantics/ip.ts (Go netip parsing, no zones, no IPv4-mapped IPv6,
// upstream's messages); this file binds them by upstream's names and overload ids. Costs are
// upstream's cost.go figures, which src/cel/cost-table.ts charges by function name (parsing scans
// the string, ip.isCanonical scans it twice, the predicates cost 1).

import type { CelLibrary, CelOverload } from '../environment.ts';
import {
  IPAddr,
  ipFamily,
  ipIsCanonical,
  ipIsGlobalUnicast,
  ipIsLinkLocalMulticast,
  ipIsLinkLocalUnicast,
  ipIsLoopback,
  ipIsUnspecified,
  isIP,
  parseIP,
} from '../semantics/index.ts';
import { T } from '../types.ts';

/** The CEL type of IP addresses (an opaque type upstream). */
export const IP_TYPE = T.opaque('net.IP');

/** The type declaration the ip and cidr libraries share (cidr().ip() returns an address). */
export const IP_TYPE_DECLARATION = { name: 'net.IP', ctor: IPAddr } as const;

function predicate(name: string, id: string, test: (ip: IPAddr) => boolean) {
  const o: CelOverload = { id, receiver: IP_TYPE, params: [], result: T.bool, impl: test };
  return { name, overloads: [o] };
}

export const ipLibrary: CelLibrary = {
  name: 'kubernetes.net.ip',
  types: [IP_TYPE_DECLARATION],
  functions: [
    {
      name: 'ip',
      overloads: [
        { id: 'string_to_ip', params: [T.string], result: IP_TYPE, impl: (s: string) => parseIP(s) },
      ],
    },
    {
      name: 'isIP',
      overloads: [{ id: 'is_ip', params: [T.string], result: T.bool, impl: (s: string) => isIP(s) }],
    },
    {
      name: 'ip.isCanonical',
      overloads: [
        { id: 'ip_is_canonical', params: [T.string], result: T.bool, impl: (s: string) => ipIsCanonical(s) },
      ],
    },
    {
      name: 'family',
      overloads: [
        {
          id: 'ip_family',
          receiver: IP_TYPE,
          params: [],
          result: T.int,
          impl: (ip: IPAddr) => BigInt(ipFamily(ip)),
        },
      ],
    },
    predicate('isUnspecified', 'ip_is_unspecified', ipIsUnspecified),
    predicate('isLoopback', 'ip_is_loopback', ipIsLoopback),
    predicate('isLinkLocalMulticast', 'ip_is_link_local_multicast', ipIsLinkLocalMulticast),
    predicate('isLinkLocalUnicast', 'ip_is_link_local_unicast', ipIsLinkLocalUnicast),
    predicate('isGlobalUnicast', 'ip_is_global_unicast', ipIsGlobalUnicast),
    {
      name: 'string',
      overloads: [
        { id: 'ip_to_string', params: [IP_TYPE], result: T.string, impl: (ip: IPAddr) => ip.toString() },
      ],
    },
  ],
};
