// Upstream's RBAC validation (pkg/apis/rbac/validation), rule by rule with its messages: names are
// path segments, a rule needs verbs and either resources with groups or non-resource paths (the
// latter only cluster-wide), bindings name a role of the RBAC group and subjects of known kinds, and
// a binding's roleRef never changes. Under a profile that renames groups, the RBAC group may be
// written with either name (see rbacGroupNames).

import {
  type FieldError,
  type FieldPath,
  invalid,
  newPath,
  notSupported,
  required,
} from '../../machinery/field-errors.ts';
import { type LabelSelector, labelSelectorAsMatcher, validateLabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import {
  isValidPathSegmentName,
  type NameValidator,
  nameIsDNSSubdomain,
} from '../../machinery/validation/names.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import {
  type AggregationRule,
  GROUP_KIND,
  isRbacGroup,
  type PolicyRule,
  type RoleRef,
  rbacGroupNames,
  SERVICE_ACCOUNT_KIND,
  type Subject,
  USER_KIND,
} from './types.ts';

/** Names of roles and bindings, and of the role a binding refers to: anything that is one path segment. */
export const rbacName: NameValidator = (name) => isValidPathSegmentName(name);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Go's view of a list field: absent and null are both an empty list. */
function strings(v: unknown): string[] {
  return list(v).map((x) => str(x));
}

export function validatePolicyRule(
  rule: PolicyRule | null,
  namespaced: boolean,
  path: FieldPath,
): FieldError[] {
  const r = rule ?? {};
  const errs: FieldError[] = [];
  if (list(r.verbs).length === 0) {
    errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  }
  const urls = strings(r.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) {
      errs.push(
        invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'),
      );
    }
    if (list(r.apiGroups).length > 0 || list(r.resources).length > 0 || list(r.resourceNames).length > 0) {
      errs.push(
        invalid(
          path.child('nonResourceURLs'),
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errs;
  }
  if (list(r.apiGroups).length === 0) {
    errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  }
  if (list(r.resources).length === 0) {
    errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  }
  return errs;
}

export function validateRules(rules: unknown, namespaced: boolean): FieldError[] {
  const path = newPath('rules');
  return list(rules).flatMap((r, i) => validatePolicyRule(r as PolicyRule | null, namespaced, path.index(i)));
}

export function validateAggregationRule(rule: AggregationRule | null | undefined): FieldError[] {
  if (rule === undefined || rule === null) return [];
  const path = newPath('aggregationRule', 'clusterRoleSelectors');
  const selectors = list(rule.clusterRoleSelectors);
  const errs: FieldError[] = [];
  if (selectors.length === 0) {
    errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  selectors.forEach((s, i) => {
    const selector = (s ?? {}) as LabelSelector;
    errs.push(...validateLabelSelector(selector, path.index(i)));
    try {
      labelSelectorAsMatcher(selector);
    } catch {
      // Upstream reports the converted selector, which is nil when the conversion failed.
      errs.push(invalid(path.index(i), null, 'invalid label selector.'));
    }
  });
  return errs;
}

function validateRoleRef(
  profile: NamingProfile,
  ref: RoleRef | null | undefined,
  kinds: string[],
): FieldError[] {
  const r = ref ?? {};
  const errs: FieldError[] = [];
  const path = newPath('roleRef');
  if (!isRbacGroup(profile, str(r.apiGroup))) {
    errs.push(notSupported(path.child('apiGroup'), str(r.apiGroup), rbacGroupNames(profile)));
  }
  if (!kinds.includes(str(r.kind))) errs.push(notSupported(path.child('kind'), str(r.kind), kinds));
  const name = str(r.name);
  if (name === '') {
    errs.push(required(path.child('name'), ''));
  } else {
    for (const msg of rbacName(name, false)) errs.push(invalid(path.child('name'), name, msg));
  }
  return errs;
}

export function validateSubject(
  profile: NamingProfile,
  subject: Subject | null,
  namespaced: boolean,
  path: FieldPath,
): FieldError[] {
  const s = subject ?? {};
  const errs: FieldError[] = [];
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  if (name === '') errs.push(required(path.child('name'), ''));
  switch (str(s.kind)) {
    case SERVICE_ACCOUNT_KIND:
      if (name !== '') {
        for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(path.child('name'), name, msg));
      }
      if (apiGroup !== '') errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(s.namespace) === '') errs.push(required(path.child('namespace'), ''));
      break;
    case USER_KIND:
    case GROUP_KIND:
      if (!isRbacGroup(profile, apiGroup)) {
        errs.push(notSupported(path.child('apiGroup'), apiGroup, rbacGroupNames(profile)));
      }
      break;
    default:
      errs.push(notSupported(path.child('kind'), str(s.kind), [SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND]));
  }
  return errs;
}

/** A binding's roleRef and subjects; a RoleBinding may name a Role or a ClusterRole, a ClusterRoleBinding only the latter. */
export function validateBinding(profile: NamingProfile, obj: ApiObject, namespaced: boolean): FieldError[] {
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const path = newPath('subjects');
  return [
    ...validateRoleRef(profile, obj.roleRef as RoleRef | undefined, kinds),
    ...list(obj.subjects).flatMap((s, i) =>
      validateSubject(profile, s as Subject | null, namespaced, path.index(i)),
    ),
  ];
}

/**
 * The roleRef may not change: a binding is deleted and created again to point elsewhere. The two
 * names of the RBAC group count as one, so a manifest written with upstream's group name applies
 * cleanly over a binding created with the profile's. The value shown is upstream's: the internal
 * Go struct, which has no JSON tags, marshalled.
 */
export function validateRoleRefUnchanged(
  profile: NamingProfile,
  next: RoleRef | null | undefined,
  old: RoleRef | null | undefined,
): FieldError[] {
  const n = next ?? {};
  const o = old ?? {};
  const same =
    str(n.kind) === str(o.kind) &&
    str(n.name) === str(o.name) &&
    (str(n.apiGroup) === str(o.apiGroup) ||
      (isRbacGroup(profile, str(n.apiGroup)) && isRbacGroup(profile, str(o.apiGroup))));
  if (same) return [];
  const shown = { APIGroup: str(n.apiGroup), Kind: str(n.kind), Name: str(n.name) };
  return [invalid(newPath('roleRef'), shown, 'cannot change roleRef')];
}
