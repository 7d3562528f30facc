// Which discovery document an Accept header asks for: the aggregated one (as=APIGroupDiscoveryList
// in the discovery group, spec's or upstream's name, v2 or v2beta1) or the legacy per-level one.

import { covers, parseAccept } from '../codec/media-type.ts';
import { NotAcceptableError } from '../codec/negotiation.ts';

export type DiscoveryChoice =
  | { aggregated: false }
  | { aggregated: true; group: string; version: string; contentType: string };

const AGGREGATED_VERSIONS = ['v2', 'v2beta1'];

export function negotiateDiscovery(accept: string | undefined, groups: readonly string[]): DiscoveryChoice {
  for (const clause of parseAccept(accept)) {
    if (!covers(clause.essence, 'application/json')) continue;
    const { as, g, v, ...rest } = clause.params;
    delete rest.charset;
    delete rest.pretty;
    if (Object.keys(rest).length > 0) continue;
    if (as === undefined && g === undefined && v === undefined) return { aggregated: false };
    if (
      as === 'APIGroupDiscoveryList' &&
      g !== undefined &&
      groups.includes(g) &&
      v !== undefined &&
      AGGREGATED_VERSIONS.includes(v)
    ) {
      return {
        aggregated: true,
        group: g,
        version: v,
        contentType: `application/json;g=${g};v=${v};as=APIGroupDiscoveryList`,
      };
    }
  }
  throw new NotAcceptableError(['application/json']);
}
