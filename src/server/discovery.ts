// Discovery documents: the legacy per-level documents (/api, /apis, /api/v1, /apis/<g>,
// /apis/<g>/<v>) and the aggregated v2 documents clients ask for with an Accept parameter.

import { groupVersionOf, type ResourceInfo } from '../registry/resource.ts';

export interface GroupVersions {
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
}

/** Groups in the order they are advertised, from the resources served. */
export function groupsOf(resources: ResourceInfo[]): GroupVersions[] {
  const out: GroupVersions[] = [];
  for (const r of resources) {
    let g = out.find((x) => x.name === r.group);
    if (g === undefined) {
      g = { name: r.group, versions: [] };
      out.push(g);
    }
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  return out;
}

export function apiVersionsDocument(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupDocument(g: GroupVersions) {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

export function apiGroupListDocument(groups: GroupVersions[]) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.filter((g) => g.name !== '').map(groupDocument),
  };
}

export function apiGroupDocument(g: GroupVersions) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(g) };
}

export function apiResourceListDocument(group: string, version: string, resources: ResourceInfo[]) {
  const list = [];
  for (const r of resources) {
    if (r.group !== group || r.version !== version) continue;
    list.push({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    });
    for (const [sub, verbs] of Object.entries(r.subresources)) {
      const other = r.subresourceKinds?.[sub];
      list.push({
        name: `${r.resource}/${sub}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(other === undefined
          ? { kind: r.kind }
          : { group: other.group, version: other.version, kind: other.kind }),
        verbs,
      });
    }
  }
  const gv = groupVersionOf({ group, version });
  // The core group's document has no apiVersion, as upstream's does not; clients accept both.
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: gv, resources: list }
    : {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: gv,
        resources: list,
      };
}

/** The aggregated document: every group (core only for /api, named groups for /apis). */
export function aggregatedDiscoveryDocument(
  apiVersion: string,
  groups: GroupVersions[],
  resources: ResourceInfo[],
) {
  const items = groups.map((g) => ({
    metadata: { name: g.name, creationTimestamp: null },
    versions: g.versions.map((v) => ({
      version: v,
      resources: resources
        .filter((r) => r.group === g.name && r.version === v)
        .map((r) => {
          const responseKind = { group: r.group, version: r.version, kind: r.kind };
          const subs = Object.entries(r.subresources).map(([subresource, verbs]) => ({
            subresource,
            responseKind: r.subresourceKinds?.[subresource] ?? responseKind,
            verbs,
          }));
          return {
            resource: r.resource,
            responseKind,
            scope: r.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: r.singular,
            verbs: r.verbs,
            ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
            ...(r.categories?.length ? { categories: r.categories } : {}),
            ...(subs.length > 0 ? { subresources: subs } : {}),
          };
        }),
      freshness: 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}
