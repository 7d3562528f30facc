// NamespaceLifecycle: nothing new is created in a namespace that does not exist or is being
// terminated, and the namespaces the system relies on can never be deleted.

import type { ApiObject } from '../machinery/object.ts';
import { forbidden, notFound } from '../machinery/status.ts';
import type { AdmissionAttributes, ValidatingPlugin } from './types.ts';

export interface NamespaceLookup {
  /** The namespace, or undefined when it does not exist. */
  get(name: string): Promise<ApiObject | undefined>;
}

const NAMESPACES = { group: '', resource: 'namespaces' };

function isTerminating(ns: ApiObject): boolean {
  const status = ns.status as { phase?: string } | undefined;
  return status?.phase === 'Terminating' || ns.metadata?.deletionTimestamp !== undefined;
}

export function namespaceLifecycle(lookup: NamespaceLookup, immortal: readonly string[]): ValidatingPlugin {
  return {
    name: 'NamespaceLifecycle',
    async validate(a: AdmissionAttributes) {
      if (a.group === '' && a.resource === 'namespaces') {
        if (a.operation === 'DELETE' && a.subresource === '' && immortal.includes(a.name)) {
          throw forbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.namespaced || a.operation !== 'CREATE' || a.namespace === '') return;
      const ns = await lookup.get(a.namespace);
      if (ns === undefined) throw notFound(NAMESPACES, a.namespace);
      if (isTerminating(ns)) {
        const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
        const err = forbidden({ group: a.group, resource: a.resource }, a.name, message);
        const details = err.status.details ?? {};
        details.causes = [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }];
        err.status.details = details;
        throw err;
      }
    },
  };
}
