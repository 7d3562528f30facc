// The clusterrole-aggregation controller on the client, as upstream's: any ClusterRole added,
// changed or deleted queues every ClusterRole with an aggregationRule (the set is small, and an
// aggregated role may itself be aggregated, as admin <- edit <- view); a sync sets the role's rules
// to the union of the rules of the ClusterRoles its selectors match (itself excluded), in name order
// per selector, each rule once. The rules are written by server-side apply with force under the
// controller's field manager (an update when the server refuses apply), and only when they differ.

import type { ApiClient, Clock, GroupVersionResource, SharedInformer } from '../../client/api.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import { type LabelSelector, labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import { messageOf, nameOf, statusCode, waitForInformers, watchAll } from '../controller-support.ts';

/** Upstream's field manager for the aggregated rules. */
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';
/** Upstream runs five workers. */
export const AGGREGATION_WORKERS = 5;

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

export type PolicyRule = Record<string, unknown>;

function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Semantic equality of two rules: a missing list equals an empty one, as Go's nil and []. */
export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  for (const f of RULE_FIELDS) {
    const x = listOf(a[f]);
    const y = listOf(b[f]);
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

export function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i] as PolicyRule));
}

function rulesOf(obj: ApiObject): PolicyRule[] {
  return listOf(obj.rules).filter((r): r is PolicyRule => r !== null && typeof r === 'object');
}

function selectorsOf(obj: ApiObject): LabelSelector[] | undefined {
  const agg = obj.aggregationRule as { clusterRoleSelectors?: unknown } | null | undefined;
  if (agg === null || agg === undefined || typeof agg !== 'object') return undefined;
  return listOf(agg.clusterRoleSelectors) as LabelSelector[];
}

/** The rules `role` should hold, from the roles `all` (a lister's view). */
export function aggregateRules(role: ApiObject, all: readonly ApiObject[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const name = nameOf(role);
  const byName = [...all].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  for (const selector of selectorsOf(role) ?? []) {
    const matcher = labelSelectorAsMatcher(selector);
    for (const other of byName) {
      if (nameOf(other) === name || !matcher.matches(other.metadata?.labels ?? {})) continue;
      for (const rule of rulesOf(other)) if (!out.some((r) => sameRule(r, rule))) out.push(rule);
    }
  }
  return out;
}

export interface ClusterRoleAggregationControllerOptions {
  client: ApiClient;
  clusterRoles: SharedInformer;
  /** The RBAC group's clusterroles, in the served group name. */
  resource: GroupVersionResource;
  log: ControllerLogger;
  workers?: number;
  clock?: Clock;
}

export class ClusterRoleAggregationController {
  readonly queue: RateLimitingQueue<string>;
  private readonly unwatch: () => void;

  constructor(private readonly o: ClusterRoleAggregationControllerOptions) {
    this.queue = new RateLimitingQueue<string>({ clock: o.clock, name: 'ClusterRoleAggregator' });
    const enqueue = () => {
      for (const role of o.clusterRoles.lister.list())
        if (selectorsOf(role) !== undefined) this.queue.add(nameOf(role));
    };
    this.unwatch = watchAll([[o.clusterRoles, { add: enqueue, update: enqueue, delete: enqueue }]]);
  }

  async sync(name: string): Promise<void> {
    const role = this.o.clusterRoles.lister.get(name);
    if (role === undefined || selectorsOf(role) === undefined) return;
    const rules = aggregateRules(role, this.o.clusterRoles.lister.list());
    if (sameRules(rules, rulesOf(role))) return;
    const roles = this.o.client.resource(this.o.resource);
    const { group, version } = this.o.resource;
    try {
      await roles.apply(
        { apiVersion: `${group}/${version}`, kind: 'ClusterRole', metadata: { name }, rules },
        { fieldManager: AGGREGATION_FIELD_MANAGER, force: true },
      );
    } catch (err) {
      // A server without server-side apply: write the rules with an update instead.
      if (statusCode(err) !== 415) throw err;
      await roles.update({ ...role, rules }, { fieldManager: AGGREGATION_FIELD_MANAGER });
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.clusterRoles], signal);
    await runWorkers(this.queue, this.o.workers ?? AGGREGATION_WORKERS, (n) => this.sync(n), signal, {
      onError: (n, err) => this.o.log.error('error syncing ClusterRole', { name: n, err: messageOf(err) }),
    });
  }

  stop(): void {
    this.unwatch();
    this.queue.shutDown();
  }
}
