// Who a node agent is: upstream's default node identifier. A user is a node when its name starts
// with `system:node:` and it is in the `system:nodes` group; the rest of the name is the node's.

import type { UserInfo } from '../../authn/types.ts';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

/** The node a user speaks for ('' when the name is missing), or undefined for other users. */
export function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (user === undefined) return undefined;
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}
