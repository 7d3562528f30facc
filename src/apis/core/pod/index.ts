// The Pod kind and the pod template shared by workload kinds (Deployment, ReplicaSet): schema
// definitions, defaults, validation, the Pod's strategy, sub-resources and table columns. Imports
// machinery/, naming/, schema/, codec/ and registry/ only.

export * from './defaults.ts';
export { podGracePeriod, podKind, podSchema } from './kind.ts';
export { podQOSClass } from './qos.ts';
export * from './schema.ts';
export { POD_UPDATE_FORBIDDEN_MESSAGE } from './update-validation.ts';
export * from './validation.ts';
