// Empties one terminating namespace, as upstream's namespacedResourcesDeleter: the namespace is
// read afresh and marked Terminating if it is not yet; then, for every namespaced resource that
// discovery reports (preferred versions, deletable), its objects in the namespace are deleted as a
// collection (or one by one when the resource has no deletecollection) with background propagation,
// and listed again (metadata only) to count what remains and which finalizers hold it. The
// namespace's conditions are brought up to date. Content held by finalizers, or pods still within
// their grace period, answer ResourcesRemainingError with an estimate of the seconds left; once
// nothing remains, this controller's finalizer is removed through the finalize subresource.

import type { ApiClient, GroupVersionResource } from '../../client/api.ts';
import type { DiscoveredResource } from '../../client/discovery.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ResourceDiscovery } from '../controller.ts';
import { isConflict, isNotFound, messageOf, NAMESPACES, PODS, statusCode } from '../controller-support.ts';
import { ConditionUpdater, conditionTime, type NamespaceCondition } from './conditions.ts';

/** Upstream's estimate for content held by finalizers (the garbage collector's time to act). */
export const FINALIZER_ESTIMATE_SECONDS = 15;

export class ResourcesRemainingError extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
    this.name = 'ResourcesRemainingError';
  }
}

export interface NamespacedResourcesDeleterOptions {
  /** Namespaces (get, status, finalize) and pods (their grace periods) are read whole through it. */
  client: ApiClient;
  /** Content is listed and deleted through it. */
  metadataClient: ApiClient;
  discovery: ResourceDiscovery;
  /** The finalizer in spec.finalizers this controller removes. */
  finalizer: string;
  fieldManager: string;
  now?: () => number;
}

interface GvrResult {
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
}

const isMethodNotSupported = (err: unknown) => statusCode(err) === 405;
const gvrText = (g: GroupVersionResource) => `${g.group}/${g.version}, Resource=${g.resource}`;

export class NamespacedResourcesDeleter {
  /** Resources found not to support list or deletecollection (upstream's opCache). */
  private readonly unsupported = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly o: NamespacedResourcesDeleterOptions) {
    this.now = o.now ?? Date.now;
  }

  private get namespaces() {
    return this.o.client.resource(NAMESPACES);
  }

  /** One pass; throws ResourcesRemainingError while content remains, other errors to be retried. */
  async delete(name: string): Promise<void> {
    let ns: ApiObject;
    try {
      ns = await this.namespaces.get(name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!deleting(ns)) return;
    try {
      ns = await this.retryOnConflict(ns, (n) => this.markTerminating(n));
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!deleting(ns) || finalizersOf(ns).length === 0) return;
    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    try {
      await this.retryOnConflict(ns, (n) => this.finalize(n));
    } catch (err) {
      // Another controller sharing the finalizer may have finished first.
      if (!isNotFound(err)) throw err;
    }
  }

  private async retryOnConflict(ns: ApiObject, fn: (n: ApiObject) => Promise<ApiObject>): Promise<ApiObject> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
      const prev = latest;
      latest = await this.namespaces.get(String(ns.metadata?.name));
      if (prev.metadata?.uid !== latest.metadata?.uid)
        throw new Error('namespace uid has changed across retries');
    }
  }

  private async markTerminating(ns: ApiObject): Promise<ApiObject> {
    const status = (ns.status ?? {}) as Record<string, unknown>;
    if (!deleting(ns) || status.phase === 'Terminating') return ns;
    return this.namespaces.update(
      { ...ns, status: { ...status, phase: 'Terminating' } },
      { subresource: 'status', fieldManager: this.o.fieldManager },
    );
  }

  private async finalize(ns: ApiObject): Promise<ApiObject> {
    const rest = [...new Set(finalizersOf(ns).filter((f) => f !== this.o.finalizer))].sort();
    try {
      return await this.namespaces.update(
        { ...ns, spec: { ...((ns.spec ?? {}) as Record<string, unknown>), finalizers: rest } },
        { subresource: 'finalize', fieldManager: this.o.fieldManager },
      );
    } catch (err) {
      if (isNotFound(err)) return ns;
      throw err;
    }
  }

  /** Deletes what is left in the namespace; answers the estimate of seconds until it is gone. */
  private async deleteAllContent(ns: ApiObject): Promise<number> {
    const name = String(ns.metadata?.name);
    const deletedAt = Date.parse(String(ns.metadata?.deletionTimestamp));
    const conditions = new ConditionUpdater(conditionTime(this.now()));
    const errors: string[] = [];
    let resources: DiscoveredResource[] = [];
    try {
      this.o.discovery.refresh();
      const found = await this.o.discovery.all();
      resources = found.resources;
      const failed = Object.keys(found.failed);
      if (failed.length > 0) {
        const list = failed.map((gv) => `${gv}: ${found.failed[gv]}`).sort();
        errors.push(`unable to retrieve the complete list of server APIs: ${list.join(', ')}`);
        conditions.discoveryFailed('', found.failed);
      }
    } catch (err) {
      // Discovery errors are not fatal: whatever was found is still emptied.
      errors.push(messageOf(err));
      conditions.discoveryFailed(messageOf(err));
    }
    const deletable = resources.filter((r) => r.preferred && r.namespaced && r.verbs.includes('delete'));
    // A group version that does not parse (upstream's GroupVersionResources failure) is skipped.
    const unparsable = [...new Set(deletable.filter((r) => !parsable(r)).map(gvOf))].sort();
    if (unparsable.length > 0) {
      const message = unparsable.map((gv) => `unexpected GroupVersion string: ${gv}`).join(', ');
      errors.push(message);
      conditions.groupVersionParsingFailed(message);
    }
    let estimate = 0;
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const r of deletable) {
      if (!parsable(r)) continue;
      const gvr = { group: r.group, version: r.version, resource: r.resource };
      let result: GvrResult;
      try {
        result = await this.deleteAllContentFor(gvr, r.verbs, name, deletedAt);
      } catch (err) {
        const message = messageOf(err);
        errors.push(message);
        conditions.deleteContentFailed(message);
        result = (err as { partial?: GvrResult }).partial ?? {
          estimate: 0,
          remaining: 0,
          finalizers: new Map(),
        };
      }
      estimate = Math.max(estimate, result.estimate);
      if (result.remaining > 0) {
        remaining.set(`${r.resource}.${r.group}`, result.remaining);
        for (const [f, n] of result.finalizers) finalizers.set(f, (finalizers.get(f) ?? 0) + n);
      }
    }
    conditions.contentTotals(remaining, finalizers);
    const list = [
      ...((ns.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions ?? []),
    ].map((c) => ({ ...c }));
    if (conditions.update(list)) {
      try {
        await this.namespaces.update(
          { ...ns, status: { ...((ns.status ?? {}) as Record<string, unknown>), conditions: list } },
          { subresource: 'status', fieldManager: this.o.fieldManager },
        );
      } catch {
        // As upstream: a failed condition update is not the pass's failure; the next pass writes them.
      }
    }
    if (errors.length > 0) throw new Error(errors.join('; '));
    return estimate;
  }

  private async deleteAllContentFor(
    gvr: GroupVersionResource,
    verbs: readonly string[],
    namespace: string,
    deletedAt: number,
  ): Promise<GvrResult> {
    const none = { estimate: 0, remaining: 0, finalizers: new Map<string, number>() };
    const estimate =
      gvr.group === '' && gvr.resource === 'pods' ? await this.podEstimate(namespace, deletedAt) : 0;
    const rc = this.o.metadataClient.resource(gvr, namespace);
    const key = `${gvr.resource}.${gvr.group}`;
    let collectionDeleted = false;
    if (verbs.includes('deletecollection') && !this.unsupported.has(`deletecollection ${key}`)) {
      try {
        await rc.deleteCollection({ propagationPolicy: 'Background' });
        collectionDeleted = true;
      } catch (err) {
        if (!isMethodNotSupported(err) && !isNotFound(err)) throw withPartial(err, { ...none, estimate });
        this.unsupported.add(`deletecollection ${key}`);
      }
    }
    const canList = verbs.includes('list') && !this.unsupported.has(`list ${key}`);
    if (!collectionDeleted && canList) {
      const items = await this.list(rc, key);
      for (const item of items ?? []) {
        try {
          await rc.delete(String(item.metadata?.name), { propagationPolicy: 'Background' });
        } catch (err) {
          if (!isNotFound(err) && !isMethodNotSupported(err)) throw withPartial(err, { ...none, estimate });
        }
      }
    }
    if (!canList) return { ...none, estimate };
    const items = await this.list(rc, key);
    if (items === undefined) return { ...none, estimate };
    const finalizers = new Map<string, number>();
    for (const item of items)
      for (const f of item.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    const result = { estimate, remaining: items.length, finalizers };
    if (estimate > 0 || items.length === 0) return result;
    // Content held by finalizers is normal: give the garbage collector time.
    if (finalizers.size > 0) return { ...result, estimate: FINALIZER_ESTIMATE_SECONDS };
    throw withPartial(
      new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrText(gvr)}`),
      result,
    );
  }

  /** The objects left (metadata only), or undefined when the resource cannot be listed. */
  private async list(rc: ReturnType<ApiClient['resource']>, key: string): Promise<ApiObject[] | undefined> {
    try {
      return (await rc.list()).items;
    } catch (err) {
      if (!isMethodNotSupported(err) && !isNotFound(err)) throw err;
      this.unsupported.add(`list ${key}`);
      return undefined;
    }
  }

  /** Seconds until the namespace's running pods are past their grace period (0 once they are). */
  private async podEstimate(namespace: string, deletedAt: number): Promise<number> {
    const pods = await this.o.client.resource(PODS, namespace).list();
    let estimate = 0;
    for (const pod of pods.items ?? []) {
      const phase = (pod.status as { phase?: unknown } | undefined)?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = (pod.spec as { terminationGracePeriodSeconds?: unknown } | undefined)
        ?.terminationGracePeriodSeconds;
      if (typeof grace === 'number' && grace > estimate) estimate = grace;
    }
    if (Number.isFinite(deletedAt) && this.now() - deletedAt >= estimate * 1000) return 0;
    return estimate;
  }
}

const gvOf = (r: DiscoveredResource) => (r.group === '' ? r.version : `${r.group}/${r.version}`);

/** Whether the resource's group version reads as one (a group without '/', a non-empty version). */
function parsable(r: DiscoveredResource): boolean {
  return r.version !== '' && !r.version.includes('/') && !r.group.includes('/') && r.resource !== '';
}

function deleting(ns: ApiObject): boolean {
  const ts = ns.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null && ts !== '';
}

function finalizersOf(ns: ApiObject): string[] {
  const f = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** An error carrying what was learnt of the resource before it, for the conditions. */
function withPartial(err: unknown, partial: GvrResult): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  (e as Error & { partial?: GvrResult }).partial = partial;
  return e;
}
