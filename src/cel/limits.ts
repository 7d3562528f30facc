// Upstream's CEL limits in one place, each with where kube-apiserver 1.35 applies it, so every
// caller (custom resource validation, admission policies and match conditions, authentication
// and authorization configuration, DeviceClass and ResourceClaim selectors) passes the same
// figures upstream does. Values were read from k8s.io/apiserver v0.35.x,
// k8s.io/apiextensions-apiserver v0.35.x, k8s.io/api resource/v1 and
// k8s.io/dynamic-resource-allocation v0.35.x; the file each comes from is named beside it.
// The size helpers reproduce how upstream bounds values a schema leaves unbounded: by what fits
// in one request (pkg/cel/common/schemas.go).

// --- runtime limits -------------------------------------------------------------------------------

/**
 * Cost limit of one evaluation of one expression (apiserver pkg/apis/cel/config.go PerCallLimit).
 * Every program built from upstream's base environment gets it (pkg/cel/environment/base.go,
 * cel.CostLimit): custom resource rules and messageExpressions, ValidatingAdmissionPolicy and
 * MutatingAdmissionPolicy expressions, admission webhook matchConditions, authentication
 * configuration claim validation rules and claim/user mappings, authorization webhook
 * matchConditions. Exceeding it stops the evaluation with COST_LIMIT_EXCEEDED_MESSAGE.
 */
export const PER_CALL_LIMIT = 1_000_000;

/**
 * Total runtime cost of all expressions evaluated for one object (apiserver pkg/apis/cel/config.go
 * RuntimeCELCostBudget): all x-kubernetes-validations rules of one custom resource write
 * (apiextensions pkg/registry/customresource/strategy.go and status_strategy.go), and all
 * expressions of one ValidatingAdmissionPolicyBinding (policy/validating/dispatcher.go) or one
 * MutatingAdmissionPolicy patch (policy/mutating/dispatcher.go). Past it: OUT_OF_BUDGET_MESSAGE.
 */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

/**
 * Total runtime cost of the matchConditions of one admission webhook for one request (apiserver
 * pkg/apis/cel/config.go RuntimeCELCostBudgetMatchConditions, used by
 * pkg/admission/plugin/webhook/matchconditions/matcher.go).
 */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;

/**
 * DeviceClass and ResourceClaim CEL selectors (k8s.io/api resource/v1 types.go
 * CELSelectorExpressionMaxCost): both the static limit checked when the object is written
 * (kubernetes pkg/apis/resource/validation: DRA_COST_EXCEEDED_MESSAGE) and the runtime per-call
 * limit of the selector program (dynamic-resource-allocation/cel/compile.go cel.CostLimit).
 */
export const CEL_SELECTOR_EXPRESSION_MAX_COST = 1_000_000;

/** Longest DeviceClass/ResourceClaim selector expression (resource/v1 CELSelectorExpressionMaxLength). */
export const CEL_SELECTOR_EXPRESSION_MAX_LENGTH = 10 * 1024;

/** Longest string a CRD rule's messageExpression may produce (config.go MaxEvaluatedMessageExpressionSizeBytes). */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

// --- static (estimated) limits --------------------------------------------------------------------

/**
 * Largest estimated worst-case cost of one CRD x-kubernetes-validations rule or messageExpression,
 * multiplied by how many times the rule can run in one object (apiextensions
 * pkg/apis/apiextensions/validation/validation.go StaticEstimatedCostLimit). Checked when a CRD is
 * created or updated: a field.Forbidden with costExceedsBudgetMessage('estimated rule cost', ...).
 */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/**
 * Largest sum of the estimated costs of all rules of one CRD version's schema (validation.go
 * StaticEstimatedCRDCostLimit); message: costExceedsBudgetMessage('x-kubernetes-validations
 * estimated rule cost total for entire OpenAPIv3 schema', ...).
 */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

// --- sizes ------------------------------------------------------------------------------------------

/**
 * Largest request the estimator assumes (apiserver pkg/apis/cel/config.go MaxRequestSizeBytes,
 * fixed even if the server's own limit is configured otherwise): strings, lists and maps a schema
 * does not bound are bounded by what fits in one request of this size.
 */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** Minimum serialized sizes upstream assumes for JSON values (apiserver pkg/cel/limits.go). */
export const MIN_SERIALIZED_SIZE = Object.freeze({
  /** `""` */
  string: 2,
  /** `true` */
  bool: 4,
  /** `0` */
  number: 1,
  /** `"0"`: Go parses a bare 0 as a duration */
  duration: 3,
  /** `"YYYY-MM-DD"` */
  date: 12,
  /** `"YYYY-MM-DDTHH:MM:SSZ"` */
  dateTime: 21,
  /** `[]` or `{}` */
  container: 2,
  /** an x-kubernetes-int-or-string `0` */
  intOrString: 1,
});

/** Longest duration and date-time strings, quotes included (pkg/cel/limits.go). */
export const MAX_DURATION_SIZE_JSON = 32;
export const MAX_DATETIME_SIZE_JSON = 32;
/** A date's size, quotes included (pkg/cel/limits.go JSONDateSize). */
export const JSON_DATE_SIZE = 12;
/** Largest format name and regular expression of the format library (pkg/cel/limits.go). */
export const MAX_FORMAT_SIZE = 64;
export const MAX_NAME_FORMAT_REGEX_SIZE = 128;

/** An unbounded string's length: the request minus its quotes (schemas.go estimateMaxStringLengthPerRequest). */
export function maxStringLengthPerRequest(): number {
  return MAX_REQUEST_SIZE_BYTES - 2;
}

/** Items of `minSize` bytes that fit in one request, with a comma each (schemas.go estimateMaxArrayItemsFromMinSize). */
export function maxListItemsFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));
}

/** Map entries whose value is `minSize` bytes: `"":v,` each (schemas.go estimateMaxAdditionalPropertiesFromMinSize). */
export function maxMapPropertiesFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));
}

/**
 * How many times a value of `minSize` bytes can occur in one request: the multiplier of a CRD
 * rule under unbounded lists or maps (apiextensions pkg/apiserver/schema/cel/compilation.go
 * maxCardinality).
 */
export function maxCardinality(minSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));
}

/**
 * The sizes the DRA selector estimator declares for `device` (dynamic-resource-allocation
 * cel/compile.go, from k8s.io/api resource/v1 types.go): attribute and capacity maps hold at most
 * ResourceSliceMaxAttributesAndCapacitiesPerDevice entries, keyed by a domain (DeviceMaxDomainLength)
 * and then an ID (DeviceMaxIDLength); attribute values are at most DeviceAttributeMaxValueLength.
 */
export const DRA_SIZES = Object.freeze({
  driverNameMaxLength: 63,
  deviceMaxDomainLength: 63,
  deviceMaxIDLength: 32,
  deviceAttributeMaxValueLength: 64,
  resourceSliceMaxAttributesAndCapacitiesPerDevice: 32,
});

// --- messages ---------------------------------------------------------------------------------------

/** cel-go's error when one evaluation passes its limit (interpreter/runtimecost.go). */
export const COST_LIMIT_EXCEEDED_MESSAGE = 'operation cancelled: actual cost limit exceeded';

/**
 * When the expressions of one object or binding together pass their budget (apiextensions
 * pkg/apiserver/schema/cel/validation.go, apiserver pkg/admission/plugin/cel/activation.go).
 */
export const OUT_OF_BUDGET_MESSAGE =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** A DRA selector whose estimate passes CEL_SELECTOR_EXPRESSION_MAX_COST (pkg/apis/resource/validation). */
export const DRA_COST_EXCEEDED_MESSAGE = 'too complex, exceeds cost limit';

/**
 * The CRD rule message for an estimate over its limit (validation.go getCostErrorMessage):
 * `estimated rule cost exceeds budget by factor of 1.500000x (try simplifying ...)`; the factor
 * keeps six decimals under 1.5, one from 1.5, and reads "more than 100x" past 100.
 */
export function costExceedsBudgetMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
