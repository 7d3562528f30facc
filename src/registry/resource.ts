// How a resource presents itself: names, scope, verbs and sub-resources. Discovery, routing,
// OpenAPI and the generic store all read the same definition.

export interface ResourceNames {
  group: string;
  version: string;
  /** Plural, lowercase: the path segment. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames?: string[];
  categories?: string[];
}

export interface ResourceInfo extends ResourceNames {
  namespaced: boolean;
  verbs: string[];
  /** Sub-resource name to its verbs, e.g. status -> get, patch, update. */
  subresources: Record<string, string[]>;
  /** Sub-resources whose bodies are another kind (scale -> autoscaling/v1 Scale); filled by the server. */
  subresourceKinds?: Record<string, { group: string; version: string; kind: string }>;
}

export const STANDARD_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/** `v1` for the core group, `<group>/<version>` otherwise. */
export function groupVersionOf(r: { group: string; version: string }): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}
