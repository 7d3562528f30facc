// The controller manager's configuration: the types of PlatControllerManagerConfiguration,
// CloudControllerManagerConfiguration and LeaderMigrationConfiguration (upstream's v1alpha1 types
// and JSON names, brand words from naming/), their strict decoding from YAML or JSON with upstream's
// defaults, upstream's validation rules as field-error lists, the --controllers list, and the flags
// that set fields over a file. Imports machinery/ and naming/ only (and the yaml parser).

export * from './controllers-flag.ts';
export * from './decode.ts';
export * from './defaults.ts';
export { defaultLeaderMigration } from './defaults-generic.ts';
export * from './flags.ts';
export * from './go-duration.ts';
export type * from './types-cloud.ts';
export type * from './types-controllers.ts';
export type * from './types-generic.ts';
export * from './validate.ts';
export {
  validateClientConnection,
  validateGeneric,
  validateLeaderElection,
  validateLeaderMigration,
} from './validate-generic.ts';
