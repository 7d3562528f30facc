// The Node mode's place in the chain. The Node authorizer decides what a node agent may read and
// write from the Pods bound to it, so it needs Pods and Nodes, which the workloads issue brings;
// until then the mode name is accepted (the default `Node,RBAC` and configuration files naming
// it keep working) and it has no opinion on any request, as upstream's has on non-node users.
// Its rule listing is already upstream's: a node's permissions come from a graph walked per
// request, so for a node identity the list is flagged incomplete; other users get nothing from it.

import type { UserInfo } from '../authn/types.ts';
import type { Authorizer, RuleResolver, RulesResult } from './types.ts';

const NODE_USER_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';

/** The node a user speaks for, or undefined when it is no node identity (upstream's rule). */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

export const nodePlaceholder: Authorizer & RuleResolver = {
  authorize: () => ({ decision: 'noOpinion', reason: '' }),
  rulesFor(user: UserInfo): RulesResult {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    if (nodeIdentity(user) === undefined) return out;
    out.incomplete = true;
    out.evaluationError = 'node authorizer does not support user rule resolution';
    return out;
  },
};
