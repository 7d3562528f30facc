// The loose shape every stored API object has. Kinds refine it with their own schema types; the
// storage and registry layers only rely on these metadata fields.

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: unknown[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** Returns the object's metadata, creating an empty one when it is missing. */
export function metaOf(obj: ApiObject): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null || typeof obj.metadata !== 'object') {
    obj.metadata = {};
  }
  return obj.metadata;
}
