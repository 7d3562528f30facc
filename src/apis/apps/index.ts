// The apps group: Deployment and ReplicaSet over the shared pod template, with their scale views.

import type { KindDefinition } from '../../registry/kind.ts';
import { deploymentKind } from './deployment.ts';
import { replicaSetKind } from './replicaset.ts';

export const appsKinds: KindDefinition[] = [deploymentKind, replicaSetKind];
export { scaleView } from './scale.ts';
