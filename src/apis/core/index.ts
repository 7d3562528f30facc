// The core group (path /api/v1): Namespace, ConfigMap, Secret, ServiceAccount.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { configMapKind } from './configmap.ts';
import { standardFinalizers, validateMetadataFinalizers } from './finalizer-names.ts';
import { namespaceKind } from './namespace.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';

/** Adds the rules upstream's core ObjectMeta validation has beyond the generic one. */
function withCoreMetadataRules(kind: KindDefinition, standard: ReadonlySet<string>): KindDefinition {
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
  return [namespaceKind(profile), configMapKind, secretKind(profile), serviceAccountKind].map((k) =>
    withCoreMetadataRules(k, standard),
  );
}
