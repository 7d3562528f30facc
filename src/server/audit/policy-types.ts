// The Policy kind of the audit group (`audit.<group domain>/v1`), the object `--audit-policy-file`
// holds: an ordered list of rules, each choosing the level at which matching requests are
// recorded, plus stages to leave out. Upstream's `audit.<upstream domain>/v1` is read under any
// profile, since stock policy files carry it. Field names and enumerations are upstream's.

import { groupName, type NamingProfile, sameGroup } from '../../naming/index.ts';

export const AUDIT_POLICY_KIND = 'Policy';
export const AUDIT_POLICY_VERSIONS = ['v1'] as const;

/** How much of a request an event carries, least to most. */
export const AUDIT_LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];

/** The points in a request's life at which an event may be emitted. */
export const AUDIT_STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof AUDIT_STAGES)[number];

/** The profile's audit group. */
export function auditGroup(profile: NamingProfile): string {
  return groupName(profile, 'audit');
}

/** Whether `apiVersion` names a Policy version this server reads (either spelling of the group). */
export function isAuditPolicyApiVersion(profile: NamingProfile, apiVersion: string): boolean {
  const slash = apiVersion.lastIndexOf('/');
  if (slash < 0) return false;
  const version = apiVersion.slice(slash + 1);
  return (
    sameGroup(profile, apiVersion.slice(0, slash), auditGroup(profile)) &&
    (AUDIT_POLICY_VERSIONS as readonly string[]).includes(version)
  );
}

export interface GroupResources {
  /** '' is the core group; '*' any group. */
  group: string;
  /** `pods`, `pods/log`, `pods/*`, `*\/status` or `*`; empty means every resource of the group. */
  resources: string[];
  /** Object names; empty means any. */
  resourceNames: string[];
}

export interface PolicyRule {
  /** Kept as read; validation guarantees one of AUDIT_LEVELS in a loaded policy. */
  level: string;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  /** '' matches cluster-scoped resources. */
  namespaces: string[];
  nonResourceURLs: string[];
  omitStages: string[];
  /** Undefined defers to the policy's setting. */
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages: string[];
  omitManagedFields: boolean;
}

/** A rule at `level` matching every request, narrowed by `fields` (library callers and tests). */
export function policyRule(level: string, fields: Partial<Omit<PolicyRule, 'level'>> = {}): PolicyRule {
  return {
    level,
    users: [],
    userGroups: [],
    verbs: [],
    resources: [],
    namespaces: [],
    nonResourceURLs: [],
    omitStages: [],
    ...fields,
  };
}
