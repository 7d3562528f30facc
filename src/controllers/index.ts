// Controllers: loops that drive stored state toward what it declares, run by the controller
// manager (manager/: configuration, --controllers, leader election, its secure port). Each folder
// is one controller exporting a ControllerDescriptor (controller.ts); they reach the API only
// through client/, never through registry/ or storage/. Imports client/, machinery/ and naming/.

export * from './bootstrap-signer/index.ts';
export * from './clusterrole-aggregation/index.ts';
export type * from './controller.ts';
export * from './garbage-collector/index.ts';
export * from './legacy-serviceaccount-token-cleaner/index.ts';
export * from './manager/controller-manager.ts';
export { allControllerDescriptors } from './manager/descriptors.ts';
export * from './namespace/index.ts';
export * from './root-ca-cert-publisher/index.ts';
export * from './serviceaccount/index.ts';
export * from './serviceaccount-token/index.ts';
export * from './token-cleaner/index.ts';
