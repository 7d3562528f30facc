// The core group (path /api/v1): Namespace, ConfigMap, Secret, ServiceAccount, and the kinds of
// running workloads: Pod (workload-kinds.ts), Node and Event (cluster-kinds.ts).

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { clusterCoreKinds } from './cluster-kinds.ts';
import { configMapKind } from './configmap.ts';
import { standardFinalizers, validateMetadataFinalizers } from './finalizer-names.ts';
import { namespaceKind } from './namespace.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';
import { workloadCoreKinds } from './workload-kinds.ts';

/** Adds the rules upstream's core ObjectMeta validation has beyond the generic one. */
export function withCoreMetadataRules(kind: KindDefinition, standard: ReadonlySet<string>): KindDefinition {
  const validate = kind.strategy.validate;
  return {
    ...kind,
    strategy: {
      ...kind.strategy,
      validate: (obj) => [...validateMetadataFinalizers(obj, standard), ...validate(obj)],
    },
  };
}

export function coreKinds(profile: NamingProfile): KindDefinition[] {
  const standard = standardFinalizers(profile);
  return [
    namespaceKind(profile),
    configMapKind,
    secretKind(profile),
    serviceAccountKind,
    ...workloadCoreKinds(profile),
    ...clusterCoreKinds(profile),
  ].map((k) => withCoreMetadataRules(k, standard));
}
