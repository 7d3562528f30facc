// The `cel` scenario: compile time and evaluations per second of the three expressions typical
// here (a claim mapping, an admission match condition, a device selector), through src/cel/ with
// the cost tracker on and off. In-process; no server. The target: at least 500,000
// device-selector evaluations per second with tracking on, tracking costing under 25%.

import {
  compile,
  createEnvironment,
  type Environment,
  evaluate,
  type Program,
  QUANTITY_TYPE,
  quantityLibrary,
  T,
} from '../../src/cel/index.ts';
import { Quantity } from '../../src/machinery/quantity.ts';
import { formatNumber } from '../lib/format.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { renderTable } from '../lib/table.ts';

const user = T.object('UserInfo', {
  username: T.string,
  uid: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
});
const request = T.object('AdmissionRequest', {
  operation: T.string,
  resource: T.object('GroupVersionResource', { group: T.string, version: T.string, resource: T.string }),
  userInfo: user,
  namespace: T.string,
  name: T.string,
});
// Upstream's DRA device type (k8s.io/dynamic-resource-allocation/cel): attributes hold ints,
// bools, strings and semvers (dyn), capacity holds quantities.
const device = T.object('kubernetes.DRADevice', {
  driver: T.string,
  attributes: T.map(T.string, T.map(T.string, T.dyn)),
  capacity: T.map(T.string, T.map(T.string, QUANTITY_TYPE)),
  allowMultipleAllocations: T.bool,
});

const CASES = [
  {
    name: 'claim mapping',
    expr: 'claims.email.split("@")[0] + ":" + claims.sub',
    activation: { claims: { email: 'jane@example.com', sub: '1234' } },
  },
  {
    name: 'admission match',
    expr: 'request.resource.group == "apps" && request.operation in ["CREATE","UPDATE"] && !(request.userInfo.username.startsWith("system:"))',
    activation: {
      request: {
        operation: 'CREATE',
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        userInfo: { username: 'jane', uid: '1', groups: ['dev'], extra: {} },
        namespace: 'default',
        name: 'web',
      },
    },
  },
  {
    name: 'device selector',
    expr: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0',
    activation: {
      device: {
        driver: 'gpu.example.com',
        // The selector reads the quantity from attributes (dyn), so it is put there too.
        attributes: { 'gpu.example.com': { memory: Quantity.parse('16Gi') } },
        capacity: { 'gpu.example.com': { memory: Quantity.parse('16Gi') } },
        allowMultipleAllocations: false,
      },
    },
  },
];

function env(trackCost: boolean): Environment {
  return createEnvironment({
    variables: { claims: T.map(T.string, T.dyn), request, device },
    libraries: [quantityLibrary],
    trackCost,
  });
}

function mustCompile(e: Environment, expr: string): Program {
  const r = compile(e, expr);
  if (!r.ok) throw new Error(r.error.message);
  return r.program;
}

function evalsPerSecond(program: Program, activation: Record<string, unknown>, ms: number): number {
  const check = evaluate(program, activation, { costLimit: 1e6 });
  if (!check.ok || check.value === false) throw new Error(`${program.expression}: ${JSON.stringify(check)}`);
  for (let i = 0; i < 5000; i++) evaluate(program, activation);
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 1000; i++) evaluate(program, activation, { costLimit: 1e6 });
    n += 1000;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export const celScenario: Scenario = {
  name: 'cel',
  description:
    'CEL: compile time and evaluations/s of a claim mapping, a match condition and a device selector',
  async run(ctx: ScenarioContext): Promise<ScenarioOutput> {
    const ms = ctx.quick ? 20 : 2000;
    const tracked = env(true);
    const untracked = env(false);
    const results = [];
    for (const c of CASES) {
      // Compile time: a fresh parse and check each time (compile() itself does not cache).
      const rounds = ctx.quick ? 10 : 2000;
      const t0 = performance.now();
      for (let i = 0; i < rounds; i++) mustCompile(tracked, c.expr);
      const compileUs = ((performance.now() - t0) * 1000) / rounds;
      ctx.log(`${c.name}: measuring`);
      // Tracked and untracked alternate in short rounds and each keeps its median, so a burst of
      // load on a shared machine lands on both rather than skewing the overhead.
      const on = mustCompile(tracked, c.expr);
      const off = mustCompile(untracked, c.expr);
      const turns = ctx.quick ? 2 : 10;
      const ons: number[] = [];
      const offs: number[] = [];
      for (let r = 0; r < turns; r++) {
        ons.push(evalsPerSecond(on, c.activation, ms / turns));
        offs.push(evalsPerSecond(off, c.activation, ms / turns));
      }
      const withTracking = median(ons);
      const without = median(offs);
      const cost = evaluate(mustCompile(tracked, c.expr), c.activation).cost;
      results.push({
        name: c.name,
        expr: c.expr,
        compileUs,
        evalsPerSecTracked: withTracking,
        evalsPerSecUntracked: without,
        trackingOverheadPct: (100 * (without - withTracking)) / without,
        cost,
      });
    }
    const markdown = renderTable({
      headers: [
        'expression',
        'compile µs',
        'evals/s tracked',
        'evals/s untracked',
        'tracking overhead',
        'cost',
      ],
      align: ['left', 'right', 'right', 'right', 'right', 'right'],
      rows: results.map((r) => [
        r.name,
        r.compileUs.toFixed(1),
        formatNumber(Math.round(r.evalsPerSecTracked)),
        formatNumber(Math.round(r.evalsPerSecUntracked)),
        `${r.trackingOverheadPct.toFixed(1)}%`,
        String(r.cost),
      ]),
    });
    return { results, markdown };
  },
};
