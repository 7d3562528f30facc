// Test support: the client/testing fake cluster with the Pod behaviour the agents and the scheduler
// rely on and the generic fake lacks: field selectors on Pod fields (spec.nodeName,
// spec.schedulerName, status.phase), the `binding` subresource (sets spec.nodeName and
// PodScheduled, refuses a Pod already bound), and graceful deletion (a bound, non-terminal Pod gets
// a deletionTimestamp and stays until deleted with gracePeriodSeconds 0). Imported by tests only.

import type {
  ApiClient,
  DeleteOptions,
  GroupVersionResource,
  ListOptions,
  ObjectList,
  PatchOptions,
  PatchType,
  ResourceClient,
  WatchEvent,
  WatchOptions,
  WatchStream,
  WriteOptions,
} from '../client/api.ts';
import { type FakeCluster, objectKeyOf } from '../client/testing/fake-cluster.ts';
import { parseFieldSelector } from '../machinery/fields.ts';
import type { ApiObject } from '../machinery/object.ts';
import { conflict, notFound, type Status } from '../machinery/status.ts';
import { keyOf, PODS, type Pod, rfc3339 } from './objects.ts';

function podFields(obj: ApiObject): Record<string, string> {
  const p = obj as Pod;
  return {
    'metadata.name': p.metadata?.name ?? '',
    'metadata.namespace': p.metadata?.namespace ?? '',
    'spec.nodeName': p.spec?.nodeName ?? '',
    'spec.schedulerName': p.spec?.schedulerName ?? '',
    'spec.restartPolicy': p.spec?.restartPolicy ?? '',
    'status.phase': p.status?.phase ?? '',
  };
}

class PodClient<T extends ApiObject> implements ResourceClient<T> {
  readonly resource: GroupVersionResource = PODS;

  constructor(
    private readonly cluster: FakeCluster,
    private readonly inner: ResourceClient<T>,
  ) {}

  get namespace(): string | undefined {
    return this.inner.namespace;
  }

  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return new PodClient<T>(this.cluster, this.inner.inNamespace(namespace));
  }

  get(name: string, opts?: { resourceVersion?: string; subresource?: string }): Promise<T> {
    return this.inner.get(name, opts);
  }

  async list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    const fields = parseFieldSelector(opts.fieldSelector ?? '');
    const list = await this.inner.list({ ...opts, fieldSelector: undefined });
    return { ...list, items: list.items.filter((o) => fields.matches(podFields(o))) };
  }

  async watch(opts: WatchOptions = {}): Promise<WatchStream<T>> {
    const fields = parseFieldSelector(opts.fieldSelector ?? '');
    const match = (o: ApiObject) => fields.matches(podFields(o));
    const matched = new Set<string>();
    const rv = opts.resourceVersion ?? '';
    if (opts.sendInitialEvents !== true && rv !== '' && rv !== '0') {
      for (const [key, o] of this.cluster.store(PODS).snapshot(Number(rv))) if (match(o)) matched.add(key);
    }
    const inner = await this.inner.watch({ ...opts, fieldSelector: undefined });
    async function* filtered(): AsyncGenerator<WatchEvent<T>> {
      for await (const ev of inner) {
        if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') {
          yield ev;
          continue;
        }
        const key = objectKeyOf(ev.object);
        const was = matched.has(key);
        const is = ev.type !== 'DELETED' && match(ev.object);
        if (is) matched.add(key);
        else matched.delete(key);
        if (is) yield { type: was ? 'MODIFIED' : 'ADDED', object: ev.object };
        else if (was) yield { type: 'DELETED', object: ev.object };
      }
    }
    const it = filtered();
    return {
      stop: () => inner.stop(),
      [Symbol.asyncIterator]: () => it,
    };
  }

  async create(obj: T, opts?: WriteOptions): Promise<T> {
    if (opts?.subresource !== 'binding') return this.inner.create(obj, opts);
    const name = opts.name ?? obj.metadata?.name ?? '';
    const ns = this.inner.namespace ?? obj.metadata?.namespace ?? '';
    await this.cluster.enter({ verb: 'create', resource: PODS, namespace: ns, name, opts: { ...opts } });
    const store = this.cluster.store(PODS);
    const cur = store.get(`${ns}/${name}`) as Pod | undefined;
    if (cur === undefined) throw notFound(PODS, name);
    const uid = obj.metadata?.uid;
    if (uid && uid !== cur.metadata?.uid) throw conflict(PODS, name, 'Precondition failed: UID mismatch');
    if (cur.spec?.nodeName)
      throw conflict(PODS, name, `pod ${name} is already assigned to node "${cur.spec.nodeName}"`);
    const target = (obj as { target?: { name?: string } }).target?.name ?? '';
    const conditions = (cur.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({
      type: 'PodScheduled',
      status: 'True',
      lastTransitionTime: rfc3339(this.cluster.clock.now()),
    });
    const bound: Pod = {
      ...structuredClone(cur),
      spec: { ...cur.spec, nodeName: target },
      status: { ...cur.status, conditions },
    };
    this.cluster.publish(PODS, store.write('MODIFIED', `${ns}/${name}`, bound));
    return this.cluster.out(obj);
  }

  update(obj: T, opts?: WriteOptions): Promise<T> {
    return this.inner.update(obj, opts);
  }

  async patch(name: string, type: PatchType, body: unknown, opts?: PatchOptions): Promise<T> {
    const uid = (body as ApiObject | undefined)?.metadata?.uid;
    if (typeof uid === 'string') {
      const cur = await this.inner.get(name);
      if (cur.metadata?.uid !== uid) throw conflict(PODS, name, 'Precondition failed: UID mismatch');
    }
    return this.inner.patch(name, type, body, opts);
  }

  apply(obj: T, opts: PatchOptions & { fieldManager: string }): Promise<T> {
    return this.inner.apply(obj, opts);
  }

  async delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    const ns = this.inner.namespace ?? '';
    const store = this.cluster.store(PODS);
    const cur = store.get(`${ns}/${name}`) as Pod | undefined;
    const terminal = cur?.status?.phase === 'Succeeded' || cur?.status?.phase === 'Failed';
    const grace = opts.gracePeriodSeconds ?? cur?.spec?.terminationGracePeriodSeconds ?? 30;
    if (cur === undefined || grace === 0 || !cur.spec?.nodeName || terminal || opts.dryRun)
      return this.inner.delete(name, opts);
    if (opts.preconditions?.uid !== undefined && opts.preconditions.uid !== cur.metadata?.uid)
      return this.inner.delete(name, opts);
    if (cur.metadata?.deletionTimestamp) return this.cluster.out(cur);
    const marked: Pod = {
      ...structuredClone(cur),
      metadata: {
        ...cur.metadata,
        deletionTimestamp: rfc3339(this.cluster.clock.now() + grace * 1000),
        deletionGracePeriodSeconds: grace,
      },
    };
    const c = store.write('MODIFIED', keyOf(marked), marked);
    this.cluster.publish(PODS, c);
    return this.cluster.out(c.obj);
  }

  deleteCollection(opts?: ListOptions & DeleteOptions): Promise<ObjectList<T> | Status> {
    return this.inner.deleteCollection(opts);
  }
}

/** The fake cluster's clients, with Pods served as the agents and the scheduler expect. */
export class FakePodCluster implements ApiClient {
  constructor(readonly cluster: FakeCluster) {}

  resource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    namespace?: string,
  ): ResourceClient<T> {
    const inner = this.cluster.resource<T>(gvr, namespace);
    if (gvr.group === '' && gvr.resource === PODS.resource) return new PodClient<T>(this.cluster, inner);
    return inner;
  }
}
