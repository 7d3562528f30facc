// The shared informer factory: one informer per resource and options (namespace, selectors) for the
// whole process, however many controllers ask, each started once; start, waitForSync and stop act
// on all of them, as client-go's SharedInformerFactory does.

import type { ApiObject } from '../../machinery/object.ts';
import type {
  ApiClient,
  Clock,
  GroupVersionResource,
  InformerFactory,
  InformerOptions,
  SharedInformer,
} from '../api.ts';
import { SharedIndexInformer, type SharedIndexInformerOptions } from './shared-informer.ts';

export interface SharedInformerFactoryOptions {
  /** Default handler resync of every informer (ms, 0 = none); see resyncPeriodFromMin. */
  defaultResyncMs?: number;
  /** Per resource (`<resource>.<group>`, or `<resource>` for the core group), overriding the default. */
  customResyncMs?: Record<string, number>;
  clock?: Clock;
  onError?(err: unknown, gvr: GroupVersionResource): void;
  reflector?: SharedIndexInformerOptions<ApiObject>['reflector'];
}

function informerKey(gvr: GroupVersionResource, o: InformerOptions): string {
  return JSON.stringify([
    gvr.group,
    gvr.version,
    gvr.resource,
    o.namespace ?? '',
    o.labelSelector ?? '',
    o.fieldSelector ?? '',
  ]);
}

export class SharedInformerFactory implements InformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<ApiObject>>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly client: ApiClient,
    private readonly opts: SharedInformerFactoryOptions = {},
  ) {}

  forResource<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    o: InformerOptions = {},
  ): SharedInformer<T> {
    return this.informerFor<T>(gvr, o);
  }

  /** As forResource, with the concrete type (for whenStopped, handler hasSynced and the like). */
  informerFor<T extends ApiObject = ApiObject>(
    gvr: GroupVersionResource,
    o: InformerOptions = {},
  ): SharedIndexInformer<T> {
    const key = informerKey(gvr, o);
    let inf = this.informers.get(key);
    if (inf === undefined) {
      const grName = gvr.group ? `${gvr.resource}.${gvr.group}` : gvr.resource;
      inf = new SharedIndexInformer<ApiObject>(this.client.resource(gvr, o.namespace), {
        labelSelector: o.labelSelector,
        fieldSelector: o.fieldSelector,
        resyncPeriodMs: this.opts.customResyncMs?.[grName] ?? this.opts.defaultResyncMs ?? 0,
        clock: this.opts.clock,
        onError: (err) => this.opts.onError?.(err, gvr),
        reflector: this.opts.reflector,
      });
      this.informers.set(key, inf);
      if (this.stopped) inf.stop();
      else if (this.started) inf.start();
    }
    return inf as unknown as SharedIndexInformer<T>;
  }

  start(): void {
    if (this.stopped) return;
    this.started = true;
    for (const inf of this.informers.values()) if (!inf.hasStarted()) inf.start();
  }

  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all(
      [...this.informers.values()].filter((i) => i.hasStarted()).map((i) => i.waitForSync(signal)),
    );
  }

  stop(): void {
    this.stopped = true;
    for (const inf of this.informers.values()) inf.stop();
  }

  /** Resolves once every informer's reflector has returned (after stop()). */
  async whenStopped(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.whenStopped()));
  }
}
