// `authz-load`: what RBAC costs a request once the store holds a realistic amount of policy — the
// issue's target is a non-admin user within 5% of system:masters. The server gets 1,000 Roles and
// 1,000 RoleBindings spread over 50 namespaces (some binding the bench user, to roles that do not
// grant what the load does), 200 ClusterRoles, and the bench user's own grant: a RoleBinding to a
// Role allowing get and create on ConfigMaps in the load's namespace, sitting among that
// namespace's other bindings rather than first. Both users present a client certificate signed by
// the same CA, so authentication costs the same and only the authorization path differs:
// system:masters is allowed by the privileged-group authorizer before RBAC is asked.
// The get and create loads run in rounds, each user once per load per round in a rotating order,
// after one uncounted run each; the figure is the median of the per-round ratios, as get --auth.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLeaf } from '../../src/server/pki/generate.ts';
import { formatSummary } from '../lib/format.ts';
import type { ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import { whoAmI } from './auth.ts';
import { apiClient, type Protocol } from './http-client.ts';
import type { Job, JobResult } from './jobs.ts';
import { LoadThreads, merge, percentile, runInWorker, shares } from './load.ts';
import { freshNamespace } from './namespace.ts';
import { LOAD_NICE } from './priority.ts';
import { cpuSeconds, type Endpoint, startOwnServer, type Target } from './target.ts';

const RBAC = 'rbac.authorization.k8s.io';
export const AUTHZ_USER = 'bench-rbac';
const WORKERS = 2;
const CONCURRENCY = 32;

interface Sizes {
  roles: number;
  bindings: number;
  clusterRoles: number;
  namespaces: number;
  rounds: number;
  gets: number;
  creates: number;
  objects: number;
}
const FULL: Sizes = {
  roles: 1000,
  bindings: 1000,
  clusterRoles: 200,
  namespaces: 50,
  rounds: 11,
  gets: 10_000,
  creates: 2_000,
  objects: 1000,
};
const QUICK: Sizes = {
  roles: 20,
  bindings: 20,
  clusterRoles: 4,
  namespaces: 2,
  rounds: 2,
  gets: 60,
  creates: 30,
  objects: 30,
};

type Load = 'get' | 'create';
type Who = 'rbac' | 'masters';

export interface AuthzLoadFigures {
  load: Load;
  who: Who;
  username: string;
  perSecond: Summary;
  /** Per round, this user's requests per second over system:masters', in percent. */
  vsMasters: Summary;
  cpuMicros?: Summary;
  p50: Summary;
  p99: Summary;
  failed: number;
}

/** Requests as the admin, `concurrency` at a time; refuses any status but 201. */
async function createAll(e: Endpoint, protocol: Protocol, items: [string, unknown][]): Promise<void> {
  const c = apiClient(e, protocol, 16);
  try {
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const [path, body] = items[next++];
        const r = await c.request('POST', path, JSON.stringify(body));
        if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.body}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
  } finally {
    c.close();
  }
}

const rule = (i: number) => ({
  apiGroups: [['', 'apps', 'batch', 'networking.k8s.io'][i % 4]],
  resources: [['pods', 'deployments', 'jobs', 'ingresses', 'services', 'secrets'][i % 6]],
  verbs: i % 3 === 0 ? ['get', 'list', 'watch'] : ['get', 'list', 'watch', 'create', 'update', 'delete'],
});
const rules = (seed: number, n: number) => Array.from({ length: n }, (_, k) => rule(seed + k));

/** The policy objects: roles and bindings over the namespaces, the load namespace among them. */
function policy(
  s: Sizes,
  prefix: string,
  loadNs: string,
): { namespaces: string[]; items: [string, unknown][] } {
  const namespaces = Array.from({ length: s.namespaces - 1 }, (_, k) => `${prefix}-${k}`).concat(loadNs);
  const items: [string, unknown][] = [];
  for (let c = 0; c < s.clusterRoles; c++)
    items.push([
      `/apis/${RBAC}/v1/clusterroles`,
      { metadata: { name: `${prefix}-cr-${c}` }, rules: rules(c, 5 + (c % 11)) },
    ]);
  const perNs = s.roles / s.namespaces;
  for (let r = 0; r < s.roles; r++) {
    const ns = namespaces[Math.floor(r / perNs)];
    items.push([
      `/apis/${RBAC}/v1/namespaces/${ns}/roles`,
      { metadata: { name: `role-${r}` }, rules: rules(r, 3 + (r % 5)) },
    ]);
  }
  for (let b = 0; b < s.bindings; b++) {
    const ns = namespaces[Math.floor(b / perNs)];
    const toClusterRole = b % 4 === 0;
    const subjects: Record<string, unknown>[] = [
      { kind: 'User', apiGroup: RBAC, name: `user-${b}` },
      { kind: 'Group', apiGroup: RBAC, name: `team-${b % 37}` },
      { kind: 'ServiceAccount', name: `sa-${b % 7}`, namespace: ns },
    ];
    // Some bind the bench user, to roles that grant nothing the load does.
    if (b % 10 === 5) subjects.push({ kind: 'User', apiGroup: RBAC, name: AUTHZ_USER });
    items.push([
      `/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`,
      {
        metadata: { name: `rb-${b}` },
        roleRef: toClusterRole
          ? { apiGroup: RBAC, kind: 'ClusterRole', name: `${prefix}-cr-${b % s.clusterRoles}` }
          : { apiGroup: RBAC, kind: 'Role', name: `role-${b % s.roles}` },
        subjects,
      },
    ]);
  }
  return { namespaces, items };
}

/** Waits (30 s at most) until the user may get an object: RBAC learns bindings by watching. */
async function untilAllowed(e: Endpoint, protocol: Protocol, ns: string, name: string): Promise<void> {
  const c = apiClient(e, protocol);
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await c.request('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`);
      if (r.status === 200) return;
      if (Date.now() > deadline)
        throw new Error(`${AUTHZ_USER} was never allowed to get ConfigMaps in ${ns}: ${r.status} ${r.body}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    c.close();
  }
}

type Run = JobResult & { cpuMicros: number };

async function measure(t: Target, ctx: ScenarioContext): Promise<AuthzLoadFigures[]> {
  const s = ctx.quick ? QUICK : FULL;
  const loadNs = await freshNamespace(t.endpoint, ctx.protocol, 'authz');
  const { namespaces, items } = policy(s, loadNs, loadNs);
  await createAll(
    t.endpoint,
    ctx.protocol,
    namespaces.filter((n) => n !== loadNs).map((n) => ['/api/v1/namespaces', { metadata: { name: n } }]),
  );
  // The bench user's grant goes in among the load namespace's bindings.
  const at = items.length - Math.floor(s.bindings / s.namespaces / 2);
  items.splice(
    at,
    0,
    [
      `/apis/${RBAC}/v1/namespaces/${loadNs}/roles`,
      {
        metadata: { name: 'bench-configmaps' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] }],
      },
    ],
    [
      `/apis/${RBAC}/v1/namespaces/${loadNs}/rolebindings`,
      {
        metadata: { name: 'bench-configmaps' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'bench-configmaps' },
        subjects: [{ kind: 'User', apiGroup: RBAC, name: AUTHZ_USER }],
      },
    ],
  );
  await createAll(t.endpoint, ctx.protocol, items);
  ctx.log(
    `${t.label}: ${s.roles} Roles, ${s.bindings} RoleBindings over ${s.namespaces} namespaces, ${s.clusterRoles} ClusterRoles`,
  );
  await Promise.all(
    shares(s.objects, WORKERS).map((count, w) =>
      runInWorker(t.endpoint, ctx.protocol, {
        kind: 'create',
        namespaces: [loadNs],
        prefix: `a-${w}`,
        count,
        size: 1024,
        concurrency: 32,
      }),
    ),
  );
  const objects = shares(s.objects, WORKERS).flatMap((count, w) =>
    Array.from({ length: count }, (_, i): [string, string] => [loadNs, `a-${w}-${i}`]),
  );
  const ca = {
    certPem: readFileSync(join(t.dataDir as string, 'ca.crt'), 'utf8'),
    keyPem: readFileSync(join(t.dataDir as string, 'ca.key'), 'utf8'),
  };
  const leaf = await createLeaf(ca, {
    commonName: AUTHZ_USER,
    organizations: ['bench-users'],
    usage: 'client',
    validDays: 1,
  });
  const endpoints: Record<Who, Endpoint> = {
    rbac: { url: t.endpoint.url, ca: t.endpoint.ca, cert: leaf.certPem, key: leaf.keyPem },
    masters: t.endpoint,
  };
  const names: Record<Who, string> = {
    rbac: await whoAmI(endpoints.rbac, ctx.protocol),
    masters: await whoAmI(endpoints.masters, ctx.protocol),
  };
  await untilAllowed(endpoints.rbac, ctx.protocol, loadNs, objects[0][1]);

  const threads = new LoadThreads();
  const cpu = () => (t.pid === undefined ? Number.NaN : cpuSeconds(t.pid));
  let createRun = 0;
  const run = async (load: Load, who: Who): Promise<Run> => {
    const before = cpu();
    const total = load === 'get' ? s.gets : s.creates;
    const run = createRun++;
    const r = merge(
      await Promise.all(
        shares(total, WORKERS).map((count, w) => {
          const job: Job =
            load === 'get'
              ? { kind: 'get', objects, count, concurrency: CONCURRENCY }
              : {
                  kind: 'create',
                  namespaces: [loadNs],
                  prefix: `${who}-${run}-${w}`,
                  count,
                  size: 1024,
                  concurrency: CONCURRENCY,
                };
          return threads.run(endpoints[who], ctx.protocol, job);
        }),
      ),
    );
    return { ...r, cpuMicros: ((cpu() - before) * 1e6) / Math.max(1, r.ok) };
  };
  const order: [Load, Who][] = [
    ['get', 'rbac'],
    ['get', 'masters'],
    ['create', 'rbac'],
    ['create', 'masters'],
  ];
  const runs = new Map<string, Run[]>(order.map(([l, w]) => [`${l} ${w}`, []]));
  try {
    for (const [l, w] of order) await run(l, w);
    for (let round = 0; round < s.rounds; round++) {
      for (let k = 0; k < order.length; k++) {
        const [l, w] = order[(round + k) % order.length];
        const r = await run(l, w);
        runs.get(`${l} ${w}`)?.push(r);
        ctx.log(
          `${t.label}: round ${round + 1} of ${s.rounds}, ${l} as ${w}: ${Math.round((r.ok / r.elapsedMs) * 1000)}/s, ${Math.round(r.cpuMicros)} µs CPU each`,
        );
      }
    }
  } finally {
    await threads.close();
  }
  const rate = (r: JobResult) => (r.ok / r.elapsedMs) * 1000;
  return order.map(([load, who]): AuthzLoadFigures => {
    const mine = runs.get(`${load} ${who}`) ?? [];
    const masters = runs.get(`${load} masters`) ?? [];
    return {
      load,
      who,
      username: names[who],
      perSecond: summarize(mine.map(rate)),
      vsMasters: summarize(mine.map((r, i) => (100 * rate(r)) / rate(masters[i]))),
      ...(t.pid === undefined ? {} : { cpuMicros: summarize(mine.map((r) => r.cpuMicros)) }),
      p50: summarize(mine.map((r) => percentile(r.latencies, 50))),
      p99: summarize(mine.map((r) => percentile(r.latencies, 99))),
      failed: mine.reduce((a, r) => a + r.failed, 0),
    };
  });
}

export async function authzLoadScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  if (ctx.kubeconfig !== undefined)
    throw new Error(
      'authz-load signs its user a client certificate with the server’s CA, so it needs the server the bench starts (not --kubeconfig)',
    );
  const s = ctx.quick ? QUICK : FULL;
  const results: { label: string; value: AuthzLoadFigures[] }[] = [];
  for (const backend of ctx.backends) {
    const t = await startOwnServer(backend);
    try {
      results.push({ label: t.label, value: await measure(t, ctx) });
    } finally {
      await t.stop();
    }
  }
  const rows = results.flatMap(({ label, value }) =>
    value.map((x) => [
      label,
      x.load,
      x.who === 'rbac' ? `RBAC RoleBinding (${x.username})` : `system:masters (${x.username})`,
      formatSummary(x.perSecond),
      formatSummary(x.vsMasters, '%', 1),
      x.cpuMicros === undefined ? '' : formatSummary(x.cpuMicros, ' µs', 0),
      formatSummary(x.p50, ' ms'),
      formatSummary(x.p99, ' ms'),
      String(x.failed),
    ]),
  );
  const table = renderTable({
    headers: [
      'server',
      'load',
      'user',
      'requests/s',
      'of system:masters’',
      'server CPU a request',
      'p50',
      'p99',
      'failed',
    ],
    rows,
    align: ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  return {
    results,
    markdown: `${table}

The store holds ${s.roles} Roles and ${s.bindings} RoleBindings over ${s.namespaces} namespaces (a tenth of the bindings also name the bench user, to roles granting nothing the load does) and ${s.clusterRoles} ClusterRoles beside the default policy. The non-admin user is allowed by one RoleBinding to a Role (get and create on ConfigMaps) in the load's namespace; system:masters is allowed before RBAC is asked. Both present client certificates of the same CA. Get: random gets of ${s.objects} ConfigMaps of 1 KiB, ${s.gets} a run; create: ${s.creates} ConfigMaps of 1 KiB a run; ${WORKERS * CONCURRENCY} clients in ${WORKERS} worker threads over ${ctx.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1 keep-alive'}. Median (min–max) of ${s.rounds} rounds of one run per load and user in a rotating order, after one uncounted run each; "of system:masters’" is the median of each round's ratio to system:masters' run of the same load in that round (the target is at least 95%). The load runs at nice ${LOAD_NICE}.
`,
  };
}
