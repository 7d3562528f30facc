// The controllers scenario's objects and how it makes them fast: 1 KiB ConfigMaps (the API
// scenarios' size), optionally owned by another object, created by many concurrent requests so that
// filling a namespace with 10,000 of them takes seconds, not the minutes one client would.

import type { ApiClient } from '../api/http-client.ts';
import { cmPath } from '../api/jobs.ts';

/** The payload of every ConfigMap: the same 1 KiB as the API scenarios'. */
export const PAYLOAD_BYTES = 1024;
/** Requests in flight while populating. */
const CONCURRENCY = 64;
/** Answers worth another try: the server shedding load, or a retryable server error. */
const RETRYABLE = new Set([429, 500, 503, 504]);
const MAX_ATTEMPTS = 10;

/** The label every object of one run carries, so that a watch or list selects that run's alone. */
export const RUN_LABEL = 'bench-controllers-run';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export function configMapBody(
  name: string,
  run: string,
  owner?: OwnerRef,
  payloadBytes = PAYLOAD_BYTES,
): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      labels: { [RUN_LABEL]: run },
      ...(owner === undefined ? {} : { ownerReferences: [owner] }),
    },
    data: { payload: 'x'.repeat(payloadBytes) },
  });
}

/** Zero-padded, so that names sort as they were made. */
export const objectName = (i: number) => `obj-${String(i).padStart(6, '0')}`;

export async function createNamespace(c: ApiClient, name: string): Promise<void> {
  const r = await c.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name } }));
  if (r.status !== 201) throw new Error(`cannot create namespace ${name}: ${r.status} ${r.body}`);
}

/** Creates one object, retrying what the server asks to retry; answers the created object. */
export async function createObject(
  c: ApiClient,
  path: string,
  body: string,
): Promise<{ metadata: { uid: string } }> {
  for (let attempt = 1; ; attempt++) {
    const r = await c.request('POST', path, body);
    if (r.status === 201) return JSON.parse(r.body) as { metadata: { uid: string } };
    if (!RETRYABLE.has(r.status) || attempt >= MAX_ATTEMPTS)
      throw new Error(`POST ${path}: ${r.status} ${r.body.slice(0, 300)}`);
    await new Promise((res) => setTimeout(res, 50 * attempt));
  }
}

/**
 * `count` ConfigMaps in `namespace`, named objectName(0…count-1), all labelled with the run and
 * owned by `owner` when given; answers the elapsed milliseconds.
 */
export async function populate(
  c: ApiClient,
  namespace: string,
  count: number,
  run: string,
  owner?: OwnerRef,
  payloadBytes = PAYLOAD_BYTES,
): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++)
      await createObject(c, cmPath(namespace), configMapBody(objectName(i), run, owner, payloadBytes));
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, lane));
  return performance.now() - t0;
}

/** The store's revision now, from a one-item list of the namespace's ConfigMaps. */
export async function currentRevision(c: ApiClient, namespace: string): Promise<string> {
  const r = await c.request('GET', `${cmPath(namespace)}?limit=1`);
  if (r.status !== 200) throw new Error(`list ${namespace}: ${r.status} ${r.body.slice(0, 300)}`);
  return (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

/** Whether any ConfigMap of the run is left in the namespace (a one-item list). */
export async function anyLeft(c: ApiClient, namespace: string, run: string): Promise<boolean> {
  const r = await c.request(
    'GET',
    `${cmPath(namespace)}?limit=1&labelSelector=${encodeURIComponent(`${RUN_LABEL}=${run}`)}`,
  );
  if (r.status === 404) return false;
  if (r.status !== 200) throw new Error(`list ${namespace}: ${r.status} ${r.body.slice(0, 300)}`);
  return (JSON.parse(r.body) as { items: unknown[] }).items.length > 0;
}

/**
 * The payload that makes one of the run's ConfigMaps 1 KiB as the server lists it (JSON, with the
 * metadata and managedFields the server adds): measured on one object made in `namespace`.
 */
export async function payloadForKiB(c: ApiClient, namespace: string, run: string): Promise<number> {
  const name = objectName(999_999);
  await createObject(c, cmPath(namespace), configMapBody(name, run));
  const r = await c.request(
    'GET',
    `${cmPath(namespace)}?fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`,
  );
  if (r.status !== 200) throw new Error(`list ${namespace}: ${r.status} ${r.body.slice(0, 300)}`);
  const [item] = (JSON.parse(r.body) as { items: unknown[] }).items;
  const overhead = Buffer.byteLength(JSON.stringify(item)) - PAYLOAD_BYTES;
  return Math.max(0, 1024 - overhead);
}
