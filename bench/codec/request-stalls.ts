// The stalls scenario: how long one large write request holds the event loop. For each hostile
// shape of body near the 3 MiB limit (deep nesting, many keys, many tiny objects, many patch
// operations, server-side apply in JSON and YAML), it sends the request to an in-process server and
// reports the status, the wall time and the worst event-loop delay seen while the request ran
// (perf_hooks' monitorEventLoopDelay), with the heap growth across it. A request whose work is
// proportional to its size should not hold the loop for more than a few tens of milliseconds.
// Run by hand: `npm run bench -- stalls` (or `npx tsx bench/codec/request-stalls.ts`).

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  type Reply,
  startTestApiServer,
  type TestApiServer,
  warningsOf,
} from '../../src/server/testing/index.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { renderTable } from '../lib/table.ts';

const CM = '/api/v1/namespaces/default/configmaps';
/** Just under upstream's 3 MiB body limit, leaving room for the envelope. */
const FULL_BYTES = 3 * 1024 * 1024 - 4096;
const QUICK_BYTES = 16 * 1024;

interface Shape {
  name: string;
  /** Builds the request for a body of about `bytes`; `n` makes names unique per run. */
  request(bytes: number, n: number): { method: string; path: string; body: string; type: string };
}

/** `count` items of about `each` bytes (with a separator) that fill `bytes`. */
const fit = (bytes: number, each: number) => Math.max(1, Math.floor(bytes / each));

const manyKeys = (count: number, key: (i: number) => string) => {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`"${key(i)}":"v"`);
  return `{${parts.join(',')}}`;
};

const SHAPES: Shape[] = [
  {
    name: 'create, nested deep',
    request: (bytes, n) => {
      const depth = fit(bytes - 64, 2);
      return {
        method: 'POST',
        path: CM,
        type: 'json',
        body: `{"metadata":{"name":"deep-${n}"},"bogus":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      };
    },
  },
  {
    name: 'create, [{},{},…] tiny objects',
    request: (bytes, n) => ({
      method: 'POST',
      path: CM,
      type: 'json',
      body: `{"metadata":{"name":"tiny-${n}"},"bogus":[${Array(fit(bytes, 3)).fill('{}').join(',')}]}`,
    }),
  },
  {
    name: 'create, many data keys',
    request: (bytes, n) => ({
      method: 'POST',
      path: CM,
      type: 'json',
      body: `{"metadata":{"name":"keys-${n}"},"data":${manyKeys(fit(bytes, 14), (i) => `k${i}`)}}`,
    }),
  },
  {
    name: 'create, many unknown keys',
    request: (bytes, n) => {
      const keys = manyKeys(fit(bytes, 14), (i) => `u${i}`);
      return {
        method: 'POST',
        path: CM,
        type: 'json',
        body: `{"metadata":{"name":"unk-${n}"},${keys.slice(1)}`,
      };
    },
  },
  {
    name: 'merge patch, many keys',
    request: (bytes) => ({
      method: 'PATCH',
      path: `${CM}/target`,
      type: 'merge-patch+json',
      body: `{"data":${manyKeys(fit(bytes, 14), (i) => `m${i}`)}}`,
    }),
  },
  {
    name: 'JSON patch, 10,000 adds',
    request: (bytes) => {
      // Ten thousand adds (upstream's limit) that fill the body, then a test that fails: 422.
      const count = 10_000;
      const value = 'x'.repeat(Math.max(1, Math.floor(bytes / count) - 48));
      const ops: string[] = [];
      for (let i = 0; i < count - 1; i++) ops.push(`{"op":"add","path":"/data/j${i}","value":"${value}"}`);
      ops.push('{"op":"test","path":"/data/j0","value":"no"}');
      return { method: 'PATCH', path: `${CM}/target`, type: 'json-patch+json', body: `[${ops.join(',')}]` };
    },
  },
  {
    name: 'strategic patch, tiny objects',
    request: (bytes) => ({
      method: 'PATCH',
      path: `${CM}/target`,
      type: 'strategic-merge-patch+json',
      body: `{"bogus":[${Array(fit(bytes, 3)).fill('{}').join(',')}]}`,
    }),
  },
  {
    name: 'strategic patch, merge-keyed list',
    request: (bytes) => {
      const count = fit(bytes, 60);
      const refs: string[] = [];
      for (let i = 0; i < count; i++) refs.push(`{"apiVersion":"v1","kind":"K","name":"n","uid":"u${i}"}`);
      return {
        method: 'PATCH',
        path: `${CM}/target`,
        type: 'strategic-merge-patch+json',
        body: `{"metadata":{"ownerReferences":[${refs.join(',')}]}}`,
      };
    },
  },
  {
    name: 'apply, JSON with many keys',
    request: (bytes, n) => ({
      method: 'PATCH',
      path: `${CM}/apply-json-${n}?fieldManager=bench`,
      type: 'apply-patch+yaml',
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"apply-json-${n}"},"data":${manyKeys(fit(bytes, 14), (i) => `a${i}`)}}`,
    }),
  },
  {
    name: 'apply, YAML with many keys',
    request: (bytes, n) => {
      const lines: string[] = [];
      for (let i = 0, count = fit(bytes - 256, 14); i < count; i++) lines.push(`  y${i}: v`);
      return {
        method: 'PATCH',
        path: `${CM}/apply-yaml-${n}?fieldManager=bench`,
        type: 'apply-patch+yaml',
        body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: apply-yaml-${n}\ndata:\n${lines.join('\n')}\n`,
      };
    },
  },
];

export interface StallResult {
  shape: string;
  bodyBytes: number;
  status: string;
  wallMs: number;
  worstStallMs: number;
  heapGrowthMiB: number;
  warnings: number;
}

async function measure(t: TestApiServer, shape: Shape, bytes: number, n: number): Promise<StallResult> {
  const req = shape.request(bytes, n);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  histogram.enable();
  const start = performance.now();
  let status: string;
  let warnings = 0;
  try {
    const r: Reply = await t.call({
      method: req.method,
      path: req.path,
      body: req.body,
      headers: { 'content-type': `application/${req.type}` },
    });
    status = String(r.status);
    warnings = warningsOf(r).length;
  } catch (err) {
    // A reply the client cannot read (a flood of Warning headers overflows it) is a finding too.
    status = `error: ${(err as { code?: string }).code ?? (err as Error).message}`;
  }
  const wallMs = performance.now() - start;
  histogram.disable();
  const heapGrowthMiB = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
  return {
    shape: shape.name,
    bodyBytes: Buffer.byteLength(req.body),
    status,
    wallMs,
    worstStallMs: histogram.max / 1e6,
    heapGrowthMiB,
    warnings,
  };
}

async function run(ctx: ScenarioContext, only?: string): Promise<ScenarioOutput> {
  const bytes = ctx.quick ? QUICK_BYTES : FULL_BYTES;
  const results: StallResult[] = [];
  let n = 0;
  for (const shape of SHAPES) {
    if (only !== undefined && !shape.name.includes(only)) continue;
    ctx.log(shape.name);
    // A fresh server per shape, so that one shape's leftovers (a 3 MiB object and its garbage)
    // do not weigh on the next one's figures.
    const t = await startTestApiServer();
    try {
      const made = await t.call({
        method: 'POST',
        path: CM,
        body: '{"metadata":{"name":"target"},"data":{"k":"v"}}',
      });
      if (made.status !== 201)
        throw new Error(`could not create the patch target: ${made.status} ${made.body}`);
      results.push(await measure(t, shape, bytes, n++));
    } finally {
      await t.stop();
    }
  }
  const markdown = renderTable({
    headers: ['body', 'bytes', 'status', 'wall ms', 'worst stall ms', 'heap Δ MiB', 'warnings'],
    align: ['left', 'right', 'left', 'right', 'right', 'right', 'right'],
    rows: results.map((r) => [
      r.shape,
      String(r.bodyBytes),
      r.status,
      r.wallMs.toFixed(0),
      r.worstStallMs.toFixed(0),
      r.heapGrowthMiB.toFixed(0),
      String(r.warnings),
    ]),
  });
  return { results, markdown };
}

export const stallsScenario: Scenario = {
  name: 'stalls',
  description: 'worst event-loop stall per large hostile write request (3 MiB bodies), in-process',
  run: (ctx) => run(ctx),
};

// Run directly: `npx tsx bench/codec/request-stalls.ts [shape-substring] [--quick]`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const only = args.find((a) => !a.startsWith('--'));
  run(
    {
      backends: ['sqlite'],
      quick: args.includes('--quick'),
      protocol: 'http1',
      encoding: 'json',
      log: (m) => console.error(`[stalls] ${m}`),
    },
    only,
  ).then(
    (out) => console.log(out.markdown),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
