// The clusterrole-aggregation controller: aggregated ClusterRoles (admin, edit, view and any with
// an aggregationRule) hold the union of the rules of the ClusterRoles their selectors match.

export * from './clusterrole-aggregation.ts';
