// The `controllers` scenario (issue 30): how fast the controllers clean up and what their caches
// cost. On our control plane (startControlPlane: API server and controller manager in this
// process) or on a server a kubeconfig names:
// - an owner of 10,000 ConfigMaps deleted with propagationPolicy Background, timed until the
//   garbage collector has deleted every dependent; a namespace of 10,000 ConfigMaps deleted, timed
//   until it is empty and gone (targets: each under 15 s);
// - a shared informer's heap per cached 1 KiB ConfigMap (target: under 2 KiB per 1 KiB object),
//   and the controller manager's heap and RSS per cached ConfigMap, each in a child process.
// Files: cases.ts (the timed cases), deletions.ts (watching deletions), objects.ts (making
// objects fast), memory.ts with informer-main.ts and manager-main.ts (the child processes),
// plane.ts (what is driven), report.ts (the table). May import src/ (the control plane, client and
// controllers), bench/api/ (its HTTP client and kubeconfig reading) and bench/lib/.

import os from 'node:os';
import { apiClient } from '../api/http-client.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { type CaseResult, removeNamespace, runNamespaceCase, runOwnerCase } from './cases.ts';
import {
  type InformerMemory,
  type ManagerMemory,
  measureInformer,
  measureManager,
  wireBytesPerObject,
} from './memory.ts';
import { createNamespace, payloadForKiB, populate, RUN_LABEL } from './objects.ts';
import { openPlane } from './plane.ts';
import { renderControllersReport } from './report.ts';

interface Sizes {
  runs: number;
  objects: number;
  memoryObjects: number;
  timeoutMs: number;
}

const FULL: Sizes = { runs: 3, objects: 10_000, memoryObjects: 10_000, timeoutMs: 300_000 };
const QUICK: Sizes = { runs: 1, objects: 50, memoryObjects: 50, timeoutMs: 60_000 };

export interface ControllersTargetResult {
  label: string;
  /** Who deleted dependents and emptied namespaces (read after the runs). */
  runners: { garbageCollector: string; namespace: string; managerControllers: string[] };
  owner: CaseResult[];
  namespace: CaseResult[];
  /** Mean bytes of one ConfigMap of the memory measures as a JSON list sends it (about 1 KiB). */
  objectBytes: number;
  /** The payload that made them so. */
  payloadBytes: number;
  informer: InformerMemory[];
  /** Absent when the server is not ours (our manager would act on another's objects). */
  manager?: ManagerMemory;
}

export interface ControllersResults {
  sizes: Sizes;
  /** 1, 5 and 15 minute load averages before and after the run. */
  loadBefore: number[];
  loadAfter: number[];
  targets: ControllersTargetResult[];
}

async function runTarget(
  ctx: ScenarioContext,
  backend: string,
  sizes: Sizes,
): Promise<ControllersTargetResult> {
  const plane = await openPlane(backend as 'sqlite' | 'etcd3', ctx.kubeconfig);
  const c = apiClient(plane.endpoint, ctx.protocol);
  const log = (m: string) => ctx.log(`${plane.label}: ${m}`);
  try {
    const owner: CaseResult[] = [];
    const namespace: CaseResult[] = [];
    const caseOptions = { count: sizes.objects, timeoutMs: sizes.timeoutMs, log };
    for (let i = 0; i < sizes.runs; i++) {
      log(`run ${i + 1}/${sizes.runs}`);
      namespace.push(await runNamespaceCase(c, caseOptions));
      owner.push(await runOwnerCase(c, caseOptions));
    }

    const stamp = Date.now().toString(36);
    const memNs = `bench-ctl-mem-${stamp}`;
    const emptyNs = `bench-ctl-empty-${stamp}`;
    await createNamespace(c, memNs);
    await createNamespace(c, emptyNs);
    try {
      const run = `mem-${stamp}`;
      // The warm-up informer's namespace holds the sizing probe: it is cached before and after alike.
      const payload = await payloadForKiB(c, emptyNs, `${run}-probe`);
      const fill = () => populate(c, memNs, sizes.memoryObjects, run, undefined, payload);
      const naming = ctx.kubeconfig === undefined ? 'spec' : 'upstream';
      let manager: ManagerMemory | undefined;
      if (plane.ours) {
        manager = await measureManager({
          configPath: plane.configPath,
          naming,
          namespace: memNs,
          label: { key: RUN_LABEL, value: run },
          objects: sizes.memoryObjects,
          populate: fill,
          timeoutMs: sizes.timeoutMs,
          log,
        });
      } else {
        await fill();
      }
      const objectBytes = await wireBytesPerObject(c, memNs);
      const informer: InformerMemory[] = [];
      for (const encoding of ['json', 'protobuf'] as const) {
        for (let i = 0; i < sizes.runs; i++) {
          log(`informer (${encoding}) ${i + 1}/${sizes.runs}`);
          informer.push(
            await measureInformer(
              { configPath: plane.configPath, namespace: memNs, emptyNamespace: emptyNs, encoding, naming },
              sizes.memoryObjects,
            ),
          );
        }
      }
      return {
        label: plane.label,
        runners: plane.runners(),
        owner,
        namespace,
        objectBytes,
        payloadBytes: payload,
        informer,
        ...(manager === undefined ? {} : { manager }),
      };
    } finally {
      await removeNamespace(c, memNs, sizes.timeoutMs);
      await removeNamespace(c, emptyNs, sizes.timeoutMs);
    }
  } finally {
    c.close();
    await plane.stop();
  }
}

async function runControllers(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const sizes = ctx.quick ? QUICK : FULL;
  const loadBefore = os.loadavg();
  const targets: ControllersTargetResult[] = [];
  const backends = ctx.kubeconfig === undefined ? ctx.backends : [ctx.backends[0]];
  for (const backend of backends) targets.push(await runTarget(ctx, backend, sizes));
  const results: ControllersResults = { sizes, loadBefore, loadAfter: os.loadavg(), targets };
  return { results, markdown: renderControllersReport(results) };
}

export const controllersScenario: Scenario = {
  name: 'controllers',
  description:
    'garbage collector and namespace deletion of 10,000 objects; informer and controller manager memory per cached object',
  run: runControllers,
};
