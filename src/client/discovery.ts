// What the server serves, resource by resource: group, version (the group's preferred one marked),
// resource, kind, scope, verbs and subresources. The garbage collector and the namespace controller
// need "every listable, watchable, deletable resource", and it changes as custom resources come and
// go, so the answer is cached until refresh() is called. Asked first as aggregated discovery (two
// requests for everything, as client-go does), falling back to the legacy documents (/api, /apis,
// then one request per group version) when the server does not offer it. A group version that fails
// (an unavailable aggregated API) is left out and reported in `failed`, as client-go reports a
// partial discovery.

import { UPSTREAM_ALIASES } from '../naming/index.ts';
import type { RestClient } from './rest-client.ts';

export interface DiscoveredResource {
  /** '' for the core group. */
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  /** Subresource names (`status`, `scale`). */
  subresources: string[];
  singularName?: string;
  shortNames?: string[];
  categories?: string[];
  /** Whether `version` is the group's preferred version. */
  preferred: boolean;
}

export interface DiscoveryResult {
  resources: DiscoveredResource[];
  /** Group versions that could not be read, with why (`apps/v1`, or `v1` for the core group). */
  failed: Record<string, string>;
}

export interface DiscoveryOptions {
  /** Use the legacy documents even when the server offers aggregated discovery. */
  legacyOnly?: boolean;
  signal?: AbortSignal;
}

const AGGREGATED_ACCEPT = ['v2', 'v2beta1']
  .map((v) => `application/json;g=${UPSTREAM_ALIASES.discoveryGroup};v=${v};as=APIGroupDiscoveryList`)
  .concat('application/json')
  .join(',');

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
const gvKey = (group: string, version: string) => (group === '' ? version : `${group}/${version}`);

export class Discovery {
  private cached: Promise<DiscoveryResult> | undefined;

  constructor(
    private readonly rest: RestClient,
    private readonly opts: DiscoveryOptions = {},
  ) {}

  /** Every served resource in every served version (cached until refresh()). */
  all(): Promise<DiscoveryResult> {
    if (this.cached === undefined) {
      const run = this.discover();
      this.cached = run;
      // A failed discovery is not kept: the next call asks again.
      run.catch(() => {
        if (this.cached === run) this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** Forgets what was discovered; the next call asks the server again. */
  refresh(): void {
    this.cached = undefined;
  }

  /** Resources in their group's preferred version. */
  async preferred(): Promise<DiscoveredResource[]> {
    return (await this.all()).resources.filter((r) => r.preferred);
  }

  /** Preferred-version resources that support every verb given (`['list', 'watch', 'delete']`). */
  async withVerbs(verbs: readonly string[]): Promise<DiscoveredResource[]> {
    return (await this.preferred()).filter((r) => verbs.every((v) => r.verbs.includes(v)));
  }

  /** A resource by group and plural name, in the preferred version unless one is given. */
  async find(group: string, resource: string, version?: string): Promise<DiscoveredResource | undefined> {
    const { resources } = await this.all();
    return resources.find(
      (r) =>
        r.group === group &&
        r.resource === resource &&
        (version === undefined ? r.preferred : r.version === version),
    );
  }

  private get(path: string, accept = 'application/json'): Promise<{ doc: Obj; contentType: string }> {
    return this.rest.send({ method: 'GET', path, accept, signal: this.opts.signal }).then((res) => ({
      doc: JSON.parse(res.body.toString('utf8')) as Obj,
      contentType: String(res.headers['content-type'] ?? ''),
    }));
  }

  private async discover(): Promise<DiscoveryResult> {
    if (!this.opts.legacyOnly) {
      const [core, groups] = await Promise.all([
        this.get('/api', AGGREGATED_ACCEPT),
        this.get('/apis', AGGREGATED_ACCEPT),
      ]);
      if (
        core.contentType.includes('APIGroupDiscoveryList') &&
        groups.contentType.includes('APIGroupDiscoveryList')
      ) {
        const out: DiscoveryResult = { resources: [], failed: {} };
        for (const d of [core.doc, groups.doc]) aggregated(d, out);
        return out;
      }
      return this.legacy(core.doc, groups.doc);
    }
    const [core, groups] = await Promise.all([this.get('/api'), this.get('/apis')]);
    return this.legacy(core.doc, groups.doc);
  }

  private async legacy(core: Obj, groups: Obj): Promise<DiscoveryResult> {
    const targets: { group: string; version: string; preferred: boolean; path: string }[] = [];
    strs(core.versions).forEach((v, i) => {
      targets.push({ group: '', version: v, preferred: i === 0, path: `/api/${v}` });
    });
    for (const g of arr(groups.groups)) {
      const name = String(g.name ?? '');
      const preferredVersion = String((g.preferredVersion as Obj | undefined)?.version ?? '');
      arr(g.versions).forEach((v, i) => {
        const version = String(v.version ?? '');
        const preferred = preferredVersion === '' ? i === 0 : version === preferredVersion;
        targets.push({ group: name, version, preferred, path: `/apis/${name}/${version}` });
      });
    }
    const out: DiscoveryResult = { resources: [], failed: {} };
    const lists = await Promise.allSettled(targets.map((t) => this.get(t.path)));
    lists.forEach((res, i) => {
      const t = targets[i]!;
      if (res.status === 'rejected') {
        out.failed[gvKey(t.group, t.version)] = (res.reason as Error).message;
        return;
      }
      const entries = arr(res.value.doc.resources);
      const subs = new Map<string, string[]>();
      for (const e of entries) {
        const [parent, sub] = String(e.name ?? '').split('/');
        if (sub !== undefined && parent !== undefined) subs.set(parent, [...(subs.get(parent) ?? []), sub]);
      }
      for (const e of entries) {
        const name = String(e.name ?? '');
        if (name.includes('/')) continue;
        out.resources.push({
          group: t.group,
          version: t.version,
          resource: name,
          kind: String(e.kind ?? ''),
          namespaced: e.namespaced === true,
          verbs: strs(e.verbs),
          subresources: subs.get(name) ?? [],
          ...optional(e.singularName, e.shortNames, e.categories),
          preferred: t.preferred,
        });
      }
    });
    return out;
  }
}

function optional(singular: unknown, shortNames: unknown, categories: unknown): Partial<DiscoveredResource> {
  const out: Partial<DiscoveredResource> = {};
  if (typeof singular === 'string' && singular !== '') out.singularName = singular;
  if (strs(shortNames).length > 0) out.shortNames = strs(shortNames);
  if (strs(categories).length > 0) out.categories = strs(categories);
  return out;
}

/** One APIGroupDiscoveryList into `out`: versions are listed preferred first. */
function aggregated(doc: Obj, out: DiscoveryResult): void {
  for (const item of arr(doc.items)) {
    const group = String((item.metadata as Obj | undefined)?.name ?? '');
    arr(item.versions).forEach((v, i) => {
      const version = String(v.version ?? '');
      if (v.freshness === 'Stale') {
        out.failed[gvKey(group, version)] = 'stale discovery document';
        return;
      }
      for (const r of arr(v.resources)) {
        out.resources.push({
          group,
          version,
          resource: String(r.resource ?? ''),
          kind: String((r.responseKind as Obj | undefined)?.kind ?? ''),
          namespaced: r.scope === 'Namespaced',
          verbs: strs(r.verbs),
          subresources: arr(r.subresources).map((s) => String(s.subresource ?? '')),
          ...optional(r.singularResource, r.shortNames, r.categories),
          preferred: i === 0,
        });
      }
    });
  }
}
