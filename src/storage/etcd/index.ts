// The etcd backend: the Storage contract on etcd v3 through our own lean client (gRPC over
// node:http2, hand-written codecs for the few etcd messages used). May import storage/ shared
// helpers and machinery/ only.

import { EtcdStorage, type EtcdStorageOptions } from './etcd-storage.ts';

export { EtcdStorage, type EtcdStorageOptions };

export async function openEtcdStorage(opts: EtcdStorageOptions): Promise<EtcdStorage> {
  const store = new EtcdStorage(opts);
  // Fail at open, not at the first request, when etcd cannot be reached.
  try {
    await store.checkReachable();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
