// Policy rule evaluation with upstream's semantics (rbac/v1 evaluation helpers): `*` for verbs,
// groups, resources and non-resource URLs; `resource/subresource`, `*/subresource`; resourceNames
// empty means every name (so a rule with names never matches a request without one: create, list);
// non-resource URLs exact or with a trailing `*` as a prefix. Rules are compiled once, when a role
// enters the index, into sets, so a decision is a few hash lookups per rule.

import { goQuote } from '../../../machinery/field-errors.ts';
import type { Attributes } from '../types.ts';
import type { PolicyRule } from './types.ts';

export interface CompiledRule {
  readonly rule: PolicyRule;
  readonly allVerbs: boolean;
  readonly verbs: ReadonlySet<string>;
  readonly allGroups: boolean;
  readonly groups: ReadonlySet<string>;
  readonly allResources: boolean;
  /** Exact entries, `pods` and `pods/log` alike. */
  readonly resources: ReadonlySet<string>;
  /** Subresources named by `*\/<sub>` entries. */
  readonly anySubresource: ReadonlySet<string>;
  /** null: every name. */
  readonly names: ReadonlySet<string> | null;
  readonly allUrls: boolean;
  readonly urls: ReadonlySet<string>;
  /** Prefixes of `<prefix>*` entries. */
  readonly urlPrefixes: readonly string[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** A rule with every list present and holding strings only (stored objects are validated; a feed's may not be). */
export function normalizeRule(r: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: strings(r.verbs) };
  const groups = strings(r.apiGroups);
  const resources = strings(r.resources);
  const names = strings(r.resourceNames);
  const urls = strings(r.nonResourceURLs);
  if (groups.length > 0) out.apiGroups = groups;
  if (resources.length > 0) out.resources = resources;
  if (names.length > 0) out.resourceNames = names;
  if (urls.length > 0) out.nonResourceURLs = urls;
  return out;
}

/**
 * Upstream group names (kubectl writes them: `--resource=leases.coordination.<upstream domain>`)
 * mapped to the profile's names, which requests carry: alias -> canonical.
 */
export type GroupAliases = ReadonlyMap<string, string>;

const NO_ALIASES: GroupAliases = new Map();

/** The rule's groups with each alias's canonical name beside it. */
function withCanonical(groups: string[], aliases: GroupAliases): string[] {
  if (aliases.size === 0) return groups;
  const out = [...groups];
  for (const g of groups) {
    const c = aliases.get(g);
    if (c !== undefined && !out.includes(c)) out.push(c);
  }
  return out;
}

export function compileRule(rule: PolicyRule, aliases: GroupAliases = NO_ALIASES): CompiledRule {
  const verbs = strings(rule.verbs);
  const groups = withCanonical(strings(rule.apiGroups), aliases);
  const resources = strings(rule.resources);
  const names = strings(rule.resourceNames);
  const urls = strings(rule.nonResourceURLs);
  const anySub = new Set<string>();
  for (const r of resources) if (r.startsWith('*/')) anySub.add(r.slice(2));
  const prefixes: string[] = [];
  for (const u of urls) if (u.endsWith('*')) prefixes.push(u.replace(/\*+$/, ''));
  return {
    rule,
    allVerbs: verbs.includes('*'),
    verbs: new Set(verbs),
    allGroups: groups.includes('*'),
    groups: new Set(groups),
    allResources: resources.includes('*'),
    resources: new Set(resources),
    anySubresource: anySub,
    names: names.length === 0 ? null : new Set(names),
    allUrls: urls.includes('*'),
    urls: new Set(urls),
    urlPrefixes: prefixes,
  };
}

/** Whether the rule allows the request (upstream's RuleAllows). */
export function compiledRuleAllows(c: CompiledRule, a: Attributes): boolean {
  if (!c.allVerbs && !c.verbs.has(a.verb)) return false;
  if (a.isResourceRequest) {
    if (!c.allGroups && !c.groups.has(a.apiGroup)) return false;
    if (!c.allResources) {
      const sub = a.subresource;
      const combined = sub === '' ? a.resource : `${a.resource}/${sub}`;
      if (!c.resources.has(combined) && (sub === '' || !c.anySubresource.has(sub))) return false;
    }
    return c.names === null || c.names.has(a.name);
  }
  if (c.allUrls || c.urls.has(a.path)) return true;
  for (const p of c.urlPrefixes) if (a.path.startsWith(p)) return true;
  return false;
}

export function ruleAllows(rule: PolicyRule, a: Attributes): boolean {
  return compiledRuleAllows(compileRule(rule), a);
}

// ---------------------------------------------------------------------------------------------
// Covers: whether owner rules hold every permission of servant rules (escalation checks). Each
// servant rule is broken into single group/resource/verb/name (or URL/verb) parts, each of which
// one owner rule must cover whole.

/** One rule per (group, resource, verb[, name]) and per (URL, verb), as upstream's BreakdownRule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = strings(rule.verbs);
  const names = strings(rule.resourceNames);
  for (const group of strings(rule.apiGroups)) {
    for (const resource of strings(rule.resources)) {
      for (const verb of verbs) {
        if (names.length > 0) {
          for (const name of names)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of strings(rule.nonResourceURLs)) {
    for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => set.includes(w));
}

function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes('*') || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash === -1) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function urlCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

/** Whether one owner rule covers one broken-down servant rule (upstream's ruleCovers). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ov = strings(owner.verbs);
  const og = strings(owner.apiGroups);
  const on = strings(owner.resourceNames);
  const ou = strings(owner.nonResourceURLs);
  const sn = strings(sub.resourceNames);
  const verbs = ov.includes('*') || hasAll(ov, strings(sub.verbs));
  const groups = og.includes('*') || hasAll(og, strings(sub.apiGroups));
  const resources = resourcesCover(strings(owner.resources), strings(sub.resources));
  const urls = strings(sub.nonResourceURLs).every((u) => ou.some((o) => urlCovers(o, u)));
  const names = sn.length === 0 ? on.length === 0 : on.length === 0 || hasAll(on, sn);
  return verbs && groups && resources && names && urls;
}

/**
 * Whether the owner rules cover the servant rules, and the broken-down parts they miss. With
 * aliases, an owner's group counts under its alias and canonical names alike.
 */
export function covers(
  ownerRules: readonly PolicyRule[],
  servant: readonly PolicyRule[],
  aliases: GroupAliases = NO_ALIASES,
): { covered: boolean; missing: PolicyRule[] } {
  const owner = aliases.size === 0 ? ownerRules : ownerRules.map((r) => withBothNames(r, aliases));
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
    }
  }
  return { covered: missing.length === 0, missing };
}

function withBothNames(r: PolicyRule, aliases: GroupAliases): PolicyRule {
  const groups = strings(r.apiGroups);
  if (groups.length === 0) return r;
  const out = withCanonical(groups, aliases);
  for (const [alias, canonical] of aliases)
    if (groups.includes(canonical) && !out.includes(alias)) out.push(alias);
  return { ...r, apiGroups: out };
}

/**
 * Joins rules naming one group and one resource and nothing but verbs into one rule per
 * group/resource (upstream's CompactRules), so a missing-permissions message stays short.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const groups = strings(r.apiGroups);
    const resources = strings(r.resources);
    const isSimple =
      strings(r.resourceNames).length === 0 &&
      strings(r.nonResourceURLs).length === 0 &&
      groups.length === 1 &&
      resources.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = `${groups[0]}\u0000${resources[0]}`;
    const known = simple.get(key);
    if (known === undefined) simple.set(key, { apiGroups: groups, resources, verbs: [...strings(r.verbs)] });
    else known.verbs = [...strings(known.verbs), ...strings(r.verbs)];
  }
  out.push(...simple.values());
  return out;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** Upstream's CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, v: unknown) => {
    const list = strings(v);
    if (list.length > 0) parts.push(`${name}:${goQuoteList(list)}`);
  };
  field('APIGroups', r.apiGroups);
  field('Resources', r.resources);
  field('NonResourceURLs', r.nonResourceURLs);
  field('ResourceNames', r.resourceNames);
  field('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------
// A role's rules filed by verb and API group (and non-resource rules by verb), so a decision
// checks only the rules that could match: a denial across a user's dozen roles is then a few map
// lookups each rather than a pass over every rule.

interface GroupTable {
  byGroup: Map<string, CompiledRule[]>;
  /** Rules naming `*` as group: for groups no rule names. */
  anyGroup: CompiledRule[];
}

function groupTable(rules: readonly CompiledRule[]): GroupTable {
  const byGroup = new Map<string, CompiledRule[]>();
  const anyGroup = rules.filter((r) => r.allGroups);
  for (const r of rules) for (const g of r.groups) if (g !== '*') byGroup.set(g, []);
  for (const [g, list] of byGroup) for (const r of rules) if (r.allGroups || r.groups.has(g)) list.push(r);
  return { byGroup, anyGroup };
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);

export class RuleTable {
  private readonly resourceByVerb = new Map<string, GroupTable>();
  private readonly resourceAnyVerb: GroupTable;
  private readonly urlByVerb = new Map<string, CompiledRule[]>();
  private readonly urlAnyVerb: CompiledRule[];

  constructor(readonly compiled: readonly CompiledRule[]) {
    const resourceRules = compiled.filter((c) => c.resources.size > 0);
    const urlRules = compiled.filter((c) => c.urls.size > 0);
    const verbs = new Set<string>();
    for (const c of compiled) for (const v of c.verbs) if (v !== '*') verbs.add(v);
    for (const v of verbs) {
      const forVerb = (c: CompiledRule) => c.allVerbs || c.verbs.has(v);
      const res = resourceRules.filter(forVerb);
      if (res.length > 0) this.resourceByVerb.set(v, groupTable(res));
      const urls = urlRules.filter(forVerb);
      if (urls.length > 0) this.urlByVerb.set(v, urls);
    }
    this.resourceAnyVerb = groupTable(resourceRules.filter((c) => c.allVerbs));
    this.urlAnyVerb = urlRules.filter((c) => c.allVerbs);
  }

  /** Whether any rule allows the request. */
  allows(a: Attributes): boolean {
    let candidates: readonly CompiledRule[];
    if (a.isResourceRequest) {
      const gt = this.resourceByVerb.get(a.verb) ?? this.resourceAnyVerb;
      candidates = gt.byGroup.get(a.apiGroup) ?? gt.anyGroup;
    } else {
      candidates = this.urlByVerb.get(a.verb) ?? this.urlAnyVerb;
    }
    for (let i = 0; i < candidates.length; i++) if (compiledRuleAllows(candidates[i], a)) return true;
    return false;
  }

  static of(rules: readonly PolicyRule[], aliases: GroupAliases = NO_ALIASES): RuleTable {
    return rules.length === 0 ? EMPTY_TABLE : new RuleTable(rules.map((r) => compileRule(r, aliases)));
  }
}

const EMPTY_TABLE = new RuleTable(NO_RULES);
