// OpenAPI extension keys that stock clients read by name (kubectl finds kinds in OpenAPI documents
// by the group-version-kind extension); they are upstream's spelling whatever the profile.

export const OPENAPI_EXTENSIONS = {
  groupVersionKind: 'x-kubernetes-group-version-kind',
  action: 'x-kubernetes-action',
  listType: 'x-kubernetes-list-type',
  listMapKeys: 'x-kubernetes-list-map-keys',
  mapType: 'x-kubernetes-map-type',
  structType: 'x-kubernetes-map-type',
  patchStrategy: 'x-kubernetes-patch-strategy',
  patchMergeKey: 'x-kubernetes-patch-merge-key',
  intOrString: 'x-kubernetes-int-or-string',
  preserveUnknownFields: 'x-kubernetes-preserve-unknown-fields',
  embeddedResource: 'x-kubernetes-embedded-resource',
} as const;

/** Reversed group domain, the stem of OpenAPI definition names: `io.svc` for `svc.io`. */
export function definitionDomain(groupDomain: string): string {
  return groupDomain.split('.').reverse().join('.');
}
