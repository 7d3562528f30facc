// In-server copy, run by src/server/server.ts over the registry's stores until the server starts the
// controller manager instead; the controller built on the client lives beside it in this folder.
// The garbage collector keeps a graph of ownership (owner uid -> dependents) from a list and a watch
// of every served resource, and acts on three situations:
// - a dependent whose owners are all gone is deleted; references to some gone owners are dropped;
// - an owner deleted with Orphan (finalizer `orphan`): its references are removed from every
//   dependent, then the finalizer;
// - an owner deleted with Foreground (finalizer `foregroundDeletion`): its dependents are deleted,
//   and the finalizer goes once no dependent with blockOwnerDeletion is left.
// Work is keyed by uid and done one item at a time; every write re-reads the object and is retried
// on conflict, so a lagging graph never acts on stale data.

import type { ApiObject } from '../../machinery/object.ts';
import {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  type PropagationPolicy,
} from '../../registry/deletion-propagation.ts';
import type { WireWatch } from '../../registry/generic-store.ts';
import {
  apiVersionOf,
  type ControlledResource,
  codeOf,
  eventMetadata,
  listMetadata,
  typeKey,
  updateWithRetries,
} from '../resources.ts';
import { WorkQueue } from '../work-queue.ts';

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
}

interface GraphNode {
  uid: string;
  resource: ControlledResource;
  namespace: string;
  name: string;
  owners: readonly OwnerRef[];
  deleting: boolean;
  finalizers: readonly string[];
}

type OwnerState = 'present' | 'waiting' | 'absent' | 'unknown';

/**
 * One empty list for every node without owners or finalizers (nearly all of them): the graph holds
 * a node per object, and two fresh empty arrays each cost more than the rest of a small node.
 */
const NONE: readonly never[] = Object.freeze([]);

function ownersOf(obj: ApiObject): readonly OwnerRef[] {
  const refs = obj.metadata?.ownerReferences;
  if (!Array.isArray(refs) || refs.length === 0) return NONE;
  return refs.filter(
    (r): r is OwnerRef =>
      r !== null &&
      typeof r === 'object' &&
      typeof (r as OwnerRef).uid === 'string' &&
      (r as OwnerRef).uid !== '',
  );
}

export class GarbageCollector {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly byType = new Map<string, ControlledResource>();
  private readonly watches: WireWatch[] = [];
  private readonly queue = new WorkQueue(
    (uid) => this.attend(uid),
    (uid, err) => this.log(`garbage collector: ${uid}: ${err.message}; retrying`),
  );

  constructor(
    private readonly resources: readonly ControlledResource[],
    private readonly log: (message: string) => void = () => {},
    /** The field manager its writes are recorded under; unset records nothing. */
    private readonly manager?: string,
  ) {
    for (const r of resources)
      this.byType.set(typeKey(apiVersionOf(r.kind.resource), r.kind.resource.kind), r);
  }

  /** Lists every resource, then follows each from the revision it listed at. */
  async start(): Promise<void> {
    const revisions: string[] = [];
    for (const r of this.resources) {
      const list = await r.store.list('');
      // The graph reads metadata alone: neither the list nor the watch decodes whole objects.
      for (const item of listMetadata(list)) this.observe(r, item);
      revisions.push(list.metadata.resourceVersion);
    }
    this.resources.forEach((r, i) => {
      this.follow(r, revisions[i]);
    });
    for (const node of this.nodes.values()) {
      if (node.owners.length > 0 || this.hasGcFinalizer(node)) this.queue.add(node.uid);
    }
  }

  stop(): void {
    this.queue.stop();
    for (const w of this.watches) w.stop();
  }

  /** Resolves once nothing is queued or in progress (tests wait on this). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private get stopped(): boolean {
    return this.queue.stopped;
  }

  private follow(r: ControlledResource, revision: string): void {
    const watch = r.store.watch('', { revision: Number(revision) });
    this.watches.push(watch);
    void (async () => {
      try {
        for await (const ev of watch) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.observe(r, eventMetadata(ev));
          else if (ev.type === 'DELETED') this.forget(eventMetadata(ev));
          else if (ev.type === 'ERROR') throw new Error(String(ev.object.message ?? 'watch failed'));
        }
      } catch (err) {
        if (this.stopped) return;
        this.log(
          `garbage collector: watch of ${r.kind.resource.resource} failed, relisting: ${(err as Error).message}`,
        );
        await this.relist(r);
      }
    })();
  }

  private async relist(r: ControlledResource): Promise<void> {
    if (this.stopped) return;
    const list = await r.store.list('');
    const seen = new Set<string>();
    for (const item of listMetadata(list)) {
      this.observe(r, item);
      seen.add(String(item.metadata?.uid));
    }
    for (const node of [...this.nodes.values()]) {
      if (node.resource === r && !seen.has(node.uid)) this.forget({ metadata: { uid: node.uid } });
    }
    this.follow(r, list.metadata.resourceVersion);
  }

  private observe(r: ControlledResource, obj: ApiObject): void {
    const uid = String(obj.metadata?.uid ?? '');
    if (uid === '') return;
    const before = this.nodes.get(uid);
    const node: GraphNode = {
      uid,
      resource: r,
      namespace: this.namespaceName(String(obj.metadata?.namespace ?? '')),
      name: String(obj.metadata?.name ?? ''),
      owners: ownersOf(obj),
      deleting: obj.metadata?.deletionTimestamp !== undefined,
      finalizers: (obj.metadata?.finalizers?.length ?? 0) > 0 ? [...(obj.metadata?.finalizers ?? [])] : NONE,
    };
    this.nodes.set(uid, node);
    for (const o of before?.owners ?? []) this.dependents.get(o.uid)?.delete(uid);
    for (const o of node.owners) {
      const set = this.dependents.get(o.uid) ?? new Set<string>();
      this.dependents.set(o.uid, set);
      set.add(uid);
    }
    const ownersChanged = JSON.stringify(before?.owners ?? []) !== JSON.stringify(node.owners);
    if (this.hasGcFinalizer(node) || (node.owners.length > 0 && ownersChanged)) this.queue.add(uid);
    this.wakeWaitingOwners([...(before?.owners ?? []), ...node.owners]);
  }

  /** One string per namespace for every node in it, rather than a copy per node. */
  private namespaceName(name: string): string {
    const known = this.namespaceNames.get(name);
    if (known !== undefined) return known;
    // Namespaces come and go: past the bound the table starts over rather than grow without end.
    if (this.namespaceNames.size >= 4096) this.namespaceNames.clear();
    this.namespaceNames.set(name, name);
    return name;
  }

  private readonly namespaceNames = new Map<string, string>();

  private forget(obj: ApiObject): void {
    const uid = String(obj.metadata?.uid ?? '');
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    this.nodes.delete(uid);
    for (const o of node.owners) this.dependents.get(o.uid)?.delete(uid);
    for (const d of this.dependents.get(uid) ?? []) this.queue.add(d);
    this.wakeWaitingOwners(node.owners);
  }

  /** Owners in foreground deletion re-check whether their blocking dependents are gone. */
  private wakeWaitingOwners(owners: readonly OwnerRef[]): void {
    for (const o of owners) {
      const owner = this.nodes.get(o.uid);
      if (owner?.deleting && owner.finalizers.includes(FOREGROUND_FINALIZER)) this.queue.add(o.uid);
    }
  }

  private hasGcFinalizer(node: GraphNode): boolean {
    return (
      node.deleting &&
      (node.finalizers.includes(ORPHAN_FINALIZER) || node.finalizers.includes(FOREGROUND_FINALIZER))
    );
  }

  private async attend(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    if (node.deleting && node.finalizers.includes(ORPHAN_FINALIZER)) {
      for (const d of this.dependentNodes(uid)) {
        await this.mutate(d, (obj) => {
          const refs = ownersOf(obj);
          const kept = refs.filter((r) => r.uid !== uid);
          if (kept.length === refs.length) return false;
          setOwners(obj, kept);
          return true;
        });
      }
      await this.removeFinalizer(node, ORPHAN_FINALIZER);
      return;
    }
    if (node.deleting && node.finalizers.includes(FOREGROUND_FINALIZER)) {
      const deps = this.dependentNodes(uid);
      for (const d of deps) {
        // A dependent with dependents of its own goes in the foreground too, so the wait cascades.
        if (!d.deleting)
          await this.deleteNode(d, this.dependentNodes(d.uid).length > 0 ? 'Foreground' : 'Background');
      }
      const blocking = deps.filter((d) =>
        d.owners.some((o) => o.uid === uid && o.blockOwnerDeletion === true),
      );
      if (blocking.length === 0) await this.removeFinalizer(node, FOREGROUND_FINALIZER);
      return;
    }
    if (node.owners.length === 0) return;
    const states = await Promise.all(node.owners.map((o) => this.ownerState(node, o)));
    const absent = node.owners.filter((_, i) => states[i] === 'absent');
    if (absent.length === 0) return;
    if (absent.length === node.owners.length) {
      await this.deleteNode(node, 'Background');
      return;
    }
    const gone = new Set(absent.map((o) => o.uid));
    await this.mutate(node, (obj) => {
      const refs = ownersOf(obj);
      const kept = refs.filter((r) => !gone.has(r.uid));
      if (kept.length === refs.length) return false;
      setOwners(obj, kept);
      return true;
    });
  }

  private dependentNodes(uid: string): GraphNode[] {
    return [...(this.dependents.get(uid) ?? [])]
      .map((d) => this.nodes.get(d))
      .filter((d): d is GraphNode => d !== undefined);
  }

  /** Whether an owner still exists: the graph first, then a read, since the graph may lag. */
  private async ownerState(node: GraphNode, ref: OwnerRef): Promise<OwnerState> {
    const known = this.nodes.get(ref.uid);
    if (known !== undefined) {
      return known.deleting && known.finalizers.includes(FOREGROUND_FINALIZER) ? 'waiting' : 'present';
    }
    const r = this.byType.get(typeKey(ref.apiVersion, ref.kind));
    if (r === undefined) return 'unknown';
    // A namespaced owner can only be in its dependent's namespace; a cluster-scoped dependent has none.
    if (r.kind.resource.namespaced && node.namespace === '') return 'absent';
    try {
      const owner = await r.store.get(r.kind.resource.namespaced ? node.namespace : '', ref.name);
      return owner.metadata?.uid === ref.uid ? 'present' : 'absent';
    } catch (err) {
      if (codeOf(err) === 404) return 'absent';
      throw err;
    }
  }

  private async deleteNode(node: GraphNode, policy: PropagationPolicy): Promise<void> {
    try {
      await node.resource.store.delete(node.namespace, node.name, {
        preconditions: { uid: node.uid },
        propagationPolicy: policy,
      });
    } catch (err) {
      // Gone already, or replaced by a namesake: nothing of ours to delete.
      if (codeOf(err) !== 404 && codeOf(err) !== 409) throw err;
    }
  }

  private removeFinalizer(node: GraphNode, finalizer: string): Promise<void> {
    return this.mutate(node, (obj) => {
      const list = obj.metadata?.finalizers ?? [];
      if (!list.includes(finalizer)) return false;
      obj.metadata = { ...obj.metadata, finalizers: list.filter((f) => f !== finalizer) };
      return true;
    });
  }

  /** Re-reads the object, applies `change` (false: nothing to do) and writes it, retrying conflicts. */
  private mutate(node: GraphNode, change: (obj: ApiObject) => boolean): Promise<void> {
    return updateWithRetries(
      node.resource,
      node.namespace,
      node.name,
      (current) => (current.metadata?.uid === node.uid && change(current) ? current : undefined),
      this.manager,
    );
  }
}

function setOwners(obj: ApiObject, refs: OwnerRef[]): void {
  const meta = { ...obj.metadata };
  if (refs.length > 0) meta.ownerReferences = refs;
  else delete meta.ownerReferences;
  obj.metadata = meta;
}
