// The collector's calls to the API: read an object's metadata, delete it with preconditions, drop
// owner references from it, unblock them, and remove a finalizer. Writes are JSON merge patches
// that carry the resourceVersion they were computed from (upstream's fallback for types without
// strategic merge patch, which works for every type), so a write made from a stale view fails with
// a conflict and is recomputed from a fresh read. The graph's own view is tried first: when it is
// current, a dependent costs one request, not a read and a write.

import type { ApiClient, ResourceClient } from '../../client/api.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { isConflict, isNotFound, messageOf } from '../controller-support.ts';
import type { GraphNode, OwnerReference } from './graph.ts';
import { ownersOf } from './graph.ts';
import type { ResourceMapping, RestMapper } from './rest-mapper.ts';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** What a decision about an object was made from: its uid, version, owners and finalizers. */
export interface ObjectState {
  uid: string;
  resourceVersion: string;
  owners: readonly OwnerReference[];
  finalizers: readonly string[];
  /** Has a deletionTimestamp. */
  deleting: boolean;
}

/** upstream's retry.DefaultBackoff has four steps: conflicts past them are left to the queue. */
const WRITE_ATTEMPTS = 4;

export function stateOf(obj: ApiObject): ObjectState {
  const meta = obj.metadata;
  return {
    uid: String(meta?.uid ?? ''),
    resourceVersion: String(meta?.resourceVersion ?? ''),
    owners: ownersOf(obj),
    finalizers: Array.isArray(meta?.finalizers) ? meta.finalizers : [],
    deleting: meta?.deletionTimestamp !== undefined && meta.deletionTimestamp !== null,
  };
}

/** A namespaced owner named from a cluster-scoped object: invalid, and no retry will mend it. */
export class NamespacedOwnerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NamespacedOwnerError';
  }
}

export class GcOperations {
  constructor(
    private readonly client: ApiClient,
    private readonly metadata: ApiClient,
    private readonly mapper: () => RestMapper,
    private readonly fieldManager: string,
  ) {}

  mapping(node: GraphNode): ResourceMapping {
    return this.mapper().mapping(node.type.apiVersion, node.type.kind);
  }

  /** The resource of a referenced kind; throws RestMappingError when it is not served. */
  mapperFor(apiVersion: string, kind: string): ResourceMapping {
    return this.mapper().mapping(apiVersion, kind);
  }

  /** An owner's metadata, looked up in its dependent's namespace when its kind is namespaced. */
  getOwner(m: ResourceMapping, namespace: string, name: string): Promise<ApiObject> {
    return this.metadata.resource(m.gvr, m.namespaced ? namespace : undefined).get(name);
  }

  private resourceOf(client: ApiClient, node: GraphNode): ResourceClient {
    const m = this.mapping(node);
    return client.resource(m.gvr, m.namespaced ? node.namespace : undefined);
  }

  /** The object's metadata as the server has it now (rejects with the server's 404 when gone). */
  get(node: GraphNode): Promise<ApiObject> {
    const m = this.mapping(node);
    // Only a cluster-scoped dependent can have named a namespaced owner without a namespace.
    if (m.namespaced && node.namespace === '')
      return Promise.reject(
        new NamespacedOwnerError(`${node} is namespaced but was named without a namespace`),
      );
    return this.metadata.resource(m.gvr, m.namespaced ? node.namespace : undefined).get(node.name);
  }

  /**
   * Deletes the object if it is still the one decided on: same uid and, when `state` is given,
   * same resourceVersion, or a later one with the same owners (upstream's deleteObject). Gone
   * already is success; a changed object rejects with the conflict.
   */
  async delete(node: GraphNode, policy: PropagationPolicy, state?: ObjectState): Promise<void> {
    const rc = this.resourceOf(this.client, node);
    const preconditions: { uid: string; resourceVersion?: string } = { uid: node.uid };
    if (state !== undefined && state.resourceVersion !== '')
      preconditions.resourceVersion = state.resourceVersion;
    try {
      await rc.delete(node.name, { preconditions, propagationPolicy: policy });
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || preconditions.resourceVersion === undefined || state === undefined) throw err;
      let live: ObjectState;
      try {
        live = stateOf(await this.get(node));
      } catch (e) {
        if (isNotFound(e)) return;
        throw err;
      }
      if (live.uid !== node.uid || !sameOwners(live.owners, state.owners)) throw err;
      preconditions.resourceVersion = live.resourceVersion;
    }
    try {
      await rc.delete(node.name, { preconditions, propagationPolicy: policy });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Removes the references to `uids` from the object's ownerReferences. */
  removeOwnerReferences(node: GraphNode, uids: ReadonlySet<string>, state?: ObjectState): Promise<void> {
    return this.patchOwners(node, state, (owners) => {
      const kept = owners.filter((o) => !uids.has(o.uid));
      return kept.length === owners.length ? undefined : kept;
    });
  }

  /** Sets blockOwnerDeletion to false on every reference that blocks. */
  unblockOwnerReferences(node: GraphNode, state?: ObjectState): Promise<void> {
    return this.patchOwners(node, state, (owners) =>
      owners.some((o) => o.blockOwnerDeletion === true)
        ? owners.map((o) => (o.blockOwnerDeletion === true ? { ...o, blockOwnerDeletion: false } : o))
        : undefined,
    );
  }

  /** Removes `finalizer` from the object, re-reading it on conflict (gone is success). */
  async removeFinalizer(node: GraphNode, finalizer: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let state: ObjectState;
      try {
        state = stateOf(await this.get(node));
      } catch (err) {
        if (isNotFound(err)) return;
        throw new Error(
          `cannot finalize owner ${node}, because cannot get it: ${messageOf(err)}. The garbage collector will retry later.`,
        );
      }
      if (state.uid !== node.uid || !state.finalizers.includes(finalizer)) return;
      const rest = state.finalizers.filter((f) => f !== finalizer);
      try {
        await this.patch(node, {
          resourceVersion: state.resourceVersion,
          finalizers: rest.length > 0 ? rest : null,
        });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
        if (attempt >= WRITE_ATTEMPTS)
          throw new Error(
            `updateMaxRetries(${WRITE_ATTEMPTS}) has reached. The garbage collector will retry later for owner ${node}.`,
          );
      }
    }
  }

  /**
   * Writes the owner list `change` makes of the object's (undefined: nothing to do), first from
   * `state` (the graph's view) when given, then from fresh reads while conflicts last.
   */
  private async patchOwners(
    node: GraphNode,
    given: ObjectState | undefined,
    change: (owners: readonly OwnerReference[]) => readonly OwnerReference[] | undefined,
  ): Promise<void> {
    let state = given;
    for (let attempt = 1; ; attempt++) {
      if (state === undefined) {
        try {
          state = stateOf(await this.get(node));
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
        if (state.uid !== node.uid) return;
      }
      const owners = change(state.owners);
      if (owners === undefined) return;
      try {
        await this.patch(node, {
          resourceVersion: state.resourceVersion,
          ownerReferences: owners.length > 0 ? owners : null,
        });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= WRITE_ATTEMPTS) throw err;
        state = undefined;
      }
    }
  }

  private async patch(node: GraphNode, metadata: Record<string, unknown>): Promise<void> {
    await this.resourceOf(this.client, node).patch(
      node.name,
      'merge',
      { metadata },
      { fieldManager: this.fieldManager },
    );
  }
}

function sameOwners(a: readonly OwnerReference[], b: readonly OwnerReference[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
