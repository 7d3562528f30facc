// Test support for the ReplicaSet controller's unit tests: an informer whose cache and events the
// test drives by hand, so a test decides exactly what the controller has "seen" (a Pod created but
// not yet observed, a graceful deletion) independently of what the fake cluster holds.

import type { EventHandler, Lister, ObjectKey, SharedInformer } from '../../client/api.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { keyOf } from '../controller-support.ts';

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export class ManualInformer<T extends ApiObject = ApiObject> implements SharedInformer<T> {
  private readonly items = new Map<ObjectKey, T>();
  private readonly handlers = new Set<EventHandler<T>>();

  readonly lister: Lister<T> = {
    get: (key) => this.items.get(key),
    list: (ns) => [...this.items.values()].filter((o) => ns === undefined || o.metadata?.namespace === ns),
    byIndex: () => [],
    keys: () => [...this.items.keys()],
  };

  /** Puts an object in the cache (frozen, as the informers' objects are shared) and tells the handlers. */
  set(obj: T): T {
    const frozen = deepFreeze(structuredClone(obj));
    const key = keyOf(frozen);
    const old = this.items.get(key);
    this.items.set(key, frozen);
    for (const h of this.handlers) {
      if (old === undefined) h.add?.(frozen, false);
      else h.update?.(old, frozen);
    }
    return frozen;
  }

  remove(obj: T): void {
    const key = keyOf(obj);
    const old = this.items.get(key);
    if (old === undefined) return;
    this.items.delete(key);
    for (const h of this.handlers) h.delete?.(old);
  }

  addEventHandler(handler: EventHandler<T>): { remove(): void } {
    this.handlers.add(handler);
    for (const o of this.items.values()) handler.add?.(o, true);
    return { remove: () => this.handlers.delete(handler) };
  }

  addIndexers(): void {}
  hasSynced(): boolean {
    return true;
  }
  async waitForSync(): Promise<void> {}
  lastSyncResourceVersion(): string {
    return '';
  }
}
