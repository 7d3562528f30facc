// cel/: the one CEL engine wrapper. Environments (declared variables, libraries, limits), type
// declarations (types.ts, including typeFromSchema for structural schemas), compilation with
// cel-go-style errors, the program cache, evaluation that never throws, runtime cost tracking,
// and the upstream libraries under library/ (one file each, all of the CelLibrary shape).
// Only engine.ts imports the engine package, and nothing outside cel/ does.
// May import: machinery/, naming/ (and the engine package, from engine.ts only).

export {
  BASE_CEL_LIBRARIES,
  BASE_LIBRARIES,
  type BaseEnvironmentOptions,
  type BaseLibrary,
  baseEnvironment,
  NEW_EXPRESSIONS_COMPATIBILITY_VERSION,
} from './base-environment.ts';
export {
  type CompileError,
  type CompileOptions,
  type CompileResult,
  compile,
  type Program,
} from './compile.ts';
export { CostBudget, CostLimitExceeded } from './cost.ts';
export {
  type CallCost,
  type CallEstimate,
  callCost,
  type EstimateArg,
  type EstimateCall,
} from './cost-table.ts';
export {
  type Bounds,
  CONST_COST,
  comparisonCost,
  containsCost,
  LIST_CREATE_BASE_COST,
  LIST_LITERAL_BASE_COST,
  MAP_CREATE_BASE_COST,
  REGEX_STRING_LENGTH_COST_FACTOR,
  regexCost,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
  stringSize,
  stringTraversalCost,
  traversalCost,
  valueSize,
} from './costs.ts';
export {
  type CelFunction,
  type CelImpl,
  type CelLibrary,
  type CelOverload,
  type CostRange,
  createEnvironment,
  type Environment,
  type EnvironmentOptions,
  type Limits,
  type SizeRange,
} from './environment.ts';
export {
  estimateCost,
  estimateCostExact,
  type SizeDeclarations,
  type SizeEstimator,
} from './estimate.ts';
export {
  type SizedSchema,
  type SizeNode,
  sizesFromSchema,
  sizesFromTree,
  sizeTreeFromSchema,
} from './estimate-sizes.ts';
export { type EvalResult, type EvaluateOptions, evaluate } from './evaluate.ts';
export {
  AUTHZ_CHECK_COST,
  authorizerActivation,
  authzLibraries,
  authzLibrary,
  authzSelectorsLibrary,
  authzVariables,
  type CelAuthorizer,
  type CelAuthzAttributes,
  type CelAuthzDecision,
  type CelAuthzUser,
  type CelRequestResource,
} from './library/authz.ts';
export { CIDR_TYPE, cidrLibrary } from './library/cidr.ts';
export { FORMAT_TYPE, formatLibrary, NamedFormat } from './library/format.ts';
export { IP_TYPE, ipLibrary } from './library/ip.ts';
export { QUANTITY_TYPE, quantityLibrary } from './library/quantity.ts';
export { SEMVER_TYPE, semverLibrary } from './library/semver.ts';
export { CelURL, URL_TYPE, urlLibrary } from './library/url.ts';
export * from './limits.ts';
export { ProgramCache, programCache } from './program-cache.ts';
export {
  type CelType,
  type PrimitiveKind,
  type StructuralSchema,
  T,
  typeFromSchema,
  typeName,
} from './types.ts';
export { fromJson } from './values.ts';
