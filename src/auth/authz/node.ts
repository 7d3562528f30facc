// The Node mode's place in the chain. The Node authorizer decides what a node agent may read and
// write from the Pods bound to it, so it needs Pods and Nodes, which the workloads issue brings;
// until then the mode name is accepted (the default `Node,RBAC` and configuration files naming
// it keep working) and it has no opinion on any request, as upstream's has on non-node users.

import type { Authorizer } from './types.ts';

export const nodePlaceholder: Authorizer = { authorize: () => ({ decision: 'noOpinion', reason: '' }) };
