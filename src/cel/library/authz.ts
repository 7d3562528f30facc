// Upstream's authorizer library for CEL in admission (k8s.io/apiserver pkg/cel/library/authz.go,
// "kubernetes.authz", and "kubernetes.authzSelectors", on in every 1.35 environment since the
// AuthorizeWithSelectors gate went GA in 1.34):
//   authorizer.group(g).resource(r).subresource(s).namespace(n).name(n)
//     .fieldSelector(f).labelSelector(l).check(verb) -> Decision
//   authorizer.path(p).check(verb)      authorizer.serviceAccount(ns, name) -> Authorizer
//   authorizer.requestResource.check(verb)   (the request's own resource; a qualified variable)
//   Decision: allowed(), reason(), errored(), error()
// The decisions come from a CelAuthorizer the caller passes in with the requesting user
// (authorizerActivation). CEL evaluation is synchronous, so the authorizer must answer
// synchronously: a caller whose authorizer is asynchronous (webhooks) resolves the decisions it
// may need beforehand or answers from a cache, as upstream's admission wraps its authorizer in a
// caching one. `check()` costs 350000, as upstream charges it (two checks fit in the per-call limit).

import { nameIsDNSSubdomain, validateNamespaceName } from '../../machinery/validation/index.ts';
import type { CelLibrary, CelOverload } from '../environment.ts';
import { type CelType, T } from '../types.ts';

/** The requesting user, as authentication describes it. */
export interface CelAuthzUser {
  username: string;
  uid?: string;
  groups: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** What one check asks: a resource request (group, resource...) or a non-resource path. */
export interface CelAuthzAttributes {
  user: CelAuthzUser;
  verb: string;
  /** True for group/resource checks, false for path checks. */
  isResourceRequest: boolean;
  group: string;
  /** Always `*`: a CEL check names no version. */
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** Set for path checks. */
  path?: string;
  /** The selectors as written in the expression (unparsed); set only when not empty. */
  fieldSelector?: string;
  labelSelector?: string;
}

export interface CelAuthzDecision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason: string;
  /** Set when the authorizer failed (Decision.errored() is then true). */
  error?: string;
}

/**
 * The authorizer behind `authorizer` in CEL. Synchronous: CEL evaluation cannot wait, so an
 * asynchronous authorizer must be pre-resolved or answered from a cache by the caller.
 */
export interface CelAuthorizer {
  authorize(attrs: CelAuthzAttributes): CelAuthzDecision;
}

/** Upstream's cost of one check(): "set to allow for only two authorization checks per expression". */
export const AUTHZ_CHECK_COST = 350_000;

export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
export const PATH_CHECK_TYPE = 'kubernetes.authorization.PathCheck';
export const GROUP_CHECK_TYPE = 'kubernetes.authorization.GroupCheck';
export const RESOURCE_CHECK_TYPE = 'kubernetes.authorization.ResourceCheck';
export const DECISION_TYPE = 'kubernetes.authorization.Decision';

export class AuthorizerValue {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly user: CelAuthzUser,
  ) {}
}

export class PathCheckValue {
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {}
}

export class GroupCheckValue {
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {}
}

interface ResourceCheckFields {
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

/** A resource check under construction; each builder call returns a new one. */
export class ResourceCheckValue {
  constructor(
    readonly groupCheck: GroupCheckValue,
    readonly fields: Readonly<ResourceCheckFields>,
  ) {}
  with(patch: Partial<ResourceCheckFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.groupCheck, { ...this.fields, ...patch });
  }
}

export class DecisionValue {
  constructor(readonly result: Readonly<CelAuthzDecision>) {}
}

const SA_USER_PREFIX = 'system:serviceaccount:';
const SA_GROUP = 'system:serviceaccounts';

/** The user a service account authenticates as (upstream's serviceaccount.UserInfo). */
function serviceAccountUser(namespace: string, name: string): CelAuthzUser {
  return {
    username: `${SA_USER_PREFIX}${namespace}:${name}`,
    groups: [SA_GROUP, `${SA_GROUP}:${namespace}`],
  };
}

function decide(authz: AuthorizerValue, attrs: CelAuthzAttributes): DecisionValue {
  let result: CelAuthzDecision;
  try {
    result = authz.authorizer.authorize(attrs);
  } catch (err) {
    return new DecisionValue({
      decision: 'no-opinion',
      reason: '',
      error: err instanceof Error ? err.message : String(err),
    });
  }
  if (typeof (result as unknown as { then?: unknown }).then === 'function') {
    throw new Error(
      'the authorizer answered asynchronously; CEL checks need a synchronous (pre-resolved or cached) authorizer',
    );
  }
  return new DecisionValue(result);
}

function resourceCheck(rc: ResourceCheckValue, verb: string): DecisionValue {
  const f = rc.fields;
  const attrs: CelAuthzAttributes = {
    user: rc.groupCheck.authz.user,
    verb,
    isResourceRequest: true,
    group: rc.groupCheck.group,
    apiVersion: '*',
    resource: f.resource,
    subresource: f.subresource,
    namespace: f.namespace,
    name: f.name,
  };
  if (f.fieldSelector !== '') attrs.fieldSelector = f.fieldSelector;
  if (f.labelSelector !== '') attrs.labelSelector = f.labelSelector;
  return decide(rc.groupCheck.authz, attrs);
}

function pathCheck(pc: PathCheckValue, verb: string): DecisionValue {
  return decide(pc.authz, {
    user: pc.authz.user,
    verb,
    isResourceRequest: false,
    group: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: pc.path,
  });
}

const AUTHORIZER = T.opaque(AUTHORIZER_TYPE);
const PATH_CHECK = T.opaque(PATH_CHECK_TYPE);
const GROUP_CHECK = T.opaque(GROUP_CHECK_TYPE);
const RESOURCE_CHECK = T.opaque(RESOURCE_CHECK_TYPE);
const DECISION = T.opaque(DECISION_TYPE);

function member(
  name: string,
  id: string,
  receiver: CelType,
  params: readonly CelType[],
  result: CelType,
  impl: CelOverload['impl'],
  extra: Partial<CelOverload> = {},
) {
  return { name, overloads: [{ id, receiver, params, result, impl, ...extra }] };
}

const setter = (key: keyof ResourceCheckFields) => (rc: ResourceCheckValue, v: string) =>
  rc.with({ [key]: v });

/** Upstream's fixed cost of a check, the whole call's (a hook replaces the 1 a call costs). */
const CHECK_COST: Partial<CelOverload> = {
  cost: () => AUTHZ_CHECK_COST,
  estimateCost: () => ({ min: AUTHZ_CHECK_COST, max: AUTHZ_CHECK_COST }),
};

export const authzLibrary: CelLibrary = {
  name: 'kubernetes.authz',
  types: [
    { name: AUTHORIZER_TYPE, ctor: AuthorizerValue },
    { name: PATH_CHECK_TYPE, ctor: PathCheckValue },
    { name: GROUP_CHECK_TYPE, ctor: GroupCheckValue },
    { name: RESOURCE_CHECK_TYPE, ctor: ResourceCheckValue },
    { name: DECISION_TYPE, ctor: DecisionValue },
  ],
  functions: [
    member(
      'path',
      'authorizer_path',
      AUTHORIZER,
      [T.string],
      PATH_CHECK,
      (a: AuthorizerValue, path: string) => {
        if (path.trim() === '') throw new Error('path must not be empty');
        return new PathCheckValue(a, path);
      },
    ),
    member(
      'group',
      'authorizer_group',
      AUTHORIZER,
      [T.string],
      GROUP_CHECK,
      (a: AuthorizerValue, g: string) => new GroupCheckValue(a, g),
    ),
    member(
      'serviceAccount',
      'authorizer_serviceaccount',
      AUTHORIZER,
      [T.string, T.string],
      AUTHORIZER,
      (a: AuthorizerValue, namespace: string, name: string) => {
        if (nameIsDNSSubdomain(name, false).length > 0) throw new Error('Invalid service account name');
        if (validateNamespaceName(namespace, false).length > 0)
          throw new Error('Invalid service account namespace');
        return new AuthorizerValue(a.authorizer, serviceAccountUser(namespace, name));
      },
    ),
    member(
      'resource',
      'groupcheck_resource',
      GROUP_CHECK,
      [T.string],
      RESOURCE_CHECK,
      (g: GroupCheckValue, r: string) => {
        if (r.trim() === '') throw new Error('resource must not be empty');
        return new ResourceCheckValue(g, {
          resource: r,
          subresource: '',
          namespace: '',
          name: '',
          fieldSelector: '',
          labelSelector: '',
        });
      },
    ),
    member(
      'subresource',
      'resourcecheck_subresource',
      RESOURCE_CHECK,
      [T.string],
      RESOURCE_CHECK,
      setter('subresource'),
    ),
    member(
      'namespace',
      'resourcecheck_namespace',
      RESOURCE_CHECK,
      [T.string],
      RESOURCE_CHECK,
      setter('namespace'),
    ),
    member('name', 'resourcecheck_name', RESOURCE_CHECK, [T.string], RESOURCE_CHECK, setter('name')),
    {
      name: 'check',
      overloads: [
        {
          id: 'pathcheck_check',
          receiver: PATH_CHECK,
          params: [T.string],
          result: DECISION,
          impl: pathCheck,
          ...CHECK_COST,
        },
        {
          id: 'resourcecheck_check',
          receiver: RESOURCE_CHECK,
          params: [T.string],
          result: DECISION,
          impl: resourceCheck,
          ...CHECK_COST,
        },
      ],
    },
    member(
      'errored',
      'decision_errored',
      DECISION,
      [],
      T.bool,
      (d: DecisionValue) => d.result.error !== undefined,
    ),
    member('error', 'decision_error', DECISION, [], T.string, (d: DecisionValue) => d.result.error ?? ''),
    member(
      'allowed',
      'decision_allowed',
      DECISION,
      [],
      T.bool,
      (d: DecisionValue) => d.result.decision === 'allow',
    ),
    member('reason', 'decision_reason', DECISION, [], T.string, (d: DecisionValue) => d.result.reason),
  ],
};

/** fieldSelector / labelSelector on resource checks; needs authzLibrary (its ResourceCheck type). */
export const authzSelectorsLibrary: CelLibrary = {
  name: 'kubernetes.authzSelectors',
  functions: [
    member(
      'fieldSelector',
      'authorizer_fieldselector',
      RESOURCE_CHECK,
      [T.string],
      RESOURCE_CHECK,
      setter('fieldSelector'),
    ),
    member(
      'labelSelector',
      'authorizer_labelselector',
      RESOURCE_CHECK,
      [T.string],
      RESOURCE_CHECK,
      setter('labelSelector'),
    ),
  ],
};

/** Both authorizer libraries, as a 1.35 admission environment has them. */
export const authzLibraries: readonly CelLibrary[] = [authzLibrary, authzSelectorsLibrary];

/** The variable names admission declares: `authorizer` and the qualified `authorizer.requestResource`. */
export const AUTHORIZER_VAR = 'authorizer';
export const REQUEST_RESOURCE_VAR = 'authorizer.requestResource';

/** Declarations of the authorizer variables, to spread into an environment's `variables`. */
export function authzVariables(): Record<string, CelType> {
  return { [AUTHORIZER_VAR]: AUTHORIZER, [REQUEST_RESOURCE_VAR]: RESOURCE_CHECK };
}

/** The resource of the request under admission (its version plays no part in checks). */
export interface CelRequestResource {
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/**
 * The activation entries for `authorizer` (checks as `user`) and, when the request is for a
 * resource, `authorizer.requestResource` (a resource check preset to that resource), as upstream's
 * NewAuthorizerVal and NewResourceAuthorizerVal build them.
 */
export function authorizerActivation(
  authorizer: CelAuthorizer,
  user: CelAuthzUser,
  requestResource?: CelRequestResource,
): Record<string, unknown> {
  const authz = new AuthorizerValue(authorizer, user);
  const out: Record<string, unknown> = { [AUTHORIZER_VAR]: authz };
  if (requestResource !== undefined) {
    out[REQUEST_RESOURCE_VAR] = new ResourceCheckValue(new GroupCheckValue(authz, requestResource.group), {
      resource: requestResource.resource,
      subresource: requestResource.subresource ?? '',
      namespace: requestResource.namespace ?? '',
      name: requestResource.name ?? '',
      fieldSelector: '',
      labelSelector: '',
    });
  }
  return out;
}
