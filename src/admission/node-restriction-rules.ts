// NodeRestriction's comparisons: which label changes a node agent may make on its own Node
// (upstream's kubelet label set, under the profile's domains), and equality as upstream's semantic
// DeepEqual sees it (a missing list or map equals an empty one).

import { nodeAgentLabels, nodeRestrictionLabelDomain } from '../naming/node-agents.ts';
import type { NamingProfile } from '../naming/profile.ts';

function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash === -1 ? '' : key.slice(0, slash);
}

const under = (domain: string, parent: string) => domain === parent || domain.endsWith(`.${parent}`);

/** Keys added, removed or changed between the two label maps, sorted. */
export function modifiedLabels(
  next: Record<string, unknown> | undefined,
  old: Record<string, unknown> | undefined,
): string[] {
  const out = new Set<string>();
  const a = next ?? {};
  const b = old ?? {};
  for (const [k, v] of Object.entries(a)) if (!Object.hasOwn(b, k) || b[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(b)) if (!Object.hasOwn(a, k) || a[k] !== v) out.add(k);
  return [...out].sort();
}

/** The changed label keys a node agent may not set on its own Node, sorted. */
export function forbiddenNodeLabels(
  profile: NamingProfile,
  next: Record<string, unknown> | undefined,
  old: Record<string, unknown> | undefined,
): string[] {
  const allowed = nodeAgentLabels(profile);
  const restricted = nodeRestrictionLabelDomain(profile);
  return modifiedLabels(next, old).filter((key) => {
    const domain = domainOf(key);
    if (under(domain, restricted)) return true;
    if (!allowed.reserved.some((r) => under(domain, r))) return false;
    if (allowed.keys.has(key)) return false;
    return !allowed.domains.some((d) => under(domain, d));
  });
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/** Deep equality where absent, null, [] and {} are one value, as Go's nil and empty are. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)]))
      if (!semanticEqual(x[k], y[k])) return false;
    return true;
  }
  return a === b;
}
