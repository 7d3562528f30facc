// The two timed cases of the controllers scenario, each on a namespace of its own:
// - owner: an owner ConfigMap with `count` dependents (ownerReferences to it), deleted with
//   propagationPolicy Background; timed until the garbage collector has deleted every dependent;
// - namespace: a namespace holding `count` ConfigMaps, deleted; timed until it is empty and until it
//   is gone (the namespace controller empties it, then removes its finalizer).
// The clock starts just before the DELETE is sent; population is timed too, but apart.

import os from 'node:os';
import type { ApiClient } from '../api/http-client.ts';
import { cmPath } from '../api/jobs.ts';
import { DeletionWatch, waitForDeletions } from './deletions.ts';
import {
  anyLeft,
  configMapBody,
  createNamespace,
  createObject,
  currentRevision,
  populate,
  RUN_LABEL,
} from './objects.ts';

export interface CaseResult {
  objects: number;
  populateMs: number;
  /** Until the last object was seen deleted; undefined when the wait timed out. */
  emptiedMs?: number;
  /** Namespace case: until the namespace itself was deleted. */
  goneMs?: number;
  /** Objects seen deleted when the wait ended (all of them unless it timed out). */
  deleted: number;
  /**
   * CPU (user and system) this process used from the DELETE to the end of the wait: with our
   * control plane, the API server's and the controllers' work, which other load on the machine
   * stretches in time but does not add to.
   */
  cpuMs: number;
  /** The 1-minute load average when the wait ended: how busy the machine was meanwhile. */
  load: number;
}

export interface CaseOptions {
  count: number;
  timeoutMs: number;
  log: (message: string) => void;
}

let sequence = 0;
function runId(kind: string): string {
  sequence++;
  return `bench-ctl-${kind}-${Date.now().toString(36)}-${sequence}`;
}

const selector = (run: string) => `${RUN_LABEL}=${run}`;

/** CPU milliseconds this process has used. */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function namespaceGone(c: ApiClient, ns: string): Promise<boolean> {
  const r = await c.request('GET', `/api/v1/namespaces/${ns}`);
  return r.status === 404;
}

async function deleteOrFail(c: ApiClient, path: string, body?: string): Promise<void> {
  const r = await c.request('DELETE', path, body);
  if (r.status !== 200 && r.status !== 202) throw new Error(`DELETE ${path}: ${r.status} ${r.body}`);
}

/** Deletes a namespace and waits (untimed) until it is gone, so that one case never slows the next. */
export async function removeNamespace(c: ApiClient, ns: string, timeoutMs: number): Promise<boolean> {
  const r = await c.request('DELETE', `/api/v1/namespaces/${ns}`);
  if (r.status === 404) return true;
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await namespaceGone(c, ns)) return true;
    await new Promise((res) => setTimeout(res, 250));
  }
  return false;
}

export async function runOwnerCase(c: ApiClient, o: CaseOptions): Promise<CaseResult> {
  const run = runId('gc');
  const ns = run;
  await createNamespace(c, ns);
  try {
    // The owner is not labelled as the run, so the watch counts dependents only.
    const owner = await createObject(c, cmPath(ns), configMapBody('owner', `${run}-owner`));
    const populateMs = await populate(c, ns, o.count, run, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: owner.metadata.uid,
    });
    o.log(`owner case: ${o.count} dependents in ${(populateMs / 1000).toFixed(1)} s; deleting the owner`);
    const rv = await currentRevision(c, ns);
    const watch = new DeletionWatch(c, {
      path: cmPath(ns),
      resourceVersion: rv,
      labelSelector: selector(run),
      expected: o.count,
    });
    try {
      const cpu0 = cpuNow();
      const t0 = performance.now();
      await deleteOrFail(
        c,
        cmPath(ns, 'owner'),
        JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' }),
      );
      const done = await waitForDeletions(watch, {
        timeoutMs: o.timeoutMs,
        gone: async () => !(await anyLeft(c, ns, run)),
        progress: (n) => o.log(`owner case: ${n} of ${o.count} dependents deleted`),
      });
      return {
        objects: o.count,
        populateMs,
        ...(done === undefined ? {} : { emptiedMs: done - t0 }),
        deleted: done === undefined ? watch.deleted : o.count,
        cpuMs: cpuNow() - cpu0,
        load: os.loadavg()[0],
      };
    } finally {
      await watch.close();
    }
  } finally {
    // Whatever the collector left is the namespace controller's to clear, before the next case.
    if (!(await removeNamespace(c, ns, o.timeoutMs))) o.log(`namespace ${ns} still there after cleanup`);
  }
}

export async function runNamespaceCase(c: ApiClient, o: CaseOptions): Promise<CaseResult> {
  const run = runId('ns');
  const ns = run;
  await createNamespace(c, ns);
  const populateMs = await populate(c, ns, o.count, run);
  o.log(`namespace case: ${o.count} objects in ${(populateMs / 1000).toFixed(1)} s; deleting the namespace`);
  const rv = await currentRevision(c, ns);
  const objects = new DeletionWatch(c, {
    path: cmPath(ns),
    resourceVersion: rv,
    labelSelector: selector(run),
    expected: o.count,
  });
  const namespace = new DeletionWatch(c, {
    path: '/api/v1/namespaces',
    resourceVersion: rv,
    fieldSelector: `metadata.name=${ns}`,
    expected: 1,
  });
  try {
    const cpu0 = cpuNow();
    const t0 = performance.now();
    await deleteOrFail(c, `/api/v1/namespaces/${ns}`);
    const emptied = await waitForDeletions(objects, {
      timeoutMs: o.timeoutMs,
      gone: async () => !(await anyLeft(c, ns, run)),
      progress: (n) => o.log(`namespace case: ${n} of ${o.count} objects deleted`),
    });
    const remaining = Math.max(0, o.timeoutMs - (performance.now() - t0));
    const gone = await waitForDeletions(namespace, {
      timeoutMs: remaining,
      gone: () => namespaceGone(c, ns),
    });
    return {
      objects: o.count,
      populateMs,
      ...(emptied === undefined ? {} : { emptiedMs: emptied - t0 }),
      ...(gone === undefined ? {} : { goneMs: gone - t0 }),
      deleted: emptied === undefined ? objects.deleted : o.count,
      cpuMs: cpuNow() - cpu0,
      load: os.loadavg()[0],
    };
  } finally {
    await Promise.all([objects.close(), namespace.close()]);
  }
}
