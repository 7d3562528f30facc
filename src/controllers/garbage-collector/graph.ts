// The garbage collector's ownership graph, as upstream's uidToNode: one node per object seen (or
// per owner only named so far, a "virtual" node), each knowing its owners (the ownerReferences it
// was last seen with) and its dependents. A node holds only what the collector decides with, so
// that the graph of a large cluster stays small: its type is a shared record, its lists are the
// observed object's own arrays (never copied) and an object without owners or interesting
// finalizers shares one empty list.

import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/index.ts';
import { sameGroup } from '../../naming/index.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** An apiVersion and kind, interned: every node of one type points at the same record. */
export interface NodeType {
  readonly apiVersion: string;
  readonly kind: string;
  /** The group part of apiVersion ('' for the core group). */
  readonly group: string;
}

export const NONE: readonly never[] = Object.freeze([]);

export class GraphNode {
  /** Objects whose ownerReferences name this node; created on the first one. */
  dependents: Set<GraphNode> | undefined;
  /** Seen through a watch (false: only named as an owner so far). */
  observed = false;
  beingDeleted = false;
  /** Being deleted with the foregroundDeletion finalizer: waits for its blocking dependents. */
  deletingDependents = false;
  hasOrphanFinalizer = false;
  hasForegroundFinalizer = false;
  resourceVersion = '';

  constructor(
    readonly uid: string,
    public type: NodeType,
    public namespace: string,
    public name: string,
    public owners: readonly OwnerReference[],
  ) {}

  addDependent(d: GraphNode): void {
    this.dependents ??= new Set();
    this.dependents.add(d);
  }

  removeDependent(d: GraphNode): void {
    this.dependents?.delete(d);
    if (this.dependents?.size === 0) this.dependents = undefined;
  }

  dependentList(): GraphNode[] {
    return this.dependents === undefined ? [] : [...this.dependents];
  }

  /** Dependents whose reference to this node has blockOwnerDeletion set. */
  blockingDependents(): GraphNode[] {
    return this.dependentList().filter((d) =>
      d.owners.some((o) => o.uid === this.uid && o.blockOwnerDeletion === true),
    );
  }

  toString(): string {
    const where = this.namespace === '' ? '' : `, namespace: ${this.namespace}`;
    return `[${this.type.apiVersion}/${this.type.kind}${where}, name: ${this.name}, uid: ${this.uid}]`;
  }
}

export function groupOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The valid ownerReferences of an object (each with a uid); NONE when it has none. */
export function ownersOf(obj: ApiObject): readonly OwnerReference[] {
  const refs = obj.metadata?.ownerReferences;
  if (!Array.isArray(refs) || refs.length === 0) return NONE;
  const valid = refs.every(isOwnerReference);
  return valid ? (refs as OwnerReference[]) : refs.filter(isOwnerReference);
}

function isOwnerReference(r: unknown): r is OwnerReference {
  if (r === null || typeof r !== 'object') return false;
  const o = r as Record<string, unknown>;
  return typeof o.uid === 'string' && o.uid !== '' && typeof o.name === 'string';
}

/** Whether a reference names the node as it was observed: same group (or alias), kind and name. */
export function referenceMatches(profile: NamingProfile, ref: OwnerReference, owner: GraphNode): boolean {
  return (
    ref.uid === owner.uid &&
    ref.name === owner.name &&
    ref.kind === owner.type.kind &&
    sameGroup(profile, groupOf(ref.apiVersion), owner.type.group)
  );
}

/** The key an absent owner is remembered under (version-insensitive, as the graph compares). */
export function absentKey(group: string, kind: string, namespace: string, name: string, uid: string): string {
  return `${group}\u0000${kind}\u0000${namespace}\u0000${name}\u0000${uid}`;
}

/** Interns NodeTypes so that every node of one type shares one record. */
export class NodeTypes {
  private readonly types = new Map<string, NodeType>();

  get(apiVersion: string, kind: string): NodeType {
    const key = `${apiVersion}\u0000${kind}`;
    let t = this.types.get(key);
    if (t === undefined) {
      t = Object.freeze({ apiVersion, kind, group: groupOf(apiVersion) });
      this.types.set(key, t);
    }
    return t;
  }
}

/** Whether the two owner lists differ in anything the collector reads. */
export function ownersDiffer(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  if (a === b) return false;
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as OwnerReference;
    const y = b[i] as OwnerReference;
    if (
      x.uid !== y.uid ||
      x.name !== y.name ||
      x.kind !== y.kind ||
      x.apiVersion !== y.apiVersion ||
      (x.blockOwnerDeletion === true) !== (y.blockOwnerDeletion === true)
    )
      return true;
  }
  return false;
}
