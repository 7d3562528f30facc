// Who a node agent is (upstream's default node identifier), shared by the Node authorizer and the
// NodeRestriction admission plugin: a user whose name starts with `system:node:` and who is in the
// `system:nodes` group speaks for the node named by the rest of its name.

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

/** The node a user speaks for ('' when the name is missing), or undefined for other users. */
export function nodeIdentity(
  user: { readonly username: string; readonly groups: readonly string[] } | undefined,
): string | undefined {
  if (user === undefined) return undefined;
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}
