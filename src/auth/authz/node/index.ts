// The Node authorizer: who is a node (identity.ts), the graph of what each node's Pods name
// (graph.ts; what an object names is read by machinery/pod-references.ts), kept current from
// watched Pods and PersistentVolumes (graph-populator.ts, fed through types.ts's source), the
// decisions (authorizer.ts) and the fixed system:node rules with the rule listing (rules.ts). Imports auth/authn types, the RBAC rule
// matcher and the default policy beside it, machinery/ and naming/.

export * from './authorizer.ts';
export * from './create.ts';
export * from './graph.ts';
export * from './graph-populator.ts';
export * from './identity.ts';
export * from './rules.ts';
export type * from './types.ts';
