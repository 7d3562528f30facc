// The reconciliation's stores over the server's served resources: the RBAC kinds looked up by
// group, version and resource, each write recorded in managedFields under the API server's name as
// upstream's loopback client records it. Undefined while the RBAC kinds are not served.

import type { ApiObject } from '../../../machinery/object.ts';
import { componentName, groupName, type NamingProfile } from '../../../naming/profile.ts';
import { policyNames } from './names.ts';
import { defaultPolicy } from './policy.ts';
import { type PolicyStore, type PolicyStores, reconcileDefaultPolicy } from './reconcile.ts';

type Track = (live: ApiObject | null, next: ApiObject) => ApiObject;

/** What the reconciliation uses of a served resource (the server's ServedResource has it). */
export interface ServedPolicyResource {
  store: {
    get(namespace: string, name: string): Promise<ApiObject>;
    create(namespace: string, obj: ApiObject, opts?: { track?: Track }): Promise<ApiObject>;
    patch(
      namespace: string,
      name: string,
      change: (current: ApiObject) => ApiObject,
      opts?: { track?: Track },
    ): Promise<ApiObject>;
    delete(namespace: string, name: string): Promise<unknown>;
  };
  fields?(subresource: string): {
    update(live: ApiObject | null, next: ApiObject, manager: string): ApiObject;
  };
}

export function servedPolicyStores(
  lookup: (group: string, version: string, resource: string) => ServedPolicyResource | undefined,
  profile: NamingProfile,
): PolicyStores | undefined {
  const group = groupName(profile, 'rbac.authorization');
  const manager = componentName(profile, 'apiserver');
  const one = (resource: string): PolicyStore | undefined => {
    const r = lookup(group, 'v1', resource);
    if (r === undefined) return undefined;
    const fields = r.fields?.('');
    const track: Track | undefined = fields && ((live, next) => fields.update(live, next, manager));
    return {
      get: (ns, name) => r.store.get(ns, name),
      create: (ns, obj) => r.store.create(ns, obj, { track }),
      patch: (ns, name, change) => r.store.patch(ns, name, change, { track }),
      delete: (ns, name) => r.store.delete(ns, name),
    };
  };
  const clusterroles = one('clusterroles');
  const clusterrolebindings = one('clusterrolebindings');
  const roles = one('roles');
  const rolebindings = one('rolebindings');
  if (!clusterroles || !clusterrolebindings || !roles || !rolebindings) return undefined;
  return { clusterroles, clusterrolebindings, roles, rolebindings };
}

/** Reconciles the default policy through the served RBAC resources; resolves at once without them. */
export async function ensureDefaultPolicy(
  lookup: (group: string, version: string, resource: string) => ServedPolicyResource | undefined,
  profile: NamingProfile,
  log: (message: string) => void,
): Promise<void> {
  const stores = servedPolicyStores(lookup, profile);
  if (stores === undefined) return;
  const report = await reconcileDefaultPolicy(stores, defaultPolicy(profile), {
    autoupdateAnnotation: policyNames(profile).autoupdateAnnotation,
    warn: log,
  });
  if (report.failed.length > 0) {
    for (const f of report.failed) log(`unable to reconcile ${f.name}: ${f.error.message}`);
    throw new Error(`unable to reconcile ${report.failed.length} default RBAC objects`);
  }
}
