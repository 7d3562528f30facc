// Keeps the ownership graph equal to what the watches report, as upstream's GraphBuilder, and
// decides which nodes the collector must look at:
// - an owner named but not seen yet gets a virtual node, queued so the collector asks the server
//   whether it exists;
// - a node seen deleted is removed, remembered as absent when it had dependents, and its
//   dependents are queued; owners waiting in foreground deletion for it are queued again;
// - a node starting to be deleted with the orphan finalizer goes to the orphan queue, with the
//   foregroundDeletion finalizer it is marked deletingDependents and it and its dependents are queued;
// - a dependent losing (or unblocking) its reference to an owner in foreground deletion requeues it;
// - references that disagree with what was observed of their owner queue the dependent for checking;
//   a namespaced owner seen in another namespace than its dependent's earns the dependent a Warning
//   Event (OwnerRefInvalidNamespace), as upstream's graph builder records.
// Watch events arrive one at a time on the event loop, so the graph changes synchronously.

import type { EventRecorder } from '../../client/events/recorder.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { type NamingProfile, sameGroup } from '../../naming/index.ts';
import { AbsentOwnerCache } from './absent-owner-cache.ts';
import {
  absentKey,
  FOREGROUND_FINALIZER,
  GraphNode,
  groupOf,
  NONE,
  type NodeType,
  NodeTypes,
  ORPHAN_FINALIZER,
  type OwnerReference,
  ownersDiffer,
  ownersOf,
  referenceMatches,
} from './graph.ts';

/** Where the builder sends nodes for the collector's workers. */
export interface GraphQueues {
  attemptToDelete(node: GraphNode): void;
  /** As attemptToDelete, after the queue's backoff for the node. */
  attemptToDeleteLater(node: GraphNode): void;
  attemptToOrphan(node: GraphNode): void;
}

/** The coordinates a virtual delete says are gone (namespace '' for a cluster-scoped type). */
export interface DeletedIdentity {
  type: NodeType;
  namespace: string;
  name: string;
  uid: string;
}

export class GraphBuilder {
  readonly nodes = new Map<string, GraphNode>();
  readonly absent = new AbsentOwnerCache();
  readonly types = new NodeTypes();

  /** One string per namespace name for all the nodes in it, rather than a copy per node. */
  private readonly namespaces = new Map<string, string>();

  constructor(
    private readonly profile: NamingProfile,
    private readonly queues: GraphQueues,
    private readonly recorder?: EventRecorder,
  ) {}

  /** An object added or updated, of the watched type `type`. */
  observe(type: NodeType, obj: ApiObject): void {
    const meta = obj.metadata;
    const uid = meta?.uid;
    if (typeof uid !== 'string' || uid === '') return;
    const namespace = this.intern(meta?.namespace ?? '');
    const name = meta?.name ?? '';
    const owners = ownersOf(obj);
    const finalizers: readonly string[] = Array.isArray(meta?.finalizers) ? meta.finalizers : NONE;
    const beingDeleted = meta?.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
    const orphan = finalizers.includes(ORPHAN_FINALIZER);
    const foreground = finalizers.includes(FOREGROUND_FINALIZER);

    let node = this.nodes.get(uid);
    if (node !== undefined && !node.observed) this.replaceVirtual(node, type, namespace, name);
    const was = { deleting: node?.beingDeleted ?? false, orphan: false, foreground: false };
    if (node === undefined) {
      node = new GraphNode(uid, type, namespace, name, owners);
      node.deletingDependents = beingDeleted && foreground;
      this.nodes.set(uid, node);
      this.addDependentToOwners(node, owners);
    } else {
      was.orphan = node.hasOrphanFinalizer;
      was.foreground = node.hasForegroundFinalizer;
      if (ownersDiffer(node.owners, owners)) this.ownersChanged(node, owners);
      else node.owners = owners;
    }
    node.observed = true;
    node.resourceVersion = meta?.resourceVersion ?? '';
    node.beingDeleted ||= beingDeleted;
    node.hasOrphanFinalizer = orphan;
    node.hasForegroundFinalizer = foreground;
    this.processTransitions(node, was, beingDeleted, orphan, foreground);
  }

  private intern(namespace: string): string {
    const known = this.namespaces.get(namespace);
    if (known !== undefined) return known;
    // Namespaces come and go: past the bound the table starts over rather than grow without end.
    if (this.namespaces.size >= 4096) this.namespaces.clear();
    this.namespaces.set(namespace, namespace);
    return namespace;
  }

  /** An object seen deleted. */
  observeDeleted(obj: ApiObject): void {
    const uid = obj.metadata?.uid;
    if (typeof uid !== 'string') return;
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    this.removeNode(node, absentKey(node.type.group, node.type.kind, node.namespace, node.name, uid));
  }

  /**
   * A complete list of the watched type `type`: every object in it is observed, and every
   * observed node of that type missing from it is deleted (the watch missed its deletion).
   */
  replace(type: NodeType, items: readonly ApiObject[]): void {
    const present = new Set<string>();
    for (const item of items) {
      const uid = item.metadata?.uid;
      if (typeof uid === 'string') present.add(uid);
    }
    for (const node of [...this.nodes.values()]) {
      if (node.observed && node.type === type && !present.has(node.uid)) {
        this.removeNode(
          node,
          absentKey(node.type.group, node.type.kind, node.namespace, node.name, node.uid),
        );
      }
    }
    for (const item of items) this.observe(type, item);
  }

  /**
   * The server says `identity` does not exist (404, or another uid under its name): upstream's
   * virtual delete event. An observed node is removed only when the identity is its own; a virtual
   * node whose dependents name it differently is kept under one of their other names and checked again.
   */
  virtualDelete(identity: DeletedIdentity): void {
    const node = this.nodes.get(identity.uid);
    if (node === undefined) return;
    const key = absentKey(
      identity.type.group,
      identity.type.kind,
      identity.namespace,
      identity.name,
      identity.uid,
    );
    const same =
      node.type.kind === identity.type.kind &&
      this.sameGroup(node.type.group, identity.type.group) &&
      node.name === identity.name &&
      (identity.namespace === '' || node.namespace === identity.namespace);
    if (node.observed) {
      if (same) this.removeNode(node, key);
      else {
        const matching = this.partition(node, identity).matching;
        if (matching.length > 0) this.absent.add(key);
        for (const d of matching) this.queues.attemptToDelete(d);
      }
      return;
    }
    const { matching, nonmatching } = this.partition(node, identity);
    if (nonmatching.length === 0) {
      this.removeNode(node, key);
      return;
    }
    if (matching.length > 0) {
      this.absent.add(key);
      for (const d of matching) this.queues.attemptToDelete(d);
    }
    if (same) {
      // Try the coordinates another dependent gives for this uid.
      const dep = nonmatching[0] as GraphNode;
      const ref = dep.owners.find((o) => o.uid === node.uid) as OwnerReference;
      node.type = this.types.get(ref.apiVersion, ref.kind);
      node.name = ref.name;
      node.namespace = dep.namespace;
      this.queues.attemptToDeleteLater(node);
    }
  }

  private sameGroup(a: string, b: string): boolean {
    return sameGroup(this.profile, a, b);
  }

  /** Dependents whose reference to the node agrees with `identity`, and those that do not. */
  private partition(node: GraphNode, identity: DeletedIdentity) {
    const matching: GraphNode[] = [];
    const nonmatching: GraphNode[] = [];
    for (const d of node.dependentList()) {
      let match = false;
      let mismatch = false;
      if (identity.namespace !== '' && d.namespace !== identity.namespace) mismatch = true;
      else {
        for (const ref of d.owners) {
          if (ref.uid !== identity.uid) continue;
          const agrees =
            ref.name === identity.name &&
            ref.kind === identity.type.kind &&
            this.sameGroup(groupOf(ref.apiVersion), identity.type.group);
          if (agrees) match = true;
          else mismatch = true;
        }
      }
      if (match) matching.push(d);
      if (mismatch) nonmatching.push(d);
    }
    return { matching, nonmatching };
  }

  /** A virtual node is seen at last: dependents that named it otherwise are checked. */
  private replaceVirtual(node: GraphNode, type: NodeType, namespace: string, name: string): void {
    const observed = new GraphNode(node.uid, type, namespace, name, NONE);
    // Only a seen identity unlike the guessed one can prove a dependent's namespace wrong.
    const moved =
      node.namespace !== namespace ||
      node.name !== name ||
      node.type.apiVersion !== type.apiVersion ||
      node.type.kind !== type.kind;
    for (const d of node.dependentList()) {
      const ref = d.owners.find((o) => o.uid === node.uid);
      const wrongNamespace = namespace !== '' && d.namespace !== namespace;
      if (wrongNamespace && moved) this.reportInvalidNamespaceOwnerRef(d, node.uid);
      if (wrongNamespace || ref === undefined || !referenceMatches(this.profile, ref, observed))
        this.queues.attemptToDelete(d);
    }
    node.type = type;
    node.namespace = namespace;
    node.name = name;
  }

  private ownersChanged(node: GraphNode, owners: readonly OwnerReference[]): void {
    const before = new Map(node.owners.map((o) => [o.uid, o]));
    const after = new Map(owners.map((o) => [o.uid, o]));
    const added = owners.filter((o) => !before.has(o.uid));
    const removed = node.owners.filter((o) => !after.has(o.uid));
    // Owners in foreground deletion that this node no longer blocks look again.
    for (const o of node.owners) {
      const now = after.get(o.uid);
      const unblocked = o.blockOwnerDeletion === true && now?.blockOwnerDeletion !== true;
      const owner = unblocked ? this.nodes.get(o.uid) : undefined;
      if (owner?.deletingDependents) this.queues.attemptToDelete(owner);
    }
    node.owners = owners;
    this.addDependentToOwners(node, added);
    for (const o of removed) this.nodes.get(o.uid)?.removeDependent(node);
  }

  private addDependentToOwners(node: GraphNode, refs: readonly OwnerReference[]): void {
    let suspect = false;
    for (const ref of refs) {
      let owner = this.nodes.get(ref.uid);
      if (owner === undefined) {
        owner = new GraphNode(
          ref.uid,
          this.types.get(ref.apiVersion, ref.kind),
          node.namespace,
          ref.name,
          NONE,
        );
        this.nodes.set(ref.uid, owner);
        owner.addDependent(node);
        this.queues.attemptToDelete(owner);
        continue;
      }
      owner.addDependent(node);
      if (suspect) continue;
      if (owner.observed) {
        const namespacedOwner = owner.namespace !== '';
        if (namespacedOwner && owner.namespace !== node.namespace) {
          suspect = true;
          this.reportInvalidNamespaceOwnerRef(node, ref.uid);
        } else if (!referenceMatches(this.profile, ref, owner)) suspect = true;
      } else if (
        owner.namespace !== node.namespace ||
        owner.name !== ref.name ||
        owner.type.kind !== ref.kind
      ) {
        suspect = true;
      }
    }
    if (suspect) this.queues.attemptToDelete(node);
  }

  /**
   * The Warning upstream records on a dependent whose reference names a namespaced owner that is
   * not in the dependent's namespace (or names one from a cluster-scoped dependent).
   */
  private reportInvalidNamespaceOwnerRef(dependent: GraphNode, ownerUid: string): void {
    if (this.recorder === undefined) return;
    const ref = dependent.owners.find((o) => o.uid === ownerUid);
    if (ref === undefined) return;
    const metadata: { name: string; uid: string; namespace?: string } = {
      name: dependent.name,
      uid: dependent.uid,
    };
    if (dependent.namespace !== '') metadata.namespace = dependent.namespace;
    this.recorder.event(
      { apiVersion: dependent.type.apiVersion, kind: dependent.type.kind, metadata },
      'Warning',
      'OwnerRefInvalidNamespace',
      invalidNamespaceMessage(ref, dependent.namespace),
    );
  }

  private processTransitions(
    node: GraphNode,
    was: { deleting: boolean; orphan: boolean; foreground: boolean },
    beingDeleted: boolean,
    orphan: boolean,
    foreground: boolean,
  ): void {
    if (beingDeleted && orphan && !(was.deleting && was.orphan)) {
      this.queues.attemptToOrphan(node);
      return;
    }
    if (beingDeleted && foreground && !(was.deleting && was.foreground)) {
      node.deletingDependents = true;
      for (const d of node.dependentList()) this.queues.attemptToDelete(d);
      this.queues.attemptToDelete(node);
    }
  }

  private removeNode(node: GraphNode, key: string): void {
    this.nodes.delete(node.uid);
    for (const o of node.owners) this.nodes.get(o.uid)?.removeDependent(node);
    const dependents = node.dependentList();
    if (dependents.length > 0) this.absent.add(key);
    for (const d of dependents) this.queues.attemptToDelete(d);
    for (const o of node.owners) {
      const owner = this.nodes.get(o.uid);
      if (owner?.deletingDependents) this.queues.attemptToDelete(owner);
    }
  }
}

/** Upstream's message: the reference's coordinates, placed in the dependent's namespace. */
export function invalidNamespaceMessage(ref: OwnerReference, namespace: string): string {
  return (
    `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}] ` +
    `does not exist in namespace ${JSON.stringify(namespace)}`
  );
}
