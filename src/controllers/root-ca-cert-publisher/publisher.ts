// Publishes the CA bundle ConfigMap (`<prefix>root-ca.crt`, key `ca.crt`, with the description
// annotation) in every namespace, as upstream's root-ca-cert-publisher: a namespace added or
// updated while Active, or the ConfigMap edited or deleted, queues the namespace; its sync creates
// the ConfigMap, or puts back its data and annotation when they differ. Creates refused because the
// namespace is gone or terminating are done; a conflict is retried through the queue.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerObjectNames } from '../../naming/controller-objects.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  CONFIG_MAPS,
  hasStatusCause,
  isNotFound,
  messageOf,
  NAMESPACE_TERMINATING_CAUSE,
  nameOf,
  namespaceOf,
  stringMap,
  waitForInformers,
  watchAll,
} from '../controller-support.ts';

export const CA_CERT_KEY = 'ca.crt';

export interface PublisherOptions {
  client: ApiClient;
  namespaces: SharedInformer;
  configMaps: SharedInformer;
  /** PEM bundle to publish. */
  rootCA: string;
  names: Pick<ControllerObjectNames, 'rootCAConfigMap' | 'descriptionAnnotation' | 'rootCADescription'>;
  log: ControllerLogger;
  clock?: Clock;
}

/** Whether `cm` already says what the publisher would: exactly {ca.crt} and a description. */
export function publishedConfigMapCurrent(
  cm: ApiObject,
  rootCA: string,
  descriptionAnnotation: string,
): boolean {
  const data = cm.data;
  if (data === null || typeof data !== 'object') return false;
  const keys = Object.keys(data);
  if (keys.length !== 1 || (data as Record<string, unknown>)[CA_CERT_KEY] !== rootCA) return false;
  return (stringMap(cm.metadata?.annotations)[descriptionAnnotation] ?? '') !== '';
}

export class RootCACertPublisher {
  readonly queue: RateLimitingQueue<string>;
  private readonly unwatch: () => void;

  constructor(private readonly o: PublisherOptions) {
    this.queue = new RateLimitingQueue<string>({ clock: o.clock, name: 'root_ca_cert_publisher' });
    const ownConfigMap = (cm: ApiObject) => {
      if (nameOf(cm) === o.names.rootCAConfigMap && namespaceOf(cm) !== '') this.queue.add(namespaceOf(cm));
    };
    this.unwatch = watchAll([
      [o.configMaps, { update: (_old, cm) => ownConfigMap(cm), delete: ownConfigMap }],
      [
        o.namespaces,
        {
          add: (ns) => {
            if (nameOf(ns) !== '') this.queue.add(nameOf(ns));
          },
          update: (_old, ns) => {
            if ((ns.status as { phase?: unknown } | undefined)?.phase === 'Active' && nameOf(ns) !== '')
              this.queue.add(nameOf(ns));
          },
        },
      ],
    ]);
  }

  async sync(namespace: string): Promise<void> {
    const { rootCAConfigMap: name, descriptionAnnotation, rootCADescription } = this.o.names;
    const configMaps = this.o.client.resource(CONFIG_MAPS, namespace);
    const cm = this.o.configMaps.lister.get(`${namespace}/${name}`);
    if (cm === undefined) {
      try {
        await configMaps.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace, annotations: { [descriptionAnnotation]: rootCADescription } },
          data: { [CA_CERT_KEY]: this.o.rootCA },
        });
      } catch (err) {
        // No retry for a namespace that is gone or going.
        if (isNotFound(err) || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
        throw err;
      }
      return;
    }
    if (publishedConfigMapCurrent(cm, this.o.rootCA, descriptionAnnotation)) return;
    // The cache's object is shared: write a copy.
    const next = structuredClone(cm);
    const meta = next.metadata ?? {};
    next.metadata = meta;
    meta.annotations = { ...stringMap(meta.annotations), [descriptionAnnotation]: rootCADescription };
    next.data = { [CA_CERT_KEY]: this.o.rootCA };
    await configMaps.update(next);
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.configMaps, this.o.namespaces], signal);
    await runWorkers(this.queue, 1, (ns) => this.sync(ns), signal, {
      onError: (ns, err) =>
        this.o.log.error(`syncing "${ns}" failed`, { namespace: ns, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
