// Who a node agent is: upstream's default node identifier, kept in machinery/ so that the
// NodeRestriction admission plugin, below this layer, applies the same rule.

export { NODE_USER_PREFIX, NODES_GROUP, nodeIdentity } from '../../../machinery/node-identity.ts';
