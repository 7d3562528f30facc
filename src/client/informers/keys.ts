// Cache keys as client-go's MetaNamespaceKeyFunc makes them: `namespace/name` for namespaced
// objects, `name` for cluster-scoped ones, so listers, work queues and controllers agree on them.

import type { ApiObject } from '../../machinery/object.ts';
import type { ObjectKey } from '../api.ts';

export function objectKey(obj: ApiObject): ObjectKey {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

/** The namespace ('' for cluster-scoped) and name of a key; throws on a key with more than one '/'. */
export function splitObjectKey(key: ObjectKey): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  throw new Error(`unexpected key format: ${JSON.stringify(key)}`);
}
