// The core group (path /api/v1): Namespace, ConfigMap, Secret, ServiceAccount.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { configMapKind } from './configmap.ts';
import { namespaceKind } from './namespace.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';

export function coreKinds(profile: NamingProfile): KindDefinition[] {
  return [namespaceKind(profile), configMapKind, secretKind(profile), serviceAccountKind];
}
