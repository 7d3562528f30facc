// The clusterrole-aggregation controller: aggregated ClusterRoles (admin, edit, view and any with
// an aggregationRule) hold the union of the rules of the ClusterRoles their selectors match. The
// in-server copy (in-server-aggregation.ts) runs inside the API server until it moves to the
// controller manager.

export * from './in-server-aggregation.ts';
