// Every rule of upstream's RBAC validation with its message, the defaults, the roleRef's
// immutability and the binding columns.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { validateObjectMeta } from '../../machinery/validation/names.ts';
import { namingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { clusterRoleKind } from './cluster-role.ts';
import { clusterRoleBindingKind } from './cluster-role-binding.ts';
import { roleKind } from './role.ts';
import { roleBindingKind } from './role-binding.ts';
import { rbacGroup, rbacGroupNames } from './types.ts';

const SPEC = namingProfile('spec');
const UPSTREAM = namingProfile('upstream');
const G = rbacGroup(SPEC);
const UG = rbacGroup(UPSTREAM);

/** Defaults, then metadata and kind validation, as the generic store runs them on create. */
function errorsOf(kind: KindDefinition, obj: ApiObject): string[] {
  kind.strategy.applyDefaults?.(obj);
  const meta = validateObjectMeta(obj.metadata, {
    namespaced: kind.strategy.namespaced,
    nameValidator: kind.strategy.validateName,
  });
  return [...meta, ...kind.strategy.validate(obj)].map(errorString);
}

const role = roleKind(SPEC);
const clusterRole = clusterRoleKind(SPEC);
const roleBinding = roleBindingKind(SPEC);
const clusterRoleBinding = clusterRoleBindingKind(SPEC);

const nsMeta = (name = 'r') => ({ name, namespace: 'default' });
const podsRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };

describe('RBAC names', () => {
  it('are path segments: anything but . and .., without / or %', () => {
    for (const k of [role, roleBinding]) {
      assert.deepEqual(
        errorsOf(k, { metadata: nsMeta('system:Admin_x'), roleRef: ref('ClusterRole', 'a') }),
        [],
      );
    }
    assert.deepEqual(errorsOf(role, { metadata: nsMeta('..') }), [
      'metadata.name: Invalid value: "..": may not be \'..\'',
    ]);
    assert.deepEqual(errorsOf(clusterRole, { metadata: { name: 'a/b%c' } }), [
      'metadata.name: Invalid value: "a/b%c": may not contain \'/\'',
      'metadata.name: Invalid value: "a/b%c": may not contain \'%\'',
    ]);
    // Upstream checks a generateName prefix with the same rule as a name.
    assert.deepEqual(errorsOf(clusterRole, { metadata: { generateName: '.', name: '.x' } }), [
      'metadata.generateName: Invalid value: ".": may not be \'.\'',
    ]);
  });

  it('a Role needs a namespace, a ClusterRole may not have one', () => {
    assert.deepEqual(errorsOf(role, { metadata: { name: 'r' } }), ['metadata.namespace: Required value']);
    assert.deepEqual(errorsOf(clusterRole, { metadata: nsMeta() }), [
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });
});

describe('policy rules', () => {
  const ruleErrors = (kind: KindDefinition, rule: Record<string, unknown>) =>
    errorsOf(kind, { metadata: kind === role ? nsMeta() : { name: 'r' }, rules: [podsRule, rule] });

  it('a resource rule needs verbs, api groups and resources', () => {
    assert.deepEqual(ruleErrors(role, podsRule), []);
    assert.deepEqual(ruleErrors(role, { apiGroups: ['*'], resources: ['*'], resourceNames: ['x'] }), [
      'rules[1].verbs: Required value: verbs must contain at least one value',
    ]);
    assert.deepEqual(ruleErrors(role, { verbs: [] }), [
      'rules[1].verbs: Required value: verbs must contain at least one value',
      'rules[1].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].resources: Required value: resource rules must supply at least one resource',
    ]);
  });

  it('resourceNames may go with several resources (upstream dropped that check)', () => {
    assert.deepEqual(
      ruleErrors(role, { ...podsRule, resources: ['pods', 'secrets'], resourceNames: ['a'] }),
      [],
    );
  });

  it('non-resource URLs: only in cluster-wide rules, never beside resources', () => {
    assert.deepEqual(
      ruleErrors(clusterRole, { verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }),
      [],
    );
    assert.deepEqual(ruleErrors(role, { verbs: ['get'], nonResourceURLs: ['/healthz'] }), [
      'rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]);
    assert.deepEqual(
      ruleErrors(clusterRole, { verbs: ['get'], nonResourceURLs: ['/x'], resourceNames: ['n'] }),
      [
        'rules[1].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
      ],
    );
    // Both at once in a Role, and no resource checks once URLs are present.
    assert.deepEqual(ruleErrors(role, { nonResourceURLs: ['/x'], apiGroups: [''] }), [
      'rules[1].verbs: Required value: verbs must contain at least one value',
      'rules[1].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs',
      'rules[1].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('a null rule is a rule with nothing in it', () => {
    assert.deepEqual(errorsOf(role, { metadata: nsMeta(), rules: [null] }), [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
  });
});

describe('aggregation rules', () => {
  const withRule = (aggregationRule: unknown) =>
    errorsOf(clusterRole, { metadata: { name: 'agg' }, aggregationRule });

  it('need at least one selector; rules may then be empty', () => {
    assert.deepEqual(
      withRule({ clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] }),
      [],
    );
    assert.deepEqual(withRule({}), [
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    assert.deepEqual(withRule(null), []);
  });

  it('selectors are checked as label selectors, and one that does not convert says so', () => {
    assert.deepEqual(
      withRule({ clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }] }),
      [
        "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.',
      ],
    );
    assert.deepEqual(
      withRule({ clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] }),
      [
        'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.',
      ],
    );
  });
});

function ref(kind: string, name: string, apiGroup?: string) {
  return apiGroup === undefined ? { kind, name } : { apiGroup, kind, name };
}

describe('bindings', () => {
  const rb = (over: Record<string, unknown>): ApiObject => ({
    metadata: nsMeta('b'),
    roleRef: ref('ClusterRole', 'admin', G),
    ...over,
  });
  const crb = (over: Record<string, unknown>): ApiObject => ({
    metadata: { name: 'b' },
    roleRef: ref('ClusterRole', 'admin', G),
    ...over,
  });

  it('roleRef: the RBAC group under either name, a Role or ClusterRole, a path-segment name', () => {
    assert.deepEqual(errorsOf(roleBinding, rb({ roleRef: ref('Role', 'r', UG) })), []);
    assert.deepEqual(errorsOf(roleBinding, rb({ roleRef: ref('Role', 'r', G) })), []);
    assert.deepEqual(errorsOf(roleBinding, rb({ roleRef: ref('Thing', 'a/b', 'example.com') })), [
      `roleRef.apiGroup: Unsupported value: "example.com": supported values: "${G}", "${UG}"`,
      'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
      'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
    assert.deepEqual(errorsOf(clusterRoleBinding, crb({ roleRef: ref('Role', '', G) })), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'roleRef.name: Required value',
    ]);
  });

  it('a missing roleRef is Go zero value: group defaulted, kind and name refused', () => {
    const obj = rb({ roleRef: undefined });
    assert.deepEqual(errorsOf(roleBinding, obj), [
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
    assert.deepEqual(obj.roleRef, { apiGroup: G });
  });

  it('under the upstream profile only the upstream group, with upstream message', () => {
    const k = roleBindingKind(UPSTREAM);
    assert.deepEqual(rbacGroupNames(UPSTREAM), [UG]);
    assert.deepEqual(errorsOf(k, rb({ roleRef: ref('Role', 'r', G) })), [
      `roleRef.apiGroup: Unsupported value: "${G}": supported values: "${UG}"`,
    ]);
  });

  it('subjects: kinds, names, groups, and a namespace for service accounts of cluster bindings', () => {
    const subjects = [
      { kind: 'User', name: 'alice', apiGroup: UG },
      { kind: 'Group', name: 'devs' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      { kind: 'ServiceAccount', name: 'local' },
    ];
    assert.deepEqual(errorsOf(roleBinding, rb({ subjects })), []);
    assert.deepEqual(errorsOf(clusterRoleBinding, crb({ subjects })), [
      'subjects[3].namespace: Required value',
    ]);
    assert.deepEqual(
      errorsOf(
        roleBinding,
        rb({
          subjects: [
            { kind: 'User', name: '', apiGroup: 'example.com' },
            { kind: 'Group', name: 'g', apiGroup: '' },
            { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: G },
            { kind: 'Robot', name: 'r2' },
            null,
          ],
        }),
      ),
      [
        'subjects[0].name: Required value',
        `subjects[0].apiGroup: Unsupported value: "example.com": supported values: "${G}", "${UG}"`,
        "subjects[2].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        `subjects[2].apiGroup: Unsupported value: "${G}": supported values: ""`,
        'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
        'subjects[4].name: Required value',
        'subjects[4].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
      ],
    );
  });

  it('defaults: User and Group subjects get the profile group, service accounts none, sent values stay', () => {
    const obj = rb({
      roleRef: { kind: 'Role', name: 'r', apiGroup: '' },
      subjects: [
        { kind: 'User', name: 'a' },
        { kind: 'Group', name: 'g', apiGroup: UG },
        { kind: 'ServiceAccount', name: 's' },
      ],
    });
    roleBinding.strategy.applyDefaults?.(obj);
    assert.deepEqual(obj.roleRef, { kind: 'Role', name: 'r', apiGroup: G });
    assert.deepEqual(obj.subjects, [
      { kind: 'User', name: 'a', apiGroup: G },
      { kind: 'Group', name: 'g', apiGroup: UG },
      { kind: 'ServiceAccount', name: 's' },
    ]);
  });
});

describe('roleRef is immutable', () => {
  const old: ApiObject = { metadata: nsMeta('b'), roleRef: ref('ClusterRole', 'view', G) };
  const update = (kind: KindDefinition, roleRef: unknown) =>
    kind.strategy.validateUpdate({ ...old, roleRef }, old).map(errorString);

  it('any change of kind or name is refused with the new value as upstream shows it', () => {
    assert.deepEqual(update(roleBinding, ref('ClusterRole', 'edit', G)), [
      `roleRef: Invalid value: {"APIGroup":"${G}","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef`,
    ]);
    assert.deepEqual(update(clusterRoleBinding, ref('ClusterRole', 'view', 'example.com')), [
      `roleRef.apiGroup: Unsupported value: "example.com": supported values: "${G}", "${UG}"`,
      'roleRef: Invalid value: {"APIGroup":"example.com","Kind":"ClusterRole","Name":"view"}: cannot change roleRef',
    ]);
  });

  it('the same roleRef, or the same under the other name of the group, is no change', () => {
    assert.deepEqual(update(roleBinding, ref('ClusterRole', 'view', G)), []);
    assert.deepEqual(update(roleBinding, ref('ClusterRole', 'view', UG)), []);
  });

  it('update validation repeats the create checks, as upstream strategies do', () => {
    const errs = roleBinding.strategy.validateUpdate(
      { ...old, roleRef: ref('ClusterRole', 'view', G), subjects: [{ kind: 'Robot', name: 'x' }] },
      old,
    );
    assert.deepEqual(errs.map(errorString), [
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });
});

describe('binding columns', () => {
  it('NAME, ROLE as Kind/name, AGE; users, groups and service accounts as kubectl -o wide shows them', () => {
    const obj: ApiObject = {
      metadata: { name: 'b', creationTimestamp: new Date(Date.now() - 90_000).toISOString() },
      roleRef: ref('ClusterRole', 'admin', G),
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
    };
    const cols = clusterRoleBinding.table ?? [];
    assert.deepEqual(
      cols.map((c) => `${c.name}:${c.priority ?? 0}`),
      ['Name:0', 'Role:0', 'Age:0', 'Users:1', 'Groups:1', 'ServiceAccounts:1'],
    );
    const cells = cols.map((c) => c.cell(obj));
    assert.equal(cells[0], 'b');
    assert.equal(cells[1], 'ClusterRole/admin');
    assert.match(String(cells[2]), /^\d+s$/);
    assert.deepEqual(cells.slice(3), ['alice, bob', 'devs', 'ci/builder']);
    assert.equal(cols[3].description, 'Users in the clusterRoleBinding');
    assert.equal((roleBinding.table ?? [])[3].description, 'Users in the roleBinding');
  });

  it('roles have the default Name / Created At table', () => {
    assert.equal(role.table, undefined);
    assert.equal(clusterRole.table, undefined);
  });
});
