// The `authz` scenario: the RBAC decision micro-benchmark. In-process, no server: the index holds
// the population (1,000 Roles and 1,000 RoleBindings over 100 namespaces, 200 ClusterRoles
// of 10-30 rules, 100 ClusterRoleBindings plus the default ones to system:authenticated) fed
// through the same RbacObjectSource seam the server uses, and decisions of the kinds a request
// makes are timed in batches. The target: a decision under 5 µs median.

import {
  createRbacAuthorizer,
  MemoryRbacSource,
  type PolicyRule,
  type RbacKind,
  type RbacObject,
} from '../../src/auth/authz/rbac/index.ts';
import type { Attributes } from '../../src/auth/authz/types.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { median } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';

const NAMESPACES = 100;
const PER_NAMESPACE = 10;
const CLUSTER_ROLES = 200;
const CLUSTER_BINDINGS = 100;
const RESOURCES = ['pods', 'services', 'configmaps', 'secrets', 'deployments', 'jobs', 'events', 'leases'];
const GROUPS = ['', 'apps', 'batch', 'coordination.k8s.io', 'policy'];

function rulesFor(seed: number, count: number): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (let i = 0; i < count; i++) {
    const r = RESOURCES[(seed + i) % RESOURCES.length];
    rules.push({
      verbs:
        i % 3 === 0
          ? ['get', 'list', 'watch']
          : ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      apiGroups: [GROUPS[(seed + i) % GROUPS.length]],
      resources: i % 4 === 0 ? [r, `${r}/status`] : [`${r}-${seed}-${i}`],
      ...(i % 5 === 4 ? { resourceNames: [`name-${i}`] } : {}),
    });
  }
  return rules;
}

export function population(): { kind: RbacKind; obj: RbacObject }[] {
  const out: { kind: RbacKind; obj: RbacObject }[] = [];
  const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.svc.io', kind, name });
  for (let c = 0; c < CLUSTER_ROLES; c++) {
    out.push({
      kind: 'ClusterRole',
      obj: { metadata: { name: `cr-${c}` }, rules: rulesFor(c, 10 + (c % 21)) },
    });
  }
  // The defaults every authenticated user is bound to, as the bootstrap policy binds them.
  out.push({
    kind: 'ClusterRole',
    obj: {
      metadata: { name: 'discovery' },
      rules: [
        { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/version'] },
      ],
    },
  });
  for (const name of ['discovery', 'cr-1', 'cr-2']) {
    out.push({
      kind: 'ClusterRoleBinding',
      obj: {
        metadata: { name: `default-${name}` },
        roleRef: ref('ClusterRole', name),
        subjects: [{ kind: 'Group', name: 'system:authenticated' }],
      },
    });
  }
  for (let b = 0; b < CLUSTER_BINDINGS; b++) {
    out.push({
      kind: 'ClusterRoleBinding',
      obj: {
        metadata: { name: `crb-${b}` },
        roleRef: ref('ClusterRole', `cr-${b}`),
        subjects: [{ kind: 'User', name: `operator-${b}` }],
      },
    });
  }
  for (let n = 0; n < NAMESPACES; n++) {
    const ns = `ns-${n}`;
    for (let k = 0; k < PER_NAMESPACE; k++) {
      out.push({
        kind: 'Role',
        obj: { metadata: { name: `role-${k}`, namespace: ns }, rules: rulesFor(n * 10 + k, 5) },
      });
      // Half bind the namespace's Role, half a ClusterRole (scoped to the namespace); users and groups.
      const roleRef =
        k % 2 === 0 ? ref('Role', `role-${k}`) : ref('ClusterRole', `cr-${(n + k) % CLUSTER_ROLES}`);
      out.push({
        kind: 'RoleBinding',
        obj: {
          metadata: { name: `rb-${k}`, namespace: ns },
          roleRef,
          subjects: [
            { kind: 'User', name: `user-${n}-${k}` },
            { kind: 'Group', name: `team-${n}` },
            { kind: 'ServiceAccount', name: `sa-${k}` },
          ],
        },
      });
    }
  }
  return out;
}

interface Case {
  name: string;
  attrs: Attributes;
  want: 'allow' | 'noOpinion';
}

function cases(): Case[] {
  const dev = { username: 'user-42-3', groups: ['team-42', 'system:authenticated'] };
  const base = { isResourceRequest: true, path: '', apiVersion: 'v1', subresource: '', name: '' };
  return [
    {
      name: 'allowed: RoleBinding -> ClusterRole, last rule',
      attrs: {
        ...base,
        user: dev,
        verb: 'get',
        apiGroup: 'batch',
        resource: 'services',
        namespace: 'ns-42',
        name: 'x',
      },
      want: 'allow',
    },
    {
      name: 'allowed: RoleBinding -> Role (group member)',
      attrs: {
        ...base,
        user: { username: 'someone', groups: ['team-7', 'system:authenticated'] },
        verb: 'update',
        apiGroup: 'policy',
        resource: 'configmaps',
        namespace: 'ns-7',
        name: 'name-4',
      },
      want: 'allow',
    },
    {
      name: 'allowed: non-resource URL by system:authenticated',
      attrs: {
        ...base,
        isResourceRequest: false,
        path: '/apis/apps/v1',
        user: dev,
        verb: 'get',
        apiGroup: '',
        resource: '',
        namespace: '',
      },
      want: 'allow',
    },
    {
      name: 'denied: no rule (visits every binding)',
      attrs: {
        ...base,
        user: dev,
        verb: 'delete',
        apiGroup: '',
        resource: 'nodes',
        namespace: 'ns-42',
        name: 'n',
      },
      want: 'noOpinion',
    },
    {
      name: 'denied: service account elsewhere',
      attrs: {
        ...base,
        user: {
          username: 'system:serviceaccount:ns-9:sa-1',
          groups: ['system:serviceaccounts', 'system:authenticated'],
        },
        verb: 'delete',
        apiGroup: '',
        resource: 'secrets',
        namespace: 'ns-10',
        name: 's',
      },
      want: 'noOpinion',
    },
  ];
}

function nsPerDecision(authorize: (a: Attributes) => unknown, a: Attributes, batch: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < batch; i++) authorize(a);
  return Number(process.hrtime.bigint() - t0) / batch;
}

export const authzScenario: Scenario = {
  name: 'authz',
  description:
    'RBAC decision micro-benchmark: µs per decision over 1,000 Roles/RoleBindings and 200 ClusterRoles',
  async run(ctx: ScenarioContext): Promise<ScenarioOutput> {
    const h = createRbacAuthorizer(new MemoryRbacSource(population()));
    await h.synced;
    const size = h.index.size();
    ctx.log(`index: ${JSON.stringify(size)}`);
    const authorize = (a: Attributes) => h.authorizer.authorize(a);
    const batch = ctx.quick ? 100 : 20_000;
    const rounds = ctx.quick ? 3 : 30;
    const results = [];
    for (const c of cases()) {
      const v = h.authorizer.authorize(c.attrs) as { decision: string; reason: string };
      if (v.decision !== c.want) throw new Error(`${c.name}: ${JSON.stringify(v)}`);
      for (let i = 0; i < (ctx.quick ? 100 : 50_000); i++) authorize(c.attrs);
      const runs: number[] = [];
      for (let r = 0; r < rounds; r++) runs.push(nsPerDecision(authorize, c.attrs, batch) / 1000);
      results.push({
        name: c.name,
        reason: v.reason,
        medianUs: median(runs),
        minUs: Math.min(...runs),
        maxUs: Math.max(...runs),
        runs,
      });
    }
    h.stop();
    const markdown = [
      `Index: ${size.Role} Roles, ${size.RoleBinding} RoleBindings, ${size.ClusterRole} ClusterRoles, ${size.ClusterRoleBinding} ClusterRoleBindings. Target: median < 5 µs.`,
      '',
      renderTable({
        headers: ['decision', 'median µs', 'min µs', 'max µs'],
        align: ['left', 'right', 'right', 'right'],
        rows: results.map((r) => [r.name, r.medianUs.toFixed(3), r.minUs.toFixed(3), r.maxUs.toFixed(3)]),
      }),
    ].join('\n');
    return { results: { index: size, cases: results }, markdown };
  },
};
