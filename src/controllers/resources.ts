// What an in-process controller sees of the server: each served resource's names and its store.

import type { GenericStore } from '../registry/generic-store.ts';
import type { ResourceInfo } from '../registry/resource.ts';

export interface ControlledResource {
  kind: { resource: ResourceInfo };
  store: GenericStore;
}

/** `apiVersion` and `kind` of a resource, as ownerReferences name it. */
export function typeKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

export function apiVersionOf(r: ResourceInfo): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** Status code of a registry error, if it has one. */
export function codeOf(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}
