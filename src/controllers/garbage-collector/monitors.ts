// The collector's watches: one reflector per deletable resource (metadata only), whose sink is the
// graph itself. Upstream feeds its graph from informers; here no informer cache stands between the
// watch and the graph, so each object costs one graph node and nothing else. Which resources are
// watched follows discovery: sync() starts reflectors for new resources (custom resources come and
// go) and stops those of resources no longer served, keeping the watches of group versions that
// discovery failed to read this time.

import type { ApiClient } from '../../client/api.ts';
import type { DiscoveredResource } from '../../client/discovery.ts';
import { Reflector, type ReflectorSink } from '../../client/informers/reflector.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { NodeType } from './graph.ts';
import type { GraphBuilder } from './graph-builder.ts';

interface Monitor {
  resource: DiscoveredResource;
  type: NodeType;
  stop: AbortController;
  synced: boolean;
  done: Promise<void>;
}

const keyOf = (r: { group: string; resource: string }) => `${r.resource}.${r.group}`;
const gvOf = (r: { group: string; version: string }) =>
  r.group === '' ? r.version : `${r.group}/${r.version}`;

export class GraphMonitors {
  private readonly monitors = new Map<string, Monitor>();
  private syncWaiters: (() => void)[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly graph: GraphBuilder,
    private readonly onError: (resource: string, err: unknown) => void,
  ) {}

  /**
   * Watches exactly `resources` (plus, for group versions in `failed`, what was watched before).
   * Answers whether anything changed.
   */
  sync(resources: readonly DiscoveredResource[], failed: Record<string, string>): boolean {
    const wanted = new Map(resources.map((r) => [keyOf(r), r]));
    let changed = false;
    for (const [key, m] of this.monitors) {
      const next = wanted.get(key);
      const keep = next === undefined ? gvOf(m.resource) in failed : next.version === m.resource.version;
      if (keep) continue;
      m.stop.abort();
      this.monitors.delete(key);
      changed = true;
    }
    for (const [key, r] of wanted) {
      if (this.monitors.has(key)) continue;
      this.start(key, r);
      changed = true;
    }
    if (changed) this.wake();
    return changed;
  }

  /** Whether every watched resource has had its first list. */
  isSynced(): boolean {
    for (const m of this.monitors.values()) if (!m.synced) return false;
    return true;
  }

  /** Resolves once isSynced() holds, or `signal` aborts. */
  whenSynced(signal: AbortSignal): Promise<void> {
    if (this.isSynced() || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.syncWaiters.push(done);
    });
  }

  /** Resources being watched, as `resource.group`. */
  watched(): string[] {
    return [...this.monitors.keys()].sort();
  }

  async stop(): Promise<void> {
    const all = [...this.monitors.values()];
    this.monitors.clear();
    for (const m of all) m.stop.abort();
    await Promise.all(all.map((m) => m.done));
    this.wake();
  }

  private start(key: string, r: DiscoveredResource): void {
    const apiVersion = gvOf(r);
    const type = this.graph.types.get(apiVersion, r.kind);
    const stop = new AbortController();
    const graph = this.graph;
    const m: Monitor = { resource: r, type, stop, synced: false, done: Promise.resolve() };
    const sink: ReflectorSink<ApiObject> = {
      replace: (items) => {
        graph.replace(type, items);
        if (!m.synced) {
          m.synced = true;
          this.wake();
        }
      },
      add: (obj) => graph.observe(type, obj),
      update: (obj) => graph.observe(type, obj),
      delete: (obj) => graph.observeDeleted(obj),
    };
    const reflector = new Reflector<ApiObject>(
      this.client.resource({ group: r.group, version: r.version, resource: r.resource }),
      sink,
      { onError: (err) => this.onError(key, err) },
    );
    m.done = reflector.run(stop.signal);
    this.monitors.set(key, m);
  }

  private wake(): void {
    if (!this.isSynced()) return;
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w();
  }
}
