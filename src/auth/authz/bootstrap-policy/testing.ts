// An in-memory PolicyStore for tests: resourceVersions that change only on a write, 404 and 409 as
// the registry reports them, and a count of writes.

import type { ApiObject } from '../../../machinery/object.ts';
import type { PolicyStore, PolicyStores } from './reconcile.ts';

export class MemoryPolicyStore implements PolicyStore {
  readonly objects = new Map<string, ApiObject>();
  writes = 0;
  private revision = 0;
  /** Runs once before the next patch's change, to simulate a concurrent writer. */
  beforeNextPatch?: () => void;

  constructor(private readonly counter: { rv: number } = { rv: 0 }) {}

  private key(ns: string, name: string) {
    return `${ns}/${name}`;
  }

  private stamp(obj: ApiObject): ApiObject {
    this.counter.rv++;
    this.revision = this.counter.rv;
    obj.metadata = { ...obj.metadata, resourceVersion: String(this.revision) };
    return obj;
  }

  async get(ns: string, name: string): Promise<ApiObject> {
    const o = this.objects.get(this.key(ns, name));
    if (o === undefined) throw Object.assign(new Error(`${name} not found`), { code: 404 });
    return structuredClone(o);
  }

  async create(ns: string, obj: ApiObject): Promise<ApiObject> {
    const name = obj.metadata?.name as string;
    if (this.objects.has(this.key(ns, name))) throw Object.assign(new Error('exists'), { code: 409 });
    this.writes++;
    const stored = this.stamp(structuredClone(obj));
    this.objects.set(this.key(ns, name), stored);
    return structuredClone(stored);
  }

  async patch(ns: string, name: string, change: (current: ApiObject) => ApiObject): Promise<ApiObject> {
    for (;;) {
      const before = await this.get(ns, name);
      const hook = this.beforeNextPatch;
      this.beforeNextPatch = undefined;
      hook?.();
      const next = change(structuredClone(before));
      const now = this.objects.get(this.key(ns, name));
      // Optimistic concurrency: a write in between makes the change run again on the new object.
      if (now?.metadata?.resourceVersion !== before.metadata?.resourceVersion) continue;
      if (JSON.stringify(next) === JSON.stringify(before)) return before;
      this.writes++;
      const stored = this.stamp(structuredClone(next));
      this.objects.set(this.key(ns, name), stored);
      return structuredClone(stored);
    }
  }

  async delete(ns: string, name: string): Promise<unknown> {
    const o = await this.get(ns, name);
    this.writes++;
    this.objects.delete(this.key(ns, name));
    return o;
  }

  /** Writes directly, as a user's update through the API would. */
  put(ns: string, obj: ApiObject): void {
    this.stamp(obj);
    this.objects.set(this.key(ns, obj.metadata?.name as string), structuredClone(obj));
  }
}

export interface MemoryPolicyStores extends PolicyStores {
  clusterroles: MemoryPolicyStore;
  clusterrolebindings: MemoryPolicyStore;
  roles: MemoryPolicyStore;
  rolebindings: MemoryPolicyStore;
  all: MemoryPolicyStore[];
}

export function memoryPolicyStores(): MemoryPolicyStores {
  const counter = { rv: 0 };
  const s = {
    clusterroles: new MemoryPolicyStore(counter),
    clusterrolebindings: new MemoryPolicyStore(counter),
    roles: new MemoryPolicyStore(counter),
    rolebindings: new MemoryPolicyStore(counter),
  };
  return { ...s, all: Object.values(s) };
}
