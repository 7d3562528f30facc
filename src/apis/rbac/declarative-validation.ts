// RoleBinding's declarative validation as upstream 1.35 generates it from the upstream API's rbac/v1
// `+k8s:required` tags on RoleRef.Name and Subject.Name: the only fields of our served kinds that
// 1.35 migrated and checks through ValidateDeclarativelyWithMigrationChecks (ClusterRole is wired
// too but its PolicyRule.Verbs tag was taken back before the release; ClusterRoleBinding followed
// in 1.36). The hand-written checks of the same fields (validation.ts) are the ones upstream marks
// as covered. As the generated code does, an update does not look again at an unchanged field.

import { deepEqual, type FieldError, newPath, required } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { DeclarativeValidation } from '../../registry/kind.ts';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field as Go decodes it: anything else (absent, null) is the zero value. */
const nameOf = (v: unknown): string => (isRecord(v) && typeof v.name === 'string' ? v.name : '');

const SUBJECT_NAME = /^subjects\[\d+\]\.name$/;

function validateRoleBinding(obj: ApiObject, old: ApiObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  // roleRef is a struct (not a pointer) upstream: compared by value, then its name is required.
  if (old === undefined || !deepEqual(obj.roleRef ?? null, old.roleRef ?? null)) {
    if (nameOf(obj.roleRef) === '') errs.push(required(newPath('roleRef', 'name'), ''));
  }
  const subjects = Array.isArray(obj.subjects) ? obj.subjects : [];
  if (old === undefined || !deepEqual(obj.subjects ?? null, old.subjects ?? null)) {
    const path = newPath('subjects');
    subjects.forEach((s, i) => {
      if (nameOf(s) === '') errs.push(required(path.index(i).child('name'), ''));
    });
  }
  return errs;
}

/** Declarative rules of rbac/v1 RoleBinding (upstream 1.35). */
export const roleBindingDeclarativeValidation: DeclarativeValidation = {
  validate: (obj, old, subresource) => (subresource === '' ? validateRoleBinding(obj, old) : []),
  covers: (e) =>
    e.type === 'FieldValueRequired' && (e.field === 'roleRef.name' || SUBJECT_NAME.test(e.field)),
};
