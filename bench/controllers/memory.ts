// The memory half of the controllers scenario, each figure taken in a child process:
// - a SharedInformerFactory over a namespace of N ConfigMaps of 1 KiB: heap used after sync minus
//   before, per object (informer-main.ts), for JSON and protobuf answers;
// - the controller manager (manager-main.ts) running every system controller against the server:
//   its heap and resident memory once it has cached N more ConfigMaps, minus before, per object.
// Both are read against the object's size as the server sends it (JSON, managedFields included).

import type { ApiClient } from '../api/http-client.ts';
import { cmPath } from '../api/jobs.ts';
import { Child, type MemorySample } from './child.ts';
import type { InformerMeasureReply, InformerMeasureRequest } from './informer-main.ts';
import type {
  ManagerMeasureReply,
  ManagerMeasureRequest,
  ManagerReady,
  ManagerStartRequest,
} from './manager-main.ts';

const INFORMER_MAIN = new URL('./informer-main.ts', import.meta.url);
const MANAGER_MAIN = new URL('./manager-main.ts', import.meta.url);

/** Two samples this close (or closer than 1%) count as settled. */
const SETTLED_BYTES = 256 * 1024;

export interface InformerMemory {
  encoding: 'json' | 'protobuf';
  objects: number;
  heapBytesPerObject: number;
  rssBytesPerObject: number;
  syncMs: number;
  before: MemorySample;
  after: MemorySample;
}

export interface ManagerMemory {
  controllers: string[];
  objects: number;
  heapBytesPerObject: number;
  rssBytesPerObject: number;
  /** Whether the last two samples agreed; if not, the figure was still moving when taken. */
  settled: boolean;
  before: MemorySample;
  after: MemorySample;
  /** How long after the last create the manager's cache held every object. */
  catchUpMs: number;
}

export async function measureInformer(req: InformerMeasureRequest, objects: number): Promise<InformerMemory> {
  const child = Child.start(INFORMER_MAIN);
  try {
    const r = await child.ask<InformerMeasureReply>(req);
    // The namespace may also hold what controllers put there (the root CA bundle).
    if (r.cached < objects) throw new Error(`the informer cached ${r.cached} objects, not ${objects}`);
    return {
      encoding: req.encoding,
      objects: r.cached,
      heapBytesPerObject: (r.after.heapUsed - r.before.heapUsed) / r.cached,
      rssBytesPerObject: (r.after.rss - r.before.rss) / r.cached,
      syncMs: r.syncMs,
      before: r.before,
      after: r.after,
    };
  } finally {
    await child.stop();
  }
}

/** The mean size of one object of the namespace as a JSON list sends it. */
export async function wireBytesPerObject(c: ApiClient, namespace: string): Promise<number> {
  const r = await c.request('GET', cmPath(namespace));
  if (r.status !== 200) throw new Error(`list ${namespace}: ${r.status}`);
  const list = JSON.parse(r.body) as { items: unknown[] };
  let bytes = 0;
  for (const item of list.items) bytes += Buffer.byteLength(JSON.stringify(item));
  return bytes / Math.max(1, list.items.length);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ManagerMeasureOptions {
  configPath: string;
  naming: 'spec' | 'upstream';
  /** The namespace the objects go to; it exists and is empty. */
  namespace: string;
  /** The label the objects carry (others in the namespace, such as the root CA bundle, do not count). */
  label: { key: string; value: string };
  objects: number;
  /** Creates the objects while the manager runs. */
  populate: () => Promise<unknown>;
  timeoutMs: number;
  log: (message: string) => void;
}

export async function measureManager(o: ManagerMeasureOptions): Promise<ManagerMemory> {
  const child = Child.start(MANAGER_MAIN);
  try {
    const ready = await child.ask<ManagerReady>({
      configPath: o.configPath,
      naming: o.naming,
    } satisfies ManagerStartRequest);
    const sample = () =>
      child.ask<ManagerMeasureReply>({
        namespace: o.namespace,
        label: o.label,
      } satisfies ManagerMeasureRequest);
    /** Samples a second apart until two agree, or the deadline passes. */
    const settle = async (deadline: number): Promise<{ last: ManagerMeasureReply; settled: boolean }> => {
      let prev = await sample();
      for (;;) {
        await sleep(1000);
        const next = await sample();
        const d = Math.abs(next.memory.heapUsed - prev.memory.heapUsed);
        if (d <= Math.max(SETTLED_BYTES, prev.memory.heapUsed * 0.01)) return { last: next, settled: true };
        if (performance.now() > deadline) return { last: next, settled: false };
        prev = next;
      }
    };
    const before = (await settle(performance.now() + o.timeoutMs)).last;
    o.log(
      `manager: ${Math.round(before.memory.heapUsed / 2 ** 20)} MiB heap before; creating ${o.objects} objects`,
    );
    await o.populate();
    const created = performance.now();
    const deadline = created + o.timeoutMs;
    while ((await sample()).cachedInNamespace < o.objects && performance.now() < deadline) await sleep(200);
    const catchUpMs = performance.now() - created;
    const { last: after, settled } = await settle(deadline);
    if (after.cachedInNamespace !== o.objects)
      throw new Error(`the manager cached ${after.cachedInNamespace} objects, not ${o.objects}`);
    return {
      controllers: ready.controllers,
      objects: o.objects,
      heapBytesPerObject: (after.memory.heapUsed - before.memory.heapUsed) / o.objects,
      rssBytesPerObject: (after.memory.rss - before.memory.rss) / o.objects,
      settled,
      before: before.memory,
      after: after.memory,
      catchUpMs,
    };
  } finally {
    await child.stop();
  }
}
