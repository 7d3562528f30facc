// Child process of the informer memory measure (started by informer-memory.ts with --expose-gc):
// a SharedInformerFactory over one namespace's ConfigMaps, and the heap before and after it syncs.
// A process of its own, so nothing else's garbage or caches count; an informer over an empty
// namespace is synced first, so that the connection, the codec and the code paths a first list loads
// are in both figures and only the cached objects are in the difference.

import { clientFromPlatconfig } from '../../src/client/config.ts';
import { SharedInformerFactory } from '../../src/client/informers/factory.ts';
import { CONFIG_MAPS } from '../../src/controllers/controller-support.ts';
import { type NamingProfile, namingProfile } from '../../src/naming/profile.ts';
import { type MemorySample, settledMemory } from './child.ts';

export interface InformerMeasureRequest {
  configPath: string;
  /** Holds the objects to cache. */
  namespace: string;
  /** The warm-up informer's: a few objects at most, cached before and after alike. */
  emptyNamespace: string;
  encoding: 'json' | 'protobuf';
  /** The served profile's media type names (upstream's for a server named by a kubeconfig). */
  naming: 'spec' | 'upstream';
}

export interface InformerMeasureReply {
  before: MemorySample;
  after: MemorySample;
  cached: number;
  syncMs: number;
}

async function measure(req: InformerMeasureRequest): Promise<InformerMeasureReply> {
  const profile: NamingProfile = namingProfile(req.naming);
  const client = clientFromPlatconfig(req.configPath, {
    profile,
    qps: -1,
    ...(req.encoding === 'protobuf' ? { contentType: profile.protobufMediaType } : {}),
  });
  const factory = new SharedInformerFactory(client);
  try {
    const warm = factory.informerFor(CONFIG_MAPS, { namespace: req.emptyNamespace });
    factory.start();
    await warm.waitForSync();
    const before = await settledMemory();
    const t0 = performance.now();
    const informer = factory.informerFor(CONFIG_MAPS, { namespace: req.namespace });
    await informer.waitForSync();
    const syncMs = performance.now() - t0;
    // The watch that follows the list is open too, as in a running controller.
    await new Promise((r) => setTimeout(r, 500));
    const after = await settledMemory();
    return { before, after, cached: informer.lister.list(req.namespace).length, syncMs };
  } finally {
    factory.stop();
    await factory.whenStopped();
    client.close();
  }
}

process.once('message', (req: InformerMeasureRequest) => {
  measure(req).then(
    (reply) => process.send?.({ reply }, () => process.exit(0)),
    (err: Error) => process.send?.({ error: err.stack ?? err.message }, () => process.exit(1)),
  );
});
