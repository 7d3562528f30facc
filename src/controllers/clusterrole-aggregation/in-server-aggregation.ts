// In-server copy, run by src/server/server.ts over the registry's stores until the server starts the
// controller manager instead; the controller built on the client lives beside it in this folder.
// The clusterrole-aggregation controller (upstream's name): a ClusterRole with an aggregationRule
// has its rules kept equal to the union of the rules of every other ClusterRole its selectors
// match, in name order, each rule once. Any ClusterRole change re-examines every aggregated role
// (the set is small and roles may aggregate aggregated roles, as admin -> edit -> view do), and a
// write happens only when the union differs from what is stored. Writes re-read the object and
// are retried on conflict; they are recorded under the controller's field manager.

import { type LabelSelector, labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { WireWatch } from '../../registry/generic-store.ts';
import { type ControlledResource, updateWithRetries } from '../resources.ts';
import { WorkQueue } from '../work-queue.ts';

/** Upstream's field manager for the aggregated rules. */
export const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

const RULE_FIELDS = ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs', 'verbs'] as const;

type Rule = Record<string, unknown>;

interface Known {
  name: string;
  labels: Record<string, string>;
  selectors: LabelSelector[] | undefined;
  rules: Rule[];
}

function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Semantic equality of rules as upstream compares them: a missing list equals an empty one. */
export function sameRule(a: Rule, b: Rule): boolean {
  for (const f of RULE_FIELDS) {
    const x = listOf(a[f]);
    const y = listOf(b[f]);
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

function sameRules(a: readonly Rule[], b: readonly Rule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i]));
}

function known(obj: ApiObject): Known {
  const agg = obj.aggregationRule as { clusterRoleSelectors?: unknown } | null | undefined;
  const selectors =
    agg !== null && agg !== undefined && typeof agg === 'object'
      ? (listOf(agg.clusterRoleSelectors) as LabelSelector[])
      : undefined;
  return {
    name: String(obj.metadata?.name ?? ''),
    labels: obj.metadata?.labels ?? {},
    selectors,
    rules: listOf(obj.rules).filter((r): r is Rule => r !== null && typeof r === 'object'),
  };
}

export interface ClusterRoleAggregationOptions {
  /** The RBAC API group (canonical name) whose clusterroles are aggregated. */
  group: string;
  log?: (message: string) => void;
  /** The field manager its writes are recorded under; upstream's by default. */
  manager?: string;
}

export class ClusterRoleAggregation {
  private readonly resource: ControlledResource | undefined;
  private readonly roles = new Map<string, Known>();
  private readonly queue = new WorkQueue(
    (name) => this.sync(name),
    (name, err) => this.log(`clusterrole-aggregation: ${name}: ${err.message}; retrying`),
  );
  private watch: WireWatch | undefined;
  private readonly log: (message: string) => void;
  private readonly manager: string;

  constructor(resources: readonly ControlledResource[], options: ClusterRoleAggregationOptions) {
    this.resource = resources.find(
      (r) => r.kind.resource.group === options.group && r.kind.resource.resource === 'clusterroles',
    );
    this.log = options.log ?? (() => {});
    this.manager = options.manager ?? AGGREGATION_MANAGER;
  }

  async start(): Promise<void> {
    if (this.resource === undefined) return;
    await this.relist(this.resource);
  }

  stop(): void {
    this.queue.stop();
    this.watch?.stop();
  }

  /** Resolves once nothing is queued or in progress (tests wait on this). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private get stopped(): boolean {
    return this.queue.stopped;
  }

  private async relist(r: ControlledResource): Promise<void> {
    if (this.stopped) return;
    const list = await r.store.list('');
    this.roles.clear();
    for (const item of list.items) this.observe(item);
    this.enqueueAggregated();
    this.follow(r, list.metadata.resourceVersion);
  }

  private follow(r: ControlledResource, revision: string): void {
    const watch = r.store.watch('', { revision: Number(revision) });
    this.watch = watch;
    void (async () => {
      try {
        for await (const ev of watch) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.observe(ev.object);
          else if (ev.type === 'DELETED') this.roles.delete(String(ev.object.metadata?.name ?? ''));
          else if (ev.type === 'ERROR') throw new Error(String(ev.object.message ?? 'watch failed'));
          else continue;
          this.enqueueAggregated();
        }
        if (!this.stopped) throw new Error('watch ended');
      } catch (err) {
        if (this.stopped) return;
        this.log(`clusterrole-aggregation: watch failed, relisting: ${(err as Error).message}`);
        await this.relist(r).catch((e: Error) => this.log(`clusterrole-aggregation: relist: ${e.message}`));
      }
    })();
  }

  private observe(obj: ApiObject): void {
    const k = known(obj);
    if (k.name !== '') this.roles.set(k.name, k);
  }

  private enqueueAggregated(): void {
    for (const role of this.roles.values()) if (role.selectors !== undefined) this.queue.add(role.name);
  }

  /** The rules the role should hold: every other matching role's rules, by name, each once. */
  aggregate(role: Known): Rule[] {
    const out: Rule[] = [];
    const others = [...this.roles.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const selector of role.selectors ?? []) {
      const matcher = labelSelectorAsMatcher(selector);
      for (const other of others) {
        if (other.name === role.name || !matcher.matches(other.labels)) continue;
        for (const rule of other.rules) if (!out.some((r) => sameRule(r, rule))) out.push(rule);
      }
    }
    return out;
  }

  private async sync(name: string): Promise<void> {
    const role = this.roles.get(name);
    if (role === undefined || role.selectors === undefined || this.resource === undefined) return;
    const rules = this.aggregate(role);
    if (sameRules(rules, role.rules)) return;
    await updateWithRetries(
      this.resource,
      '',
      name,
      (current) => (sameRules(rules, known(current).rules) ? undefined : { ...current, rules }),
      this.manager,
    );
  }
}
