// In-server copy, run by src/server/server.ts over the registry's stores until the server starts the
// controller manager instead; the controller built on the client lives beside it in this folder.
// Empties a namespace that is being deleted: every namespaced resource's objects in it are deleted
// (their own finalizers honoured), the namespace's conditions say what still blocks it, and once
// nothing is left its finalizer is released, which lets the namespace go. Re-checks a namespace
// until it is empty, since objects held by finalizers leave on their own schedule.

import type { ApiObject } from '../../machinery/object.ts';
import type { WireWatch } from '../../registry/generic-store.ts';
import { type ControlledResource, codeOf, listMetadata, trackAs } from '../resources.ts';

const RECHECK_MS = 500;
const MAX_RECHECK_MS = 30_000;

interface Condition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** The conditions the deleter maintains, with their all-clear reason and message. */
const CONDITIONS: [type: string, okReason: string, okMessage: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  [
    'NamespaceDeletionGroupVersionParsingFailure',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

const now = () => `${new Date().toISOString().slice(0, 19)}Z`;

export interface NamespaceDeleterOptions {
  /** The finalizer in a namespace's spec.finalizers that this deleter owns. */
  finalizer: string;
  log?: (message: string) => void;
  /** The field manager its writes are recorded under; unset records nothing. */
  manager?: string;
}

export class NamespaceDeleter {
  private readonly namespaces: ControlledResource;
  private readonly content: ControlledResource[];
  private watch: WireWatch | undefined;
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Consecutive failed passes per namespace, for back-off. */
  private readonly failures = new Map<string, number>();
  private working = false;
  private stopped = false;

  constructor(
    resources: readonly ControlledResource[],
    private readonly options: NamespaceDeleterOptions,
  ) {
    const ns = resources.find(
      (r) => r.kind.resource.group === '' && r.kind.resource.resource === 'namespaces',
    );
    if (ns === undefined) throw new Error('the namespace deleter needs the namespaces resource');
    this.namespaces = ns;
    this.content = resources.filter((r) => r.kind.resource.namespaced);
  }

  async start(): Promise<void> {
    const list = await this.namespaces.store.list('');
    for (const ns of list.items) this.consider(ns);
    this.watch = this.namespaces.store.watch('', { revision: Number(list.metadata.resourceVersion) });
    const watch = this.watch;
    void (async () => {
      try {
        for await (const ev of watch)
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.consider(ev.object);
      } catch (err) {
        if (!this.stopped) this.options.log?.(`namespace deleter: watch failed: ${(err as Error).message}`);
      }
    })();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }

  private isMine(ns: ApiObject): boolean {
    const finalizers = (ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    return ns.metadata?.deletionTimestamp !== undefined && finalizers.includes(this.options.finalizer);
  }

  private consider(ns: ApiObject): void {
    if (this.isMine(ns)) this.enqueue(String(ns.metadata?.name));
  }

  private enqueue(name: string): void {
    if (this.stopped) return;
    this.pending.add(name);
    if (!this.working) void this.drain();
  }

  private later(name: string, failed = false): void {
    if (this.stopped || this.timers.has(name)) return;
    const failures = failed ? (this.failures.get(name) ?? 0) + 1 : 0;
    this.failures.set(name, failures);
    const delay = Math.min(RECHECK_MS * 2 ** failures, MAX_RECHECK_MS);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        this.enqueue(name);
      }, delay),
    );
  }

  private async drain(): Promise<void> {
    this.working = true;
    while (this.pending.size > 0 && !this.stopped) {
      const name = this.pending.values().next().value as string;
      this.pending.delete(name);
      try {
        if (await this.attend(name)) this.failures.delete(name);
        else this.later(name);
      } catch (err) {
        this.options.log?.(`namespace deleter: ${name}: ${(err as Error).message}`);
        this.later(name, true);
      }
    }
    this.working = false;
  }

  /** One pass over a namespace; true when it is done (released or no longer ours). */
  private async attend(name: string): Promise<boolean> {
    let ns: ApiObject;
    try {
      ns = await this.namespaces.store.get('', name);
    } catch (err) {
      if (codeOf(err) === 404) return true;
      throw err;
    }
    if (!this.isMine(ns)) return true;

    const failures: string[] = [];
    for (const r of this.content) {
      try {
        await r.store.deleteCollection(name, {});
      } catch (err) {
        failures.push(`${r.kind.resource.resource}: ${(err as Error).message}`);
      }
    }
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const r of this.content) {
      // Only counts and finalizers are read: metadata alone, not whole objects.
      const items = listMetadata(await r.store.list(name));
      if (items.length === 0) continue;
      remaining.set(`${r.kind.resource.resource}.${r.kind.resource.group}`, items.length);
      for (const item of items) {
        for (const f of item.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
    const problems = new Map<string, Condition>();
    if (failures.length > 0) {
      problems.set('NamespaceDeletionContentFailure', {
        type: 'NamespaceDeletionContentFailure',
        status: 'True',
        reason: 'ContentDeletionFailed',
        message: `Failed to delete all resource types, ${failures.length} remaining: ${failures.sort().join(', ')}`,
      });
    }
    if (remaining.size > 0) {
      const items = [...remaining].map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
      problems.set('NamespaceContentRemaining', {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${items.join(', ')}`,
      });
    }
    if (finalizers.size > 0) {
      const items = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
      problems.set('NamespaceFinalizersRemaining', {
        type: 'NamespaceFinalizersRemaining',
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${items.join(', ')}`,
      });
    }
    await this.writeConditions(name, problems);
    if (remaining.size > 0 || failures.length > 0) return false;
    await this.release(name);
    return true;
  }

  /** Brings the deleter's conditions up to date, touching lastTransitionTime only on a status change. */
  private async writeConditions(name: string, problems: Map<string, Condition>): Promise<void> {
    const ns = await this.namespaces.store.get('', name);
    const status = { ...((ns.status as Record<string, unknown> | undefined) ?? {}) };
    const conditions = [...((status.conditions as Condition[] | undefined) ?? [])].map((c) => ({ ...c }));
    let changed = false;
    for (const [type, okReason, okMessage] of CONDITIONS) {
      const wanted = problems.get(type) ?? {
        type,
        status: 'False' as const,
        reason: okReason,
        message: okMessage,
      };
      const old = conditions.find((c) => c.type === type);
      if (old === undefined) {
        conditions.push({ ...wanted, lastTransitionTime: now() });
        changed = true;
      } else if (
        old.status !== wanted.status ||
        old.reason !== wanted.reason ||
        old.message !== wanted.message
      ) {
        if (old.status !== wanted.status) old.lastTransitionTime = now();
        Object.assign(old, { status: wanted.status, reason: wanted.reason, message: wanted.message });
        changed = true;
      }
    }
    if (!changed) return;
    status.conditions = conditions.map(({ type, status: s, lastTransitionTime, reason, message }) => ({
      type,
      status: s,
      lastTransitionTime,
      reason,
      message,
    }));
    await this.namespaces.store.update(
      '',
      name,
      { ...ns, status },
      { subresource: 'status', track: trackAs(this.namespaces, this.options.manager, 'status') },
    );
  }

  /** Drops this deleter's finalizer through the finalize sub-resource; the store then deletes. */
  private async release(name: string): Promise<void> {
    const ns = await this.namespaces.store.get('', name);
    const spec = { ...((ns.spec as Record<string, unknown> | undefined) ?? {}) };
    spec.finalizers = ((spec.finalizers as string[] | undefined) ?? []).filter(
      (f) => f !== this.options.finalizer,
    );
    await this.namespaces.store.update(
      '',
      name,
      { ...ns, spec },
      { subresource: 'finalize', track: trackAs(this.namespaces, this.options.manager, 'finalize') },
    );
  }
}
