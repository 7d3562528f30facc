// The in-memory RBAC index the authorizer decides from: roles by namespace and name with their
// rules compiled, and bindings indexed by subject (user name, group, service-account user name)
// per namespace and cluster-wide, so a decision looks at the requesting user's bindings only and
// never at the store. Fed by an RbacObjectSource (upsert/remove/replace per kind).

import { goQuote } from '../../../machinery/field-errors.ts';
import type { UserInfo } from '../../authn/types.ts';
import { type GroupAliases, normalizeRule, RuleTable } from './rules.ts';
import type {
  BindingObject,
  PolicyRule,
  RbacFeedHandlers,
  RbacKind,
  RbacObject,
  RoleObject,
  Subject,
} from './types.ts';

export interface RoleEntry {
  readonly name: string;
  readonly rules: readonly PolicyRule[];
  readonly table: RuleTable;
}

export interface BindingEntry {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly name: string;
  /** '' for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleKind: string;
  readonly roleName: string;
  readonly subjects: readonly Subject[];
  /** Keys this binding is filed under, to unfile it. */
  readonly userKeys: readonly string[];
  readonly groupKeys: readonly string[];
  /** The last decision that visited it: each binding is visited once per decision. */
  stamp: number;
}

interface SubjectIndex {
  byUser: Map<string, Set<BindingEntry>>;
  byGroup: Map<string, Set<BindingEntry>>;
}

/** A role reference that does not resolve: the message as upstream's lister words it. */
export interface RoleLookupError {
  error: string;
  /** For NotFound: the singular resource (`role`, `clusterrole`) and the name. */
  notFound?: { resource: string; name: string };
}

const SA_PREFIX = 'system:serviceaccount:';

function emptySubjectIndex(): SubjectIndex {
  return { byUser: new Map(), byGroup: new Map() };
}

function nameOf(obj: RbacObject): string {
  return typeof obj.metadata?.name === 'string' ? obj.metadata.name : '';
}

function namespaceOf(obj: RbacObject): string {
  return typeof obj.metadata?.namespace === 'string' ? obj.metadata.namespace : '';
}

function roleEntry(obj: RoleObject, aliases: GroupAliases): RoleEntry {
  const raw = Array.isArray(obj.rules) ? obj.rules : [];
  const rules = raw.filter((r) => r !== null && typeof r === 'object').map(normalizeRule);
  return { name: nameOf(obj), rules, table: RuleTable.of(rules, aliases) };
}

/** The service account's user name a subject names from a binding in `bindingNs`, if any. */
function serviceAccountUser(s: Subject, bindingNs: string): string | undefined {
  const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNs;
  if (ns === '' || typeof s.name !== 'string') return undefined;
  return `${SA_PREFIX}${ns}:${s.name}`;
}

/** Whether a binding subject names the user (upstream's appliesToUser). */
export function subjectApplies(user: UserInfo, s: Subject, bindingNs: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return typeof s.name === 'string' && user.groups.includes(s.name);
    case 'ServiceAccount':
      return serviceAccountUser(s, bindingNs) === user.username;
    default:
      return false;
  }
}

/** `User "alice"`, `ServiceAccount "name/namespace"`: the subject as a reason names it. */
export function describeSubject(s: Subject, bindingNs: string): string {
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNs;
    return `${s.kind} ${goQuote(`${s.name ?? ''}/${ns}`)}`;
  }
  return `${s.kind ?? ''} ${goQuote(s.name ?? '')}`;
}

/** `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`, as upstream's binding describers. */
export function describeBinding(b: BindingEntry, s: Subject): string {
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} ${goQuote(name)} of ${b.roleKind} ${goQuote(b.roleName)} to ${describeSubject(s, b.namespace)}`;
}

function bindingEntry(kind: BindingEntry['kind'], obj: BindingObject): BindingEntry {
  const namespace = kind === 'RoleBinding' ? namespaceOf(obj) : '';
  const subjects = (Array.isArray(obj.subjects) ? obj.subjects : []).filter(
    (s): s is Subject => s !== null && typeof s === 'object',
  );
  const userKeys = new Set<string>();
  const groupKeys = new Set<string>();
  for (const s of subjects) {
    if (typeof s.name !== 'string') continue;
    if (s.kind === 'User') userKeys.add(s.name);
    else if (s.kind === 'Group') groupKeys.add(s.name);
    else if (s.kind === 'ServiceAccount') {
      const u = serviceAccountUser(s, namespace);
      if (u !== undefined) userKeys.add(u);
    }
  }
  return {
    kind,
    name: nameOf(obj),
    namespace,
    roleKind: typeof obj.roleRef?.kind === 'string' ? obj.roleRef.kind : '',
    roleName: typeof obj.roleRef?.name === 'string' ? obj.roleRef.name : '',
    subjects,
    userKeys: [...userKeys],
    groupKeys: [...groupKeys],
    stamp: 0,
  };
}

function file(map: Map<string, Set<BindingEntry>>, key: string, b: BindingEntry): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(b);
}

function unfile(map: Map<string, Set<BindingEntry>>, key: string, b: BindingEntry): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(b);
  if (set.size === 0) map.delete(key);
}

/** Called per binding that applies to the user, with its first applying subject; false stops. */
export type BindingVisitor = (binding: BindingEntry, subject: Subject) => boolean;

export class RbacIndex implements RbacFeedHandlers {
  private readonly roles = new Map<string, Map<string, RoleEntry>>();
  private readonly clusterRoles = new Map<string, RoleEntry>();
  private readonly roleBindings = new Map<string, Map<string, BindingEntry>>();
  private readonly clusterRoleBindings = new Map<string, BindingEntry>();
  private readonly namespaced = new Map<string, SubjectIndex>();
  private readonly cluster: SubjectIndex = emptySubjectIndex();
  private epoch = 0;
  /** Called after every change (the aggregation controller and tests listen). */
  private readonly listeners = new Set<(kind: RbacKind) => void>();

  constructor(
    private readonly group: string,
    /** Upstream group names to the profile's, so rules naming either match requests. */
    readonly aliases: GroupAliases = new Map(),
  ) {}

  onChange(fn: (kind: RbacKind) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  upsert(kind: RbacKind, obj: RbacObject): void {
    this.put(kind, obj);
    this.changed(kind);
  }

  remove(kind: RbacKind, obj: RbacObject): void {
    const name = nameOf(obj);
    const ns = namespaceOf(obj);
    switch (kind) {
      case 'Role': {
        const m = this.roles.get(ns);
        m?.delete(name);
        if (m?.size === 0) this.roles.delete(ns);
        break;
      }
      case 'ClusterRole':
        this.clusterRoles.delete(name);
        break;
      case 'RoleBinding':
        this.dropRoleBinding(ns, name);
        break;
      case 'ClusterRoleBinding':
        this.dropClusterRoleBinding(name);
        break;
    }
    this.changed(kind);
  }

  replace(kind: RbacKind, objects: readonly RbacObject[]): void {
    switch (kind) {
      case 'Role':
        this.roles.clear();
        break;
      case 'ClusterRole':
        this.clusterRoles.clear();
        break;
      case 'RoleBinding':
        this.roleBindings.clear();
        this.namespaced.clear();
        break;
      case 'ClusterRoleBinding':
        this.clusterRoleBindings.clear();
        this.cluster.byUser.clear();
        this.cluster.byGroup.clear();
        break;
    }
    for (const obj of objects) this.put(kind, obj);
    this.changed(kind);
  }

  private changed(kind: RbacKind): void {
    for (const fn of this.listeners) fn(kind);
  }

  private put(kind: RbacKind, obj: RbacObject): void {
    const name = nameOf(obj);
    if (name === '') return;
    const ns = namespaceOf(obj);
    switch (kind) {
      case 'Role': {
        let m = this.roles.get(ns);
        if (m === undefined) {
          m = new Map();
          this.roles.set(ns, m);
        }
        m.set(name, roleEntry(obj as RoleObject, this.aliases));
        return;
      }
      case 'ClusterRole':
        this.clusterRoles.set(name, roleEntry(obj as RoleObject, this.aliases));
        return;
      case 'RoleBinding': {
        this.dropRoleBinding(ns, name);
        const b = bindingEntry('RoleBinding', obj as BindingObject);
        let m = this.roleBindings.get(ns);
        if (m === undefined) {
          m = new Map();
          this.roleBindings.set(ns, m);
        }
        m.set(name, b);
        let idx = this.namespaced.get(ns);
        if (idx === undefined) {
          idx = emptySubjectIndex();
          this.namespaced.set(ns, idx);
        }
        for (const k of b.userKeys) file(idx.byUser, k, b);
        for (const k of b.groupKeys) file(idx.byGroup, k, b);
        return;
      }
      case 'ClusterRoleBinding': {
        this.dropClusterRoleBinding(name);
        const b = bindingEntry('ClusterRoleBinding', obj as BindingObject);
        this.clusterRoleBindings.set(name, b);
        for (const k of b.userKeys) file(this.cluster.byUser, k, b);
        for (const k of b.groupKeys) file(this.cluster.byGroup, k, b);
        return;
      }
    }
  }

  private dropRoleBinding(ns: string, name: string): void {
    const m = this.roleBindings.get(ns);
    const b = m?.get(name);
    if (m === undefined || b === undefined) return;
    m.delete(name);
    if (m.size === 0) this.roleBindings.delete(ns);
    const idx = this.namespaced.get(ns);
    if (idx === undefined) return;
    for (const k of b.userKeys) unfile(idx.byUser, k, b);
    for (const k of b.groupKeys) unfile(idx.byGroup, k, b);
    if (idx.byUser.size === 0 && idx.byGroup.size === 0) this.namespaced.delete(ns);
  }

  private dropClusterRoleBinding(name: string): void {
    const b = this.clusterRoleBindings.get(name);
    if (b === undefined) return;
    this.clusterRoleBindings.delete(name);
    for (const k of b.userKeys) unfile(this.cluster.byUser, k, b);
    for (const k of b.groupKeys) unfile(this.cluster.byGroup, k, b);
  }

  /**
   * Visits the bindings that apply to the user: cluster-wide ones, then (with a namespace) those
   * of the namespace, each once, with the first of its subjects that names the user.
   */
  visitBindings(user: UserInfo, namespace: string, visit: BindingVisitor): void {
    const stamp = ++this.epoch;
    if (!this.visitIndex(this.cluster, user, stamp, visit)) return;
    if (namespace === '') return;
    const idx = this.namespaced.get(namespace);
    if (idx !== undefined) this.visitIndex(idx, user, stamp, visit);
  }

  private visitIndex(idx: SubjectIndex, user: UserInfo, stamp: number, visit: BindingVisitor): boolean {
    if (!this.visitSet(idx.byUser.get(user.username), user, stamp, visit)) return false;
    const groups = user.groups;
    for (let i = 0; i < groups.length; i++) {
      if (!this.visitSet(idx.byGroup.get(groups[i]), user, stamp, visit)) return false;
    }
    return true;
  }

  private visitSet(
    set: Set<BindingEntry> | undefined,
    user: UserInfo,
    stamp: number,
    visit: BindingVisitor,
  ): boolean {
    if (set === undefined) return true;
    for (const b of set) {
      if (b.stamp === stamp) continue;
      b.stamp = stamp;
      const subjects = b.subjects;
      for (let i = 0; i < subjects.length; i++) {
        if (subjectApplies(user, subjects[i], b.namespace)) {
          if (!visit(b, subjects[i])) return false;
          break;
        }
      }
    }
    return true;
  }

  /** The role a binding references: a Role of the binding's namespace or a ClusterRole. */
  resolveRole(roleKind: string, roleName: string, bindingNs: string): RoleEntry | RoleLookupError {
    if (roleKind === 'ClusterRole') {
      return this.clusterRoles.get(roleName) ?? this.notFound('clusterrole', roleName);
    }
    if (roleKind === 'Role') {
      // Upstream's lister needs a namespace; a ClusterRoleBinding to a Role never resolves.
      const role = bindingNs === '' ? undefined : this.roles.get(bindingNs)?.get(roleName);
      return role ?? this.notFound('role', roleName);
    }
    return { error: `unsupported role reference kind: ${goQuote(roleKind)}` };
  }

  private notFound(resource: string, name: string): RoleLookupError {
    return { error: `${resource}.${this.group} ${goQuote(name)} not found`, notFound: { resource, name } };
  }

  clusterRole(name: string): RoleEntry | undefined {
    return this.clusterRoles.get(name);
  }

  role(namespace: string, name: string): RoleEntry | undefined {
    return this.roles.get(namespace)?.get(name);
  }

  /** Counts, for tests and the benchmark's sanity check. */
  size(): Record<RbacKind, number> {
    let roles = 0;
    for (const m of this.roles.values()) roles += m.size;
    let rbs = 0;
    for (const m of this.roleBindings.values()) rbs += m.size;
    return {
      Role: roles,
      ClusterRole: this.clusterRoles.size,
      RoleBinding: rbs,
      ClusterRoleBinding: this.clusterRoleBindings.size,
    };
  }
}

export function isLookupError(r: RoleEntry | RoleLookupError): r is RoleLookupError {
  return (r as RoleLookupError).error !== undefined;
}
