// A fresh namespace per run, so runs and scenarios never see each other's objects.

import { apiClient, type Protocol } from './http-client.ts';
import type { Endpoint } from './target.ts';

export async function freshNamespace(e: Endpoint, protocol: Protocol, name: string): Promise<string> {
  const ns = `bench-${name}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
  const c = apiClient(e, protocol);
  try {
    const r = await c.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
    if (r.status !== 201) throw new Error(`cannot create namespace ${ns}: ${r.status} ${r.body}`);
  } finally {
    c.close();
  }
  return ns;
}
