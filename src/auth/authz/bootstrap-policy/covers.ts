// Whether one set of rules grants everything another does, the way upstream's reconciliation
// decides which default permissions a stored role lacks: each rule is broken down into single
// verb-group-resource(-name) or verb-URL grants, and a grant is covered when one stored rule alone
// covers it (wildcards, `*/<subresource>`, URL prefixes ending in `*`, unrestricted names).

import type { PolicyRule } from './names.ts';

/** The rules each granting one verb on one resource (and name) or one URL, as upstream breaks them down. */
export function breakdown(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs) {
        if (r.resourceNames !== undefined && r.resourceNames.length > 0) {
          for (const name of r.resourceNames) {
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
          }
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        }
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) {
    for (const verb of r.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return out;
}

const has = (set: readonly string[] | undefined, v: string): boolean => set?.includes(v) === true;

function resourceCovered(owner: readonly string[], path: string): boolean {
  if (has(owner, '*') || has(owner, path)) return true;
  const slash = path.indexOf('/');
  return slash >= 0 && has(owner, `*${path.slice(slash)}`);
}

function urlCovered(owner: readonly string[], url: string): boolean {
  return owner.some((o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1))));
}

/** Whether `owner` alone grants the single grant `sub` (one verb and one resource or URL). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verb = sub.verbs[0] as string;
  if (!has(owner.verbs, '*') && !has(owner.verbs, verb)) return false;
  if (sub.nonResourceURLs !== undefined) {
    return urlCovered(owner.nonResourceURLs ?? [], sub.nonResourceURLs[0] as string);
  }
  const group = (sub.apiGroups ?? [])[0] as string;
  if (!has(owner.apiGroups, '*') && !has(owner.apiGroups, group)) return false;
  if (!resourceCovered(owner.resources ?? [], (sub.resources ?? [])[0] as string)) return false;
  const ownerNames = owner.resourceNames ?? [];
  if (ownerNames.length === 0) return true;
  const name = (sub.resourceNames ?? [])[0];
  return name !== undefined && ownerNames.includes(name);
}

/** The single grants of `wanted` that no rule of `have` covers (empty: `have` covers them all). */
export function uncovered(have: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const r of wanted) {
    for (const grant of breakdown(r)) {
      if (!have.some((owner) => ruleCovers(owner, grant))) missing.push(grant);
    }
  }
  return missing;
}
