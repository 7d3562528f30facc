// Reconciles the default policy at every start, as upstream's RBAC post-start hook does: a missing
// default object is created; a present one, unless annotated autoupdate "false", gets the default
// permissions it lacks (a union: rules and subjects a user added stay), the default aggregation
// selectors it lacks, and the default labels and annotations it lacks (stored values win). A
// binding whose roleRef no longer names the default role is replaced, since roleRef is immutable.
// Nothing is written when nothing is missing, so a second start changes no resourceVersion.

import type { ApiObject } from '../../../machinery/object.ts';
import { uncovered } from './covers.ts';
import type { PolicyRule, Subject } from './names.ts';
import type { BindingObject, RoleObject } from './objects.ts';
import type { DefaultPolicy } from './policy.ts';

/** What the reconciliation needs of one resource's store (the registry's GenericStore has it). */
export interface PolicyStore {
  /** Throws an error with `code` 404 when absent. */
  get(namespace: string, name: string): Promise<ApiObject>;
  /** Throws an error with `code` 409 when it exists. */
  create(namespace: string, obj: ApiObject): Promise<ApiObject>;
  /** Writes what `change` makes of the current object, retrying on a concurrent write. */
  patch(namespace: string, name: string, change: (current: ApiObject) => ApiObject): Promise<ApiObject>;
  delete(namespace: string, name: string): Promise<unknown>;
}

export interface PolicyStores {
  clusterroles: PolicyStore;
  clusterrolebindings: PolicyStore;
  roles: PolicyStore;
  rolebindings: PolicyStore;
}

export interface ReconcileOptions {
  /** The annotation whose value "false" leaves a stored object alone. */
  autoupdateAnnotation: string;
  /** Told of objects left alone although they lack default permissions (as upstream warns). */
  warn?: (message: string) => void;
}

export interface ReconcileReport {
  created: string[];
  updated: string[];
  /** Annotated autoupdate "false" and lacking defaults: left as they are. */
  skipped: string[];
  failed: { name: string; error: Error }[];
}

const codeOf = (err: unknown) => (err as { code?: number }).code;
const ATTEMPTS = 5;

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string> };

/** The default labels/annotations the stored ones lack (stored values win), or undefined when none. */
function mergedMap(
  stored: Record<string, string> | undefined,
  wanted: Record<string, string>,
): Record<string, string> | undefined {
  const missing = Object.keys(wanted).filter((k) => stored?.[k] === undefined);
  if (missing.length === 0) return undefined;
  return { ...wanted, ...stored };
}

function sameSubject(a: Subject, b: Subject): boolean {
  return a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

function isProtected(obj: ApiObject, annotation: string): boolean {
  return obj.metadata?.annotations?.[annotation] === 'false';
}

/** The stored role with what it lacks of `wanted` added, or undefined when it lacks nothing. */
export function reconciledRole(stored: ApiObject, wanted: RoleObject): ApiObject | undefined {
  const next: ApiObject = structuredClone(stored);
  let changed = applyMeta(next, wanted.metadata);
  const storedAgg = stored.aggregationRule as RoleObject['aggregationRule'] | undefined;
  if (wanted.aggregationRule !== undefined) {
    const have = storedAgg?.clusterRoleSelectors ?? [];
    const lacking = wanted.aggregationRule.clusterRoleSelectors.filter(
      (s) => !have.some((h) => JSON.stringify(h) === JSON.stringify(s)),
    );
    if (lacking.length > 0) {
      next.aggregationRule = { ...storedAgg, clusterRoleSelectors: [...have, ...lacking] };
      changed = true;
    }
  }
  // Both aggregated: the aggregation controller owns the rules.
  if (wanted.aggregationRule === undefined || storedAgg === undefined) {
    const rules = (stored.rules as PolicyRule[] | null | undefined) ?? [];
    const missing = uncovered(rules, wanted.rules);
    if (missing.length > 0) {
      next.rules = [...rules, ...missing];
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/** The stored binding with the subjects it lacks added, or undefined when it lacks nothing. */
export function reconciledBinding(stored: ApiObject, wanted: BindingObject): ApiObject | undefined {
  const next: ApiObject = structuredClone(stored);
  let changed = applyMeta(next, wanted.metadata);
  const subjects = (stored.subjects as Subject[] | null | undefined) ?? [];
  const lacking = (wanted.subjects ?? []).filter((w) => !subjects.some((s) => sameSubject(s, w)));
  if (lacking.length > 0) {
    next.subjects = [...subjects, ...lacking];
    changed = true;
  }
  return changed ? next : undefined;
}

function applyMeta(next: ApiObject, wanted: Meta): boolean {
  next.metadata ??= {};
  const meta = next.metadata;
  const labels = mergedMap(meta.labels, wanted.labels ?? {});
  const annotations = mergedMap(meta.annotations, wanted.annotations ?? {});
  if (labels !== undefined) meta.labels = labels;
  if (annotations !== undefined) meta.annotations = annotations;
  return labels !== undefined || annotations !== undefined;
}

function roleRefChanged(stored: ApiObject, wanted: BindingObject): boolean {
  const ref = stored.roleRef as BindingObject['roleRef'] | undefined;
  return ref?.kind !== wanted.roleRef.kind || ref?.name !== wanted.roleRef.name;
}

type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped';

async function ensureOne(
  store: PolicyStore,
  wanted: RoleObject | BindingObject,
  reconcile: (stored: ApiObject) => ApiObject | undefined,
  options: ReconcileOptions,
  replaceWhen?: (stored: ApiObject) => boolean,
): Promise<Outcome> {
  const ns = wanted.metadata.namespace ?? '';
  const name = wanted.metadata.name;
  for (let attempt = 1; ; attempt++) {
    try {
      let stored: ApiObject;
      try {
        stored = await store.get(ns, name);
      } catch (err) {
        if (codeOf(err) !== 404) throw err;
        await store.create(ns, structuredClone(wanted));
        return 'created';
      }
      const stale = reconcile(stored) !== undefined || (replaceWhen?.(stored) ?? false);
      if (!stale) return 'unchanged';
      if (isProtected(stored, options.autoupdateAnnotation)) return 'skipped';
      if (replaceWhen?.(stored)) {
        await store.delete(ns, name);
        await store.create(ns, structuredClone(wanted));
        return 'updated';
      }
      // Recomputed on the object the write replaces, so a concurrent change is never lost.
      await store.patch(ns, name, (current) => reconcile(current) ?? current);
      return 'updated';
    } catch (err) {
      const code = codeOf(err);
      if ((code === 409 || code === 404) && attempt < ATTEMPTS) continue;
      throw err;
    }
  }
}

export async function reconcileDefaultPolicy(
  stores: PolicyStores,
  policy: DefaultPolicy,
  options: ReconcileOptions,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { created: [], updated: [], skipped: [], failed: [] };
  const run = async (
    kind: string,
    store: PolicyStore,
    wanted: RoleObject | BindingObject,
    reconcile: (stored: ApiObject) => ApiObject | undefined,
    replaceWhen?: (stored: ApiObject) => boolean,
  ) => {
    const ns = wanted.metadata.namespace;
    const label = `${kind} ${ns === undefined ? '' : `${ns}/`}${wanted.metadata.name}`;
    try {
      const outcome = await ensureOne(store, wanted, reconcile, options, replaceWhen);
      if (outcome === 'created') report.created.push(label);
      else if (outcome === 'updated') report.updated.push(label);
      else if (outcome === 'skipped') {
        report.skipped.push(label);
        options.warn?.(`skipped reconcile-protected ${label}: it lacks default permissions or subjects`);
      }
    } catch (err) {
      report.failed.push({ name: label, error: err as Error });
    }
  };
  // Roles before bindings, so that no binding points at a role not there yet.
  for (const r of policy.clusterRoles) {
    await run('clusterrole', stores.clusterroles, r, (s) => reconciledRole(s, r));
  }
  for (const r of policy.roles) {
    await run('role', stores.roles, r, (s) => reconciledRole(s, r));
  }
  for (const b of policy.clusterRoleBindings) {
    await run(
      'clusterrolebinding',
      stores.clusterrolebindings,
      b,
      (s) => reconciledBinding(s, b),
      (s) => roleRefChanged(s, b),
    );
  }
  for (const b of policy.roleBindings) {
    await run(
      'rolebinding',
      stores.rolebindings,
      b,
      (s) => reconciledBinding(s, b),
      (s) => roleRefChanged(s, b),
    );
  }
  return report;
}
