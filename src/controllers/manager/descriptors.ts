// Every controller this manager can run, in the order they start. --controllers chooses among them
// (controllers-flag.ts knows every upstream name, including controllers not built yet).

import { bootstrapSignerDescriptor } from '../bootstrap-signer/index.ts';
import { clusterRoleAggregationControllerDescriptor } from '../clusterrole-aggregation/index.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { deploymentControllerDescriptor } from '../deployment/index.ts';
import { garbageCollectorControllerDescriptor } from '../garbage-collector/index.ts';
import { legacyServiceAccountTokenCleanerDescriptor } from '../legacy-serviceaccount-token-cleaner/index.ts';
import { namespaceControllerDescriptor } from '../namespace/index.ts';
import { podGCControllerDescriptor } from '../podgc/index.ts';
import { replicaSetControllerDescriptor } from '../replicaset/index.ts';
import { rootCACertPublisherDescriptor } from '../root-ca-cert-publisher/index.ts';
import { serviceAccountControllerDescriptor } from '../serviceaccount/index.ts';
import { serviceAccountTokenControllerDescriptor } from '../serviceaccount-token/index.ts';
import { tokenCleanerDescriptor } from '../token-cleaner/index.ts';

export function allControllerDescriptors(): ControllerDescriptor[] {
  return [
    serviceAccountTokenControllerDescriptor,
    namespaceControllerDescriptor,
    garbageCollectorControllerDescriptor,
    clusterRoleAggregationControllerDescriptor,
    serviceAccountControllerDescriptor,
    rootCACertPublisherDescriptor,
    bootstrapSignerDescriptor,
    tokenCleanerDescriptor,
    legacyServiceAccountTokenCleanerDescriptor,
    deploymentControllerDescriptor,
    replicaSetControllerDescriptor,
    podGCControllerDescriptor,
  ];
}
