// SubjectAccessReview (may this user do this?), LocalSubjectAccessReview (the same, confined to the
// namespace of the path) and SelfSubjectAccessReview (may I?, `kubectl auth can-i`): nothing is
// stored; the server's authorizer chain answers in status, as upstream's registries
// (pkg/registry/authorization) do, after upstream's validation (pkg/apis/authorization/validation).

import {
  type FieldError,
  type FieldPath,
  forbidden,
  invalid,
  newPath,
  required,
} from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, invalid as invalidStatus } from '../../machinery/status.ts';
import { isValidLabelValue, validateLabelName } from '../../machinery/validation/names.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition, ReviewRequest, RequestUser as UserInfo } from '../../registry/kind.ts';
import { reviewKind } from '../review-kind.ts';
import {
  type NonResourceAttributesSpec,
  nonResourceAttributesFrom,
  type ResourceAttributesSpec,
  type ReviewAttributes,
  resourceAttributesFrom,
  type SelectorAttributes,
} from './attributes.ts';
import { type AccessReviewKind, accessReviewSchema } from './schema.ts';
import type { ReviewAuthorizer as Authorizer, SelectorRequirement } from './types.ts';

interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributesSpec;
  nonResourceAttributes?: NonResourceAttributesSpec;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

interface AccessReview extends ApiObject {
  spec?: AccessReviewSpec;
}

/** Upstream's selector requirement checks, unknown operators let through (a newer client may know them). */
function requirementErrors(r: SelectorRequirement, p: FieldPath, label: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const key = r.key ?? '';
  const values = r.values ?? [];
  if (!label && key === '') errs.push(required(p.child('key'), 'must be specified'));
  if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 0) {
    errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  }
  if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length > 0) {
    errs.push(
      forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    );
  }
  if (label) {
    errs.push(...validateLabelName(key, p.child('key')));
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(i), v, msg));
    });
  }
  return errs;
}

function selectorErrors(s: SelectorAttributes | undefined, p: FieldPath, label: boolean): FieldError[] {
  if (s === undefined || s === null) return [];
  const errs: FieldError[] = [];
  const raw = s.rawSelector ?? '';
  const reqs = s.requirements ?? [];
  if (raw !== '' && reqs.length > 0) {
    errs.push(invalid(p.child('rawSelector'), raw, 'may not specified at the same time as requirements'));
  }
  if (raw === '' && reqs.length === 0) {
    errs.push(
      required(
        p.child('requirements'),
        `when ${p.toString()} is specified, requirements or rawSelector is required`,
      ),
    );
  }
  reqs.forEach((r, i) => {
    errs.push(...requirementErrors(r, p.child('requirements').index(i), label));
  });
  return errs;
}

function specErrors(spec: AccessReviewSpec, self: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const p = newPath('spec');
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra !== undefined && nra !== undefined) {
    errs.push(
      invalid(
        p.child('nonResourceAttributes'),
        nra,
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (ra === undefined && nra === undefined) {
    errs.push(
      invalid(
        p.child('resourceAttributes'),
        null,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  if (!self && (spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push(invalid(p.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  }
  if (ra !== undefined) {
    const rp = newPath('spec', 'resourceAttributes');
    errs.push(...selectorErrors(ra.fieldSelector, rp.child('fieldSelector'), false));
    errs.push(...selectorErrors(ra.labelSelector, rp.child('labelSelector'), true));
  }
  return errs;
}

/** Metadata counts as empty when nothing but managed fields (and, for the local form, the namespace) is set. */
function metadataSet(meta: Record<string, unknown>, except: readonly string[]): boolean {
  return Object.entries(meta).some(([k, v]) => {
    if (k === 'managedFields' || except.includes(k)) return false;
    if (v === null || v === undefined || v === '' || v === 0) return false;
    if (Array.isArray(v)) return v.length > 0;
    if (typeof v === 'object') return Object.keys(v).length > 0;
    return true;
  });
}

function validate(kind: AccessReviewKind, obj: AccessReview): FieldError[] {
  const spec = obj.spec ?? {};
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const errs = specErrors(spec, kind === 'SelfSubjectAccessReview');
  if (kind !== 'LocalSubjectAccessReview') {
    if (metadataSet(meta, [])) errs.push(invalid(newPath('metadata'), meta, 'must be empty'));
    return errs;
  }
  if (metadataSet(meta, ['namespace'])) {
    errs.push(invalid(newPath('metadata'), meta, 'must be empty except for namespace'));
  }
  const ns = obj.metadata?.namespace ?? '';
  if (spec.resourceAttributes !== undefined && (spec.resourceAttributes.namespace ?? '') !== ns) {
    errs.push(
      invalid(
        newPath('spec', 'resourceAttributes', 'namespace'),
        spec.resourceAttributes.namespace ?? '',
        'must match metadata.namespace',
      ),
    );
  }
  if (spec.nonResourceAttributes !== undefined) {
    errs.push(
      invalid(
        newPath('spec', 'nonResourceAttributes'),
        spec.nonResourceAttributes,
        'disallowed on this kind of request',
      ),
    );
  }
  return errs;
}

function subjectOf(spec: AccessReviewSpec): UserInfo {
  const user: UserInfo = { username: spec.user ?? '', groups: [...(spec.groups ?? [])] };
  if (spec.uid) user.uid = spec.uid;
  if (spec.extra !== undefined) user.extra = spec.extra;
  return user;
}

function attributesOf(user: UserInfo, spec: AccessReviewSpec): ReviewAttributes {
  return spec.resourceAttributes !== undefined
    ? resourceAttributesFrom(user, spec.resourceAttributes)
    : nonResourceAttributesFrom(user, spec.nonResourceAttributes ?? {});
}

async function review(
  kind: AccessReviewKind,
  group: string,
  authorizer: (() => Authorizer | undefined) | undefined,
  obj: ApiObject,
  req: ReviewRequest,
): Promise<ApiObject> {
  const sar = { ...obj, metadata: { ...(obj.metadata ?? {}) } } as AccessReview;
  // As for any create: the path's namespace fills in an object without one, an object naming
  // another is refused, and a cluster-scoped kind's object loses the namespace it names.
  const meta = sar.metadata ?? {};
  sar.metadata = meta;
  if (kind !== 'LocalSubjectAccessReview') delete meta.namespace;
  else if ((meta.namespace ?? '') === '') meta.namespace = req.namespace;
  else if (meta.namespace !== req.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const errs = validate(kind, sar);
  if (errs.length > 0) throw invalidStatus({ group, kind }, '', errs);
  if (kind === 'LocalSubjectAccessReview') {
    if (req.namespace === '') throw badRequest(`namespace is required on this type: ${req.namespace}`);
    if (req.namespace !== sar.metadata?.namespace) {
      throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${req.namespace}`);
    }
  }
  await req.admit(sar);
  let user: UserInfo;
  if (kind === 'SelfSubjectAccessReview') {
    if (req.user === undefined) throw badRequest('no user present on request');
    user = req.user;
  } else {
    user = subjectOf(sar.spec ?? {});
  }
  const { attributes, selectorErrors } = attributesOf(user, sar.spec ?? {});
  const authz = authorizer?.();
  const verdict =
    authz !== undefined ? await authz.authorize(attributes) : { decision: 'noOpinion', reason: '' };
  const status: Record<string, unknown> = { allowed: verdict.decision === 'allow' };
  if (verdict.decision === 'deny') status.denied = true;
  if (verdict.reason !== '') status.reason = verdict.reason;
  const evaluation = [...('error' in verdict && verdict.error ? [verdict.error] : []), ...selectorErrors];
  if (evaluation.length > 0) status.evaluationError = evaluation.join('; ');
  return { ...sar, status };
}

export function accessReviewKind(
  profile: NamingProfile,
  kind: AccessReviewKind,
  authorizer?: () => Authorizer | undefined,
): KindDefinition {
  const group = groupName(profile, 'authorization');
  return reviewKind({
    schema: accessReviewSchema(group, kind),
    resource: `${kind.toLowerCase()}s`,
    namespaced: kind === 'LocalSubjectAccessReview',
    review: (obj, req) => review(kind, group, authorizer, obj, req),
  });
}
