// From a review's spec to the attributes the authorizer is asked about, as upstream's registry
// helpers build them: an empty version means all versions; selectors are parsed, and one that does
// not parse is dropped (all or in part) and reported in status.evaluationError rather than refused,
// since dropping a condition only widens the question.

import { parseFieldSelector } from '../../machinery/fields.ts';
import { type LabelRequirement, newRequirement, parseLabelSelector } from '../../machinery/labels.ts';
import type { RequestUser as UserInfo } from '../../registry/kind.ts';
import type { ReviewAttributesRecord as Attributes, SelectorRequirement } from './types.ts';

export interface ResourceAttributesSpec {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: SelectorAttributes;
  labelSelector?: SelectorAttributes;
}

export interface SelectorAttributes {
  rawSelector?: string;
  requirements?: SelectorRequirement[];
}

export interface NonResourceAttributesSpec {
  path?: string;
  verb?: string;
}

/** The attributes, and which selectors were dropped (wholly or in part) for not parsing. */
export interface ReviewAttributes {
  attributes: Attributes;
  selectorErrors: string[];
}

const LABEL_OPERATORS: Record<string, string> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

function labelRequirementOut(r: LabelRequirement): SelectorRequirement | undefined {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return { key: r.key, operator: 'In', values: [...r.values] };
    case 'notin':
    case '!=':
      return { key: r.key, operator: 'NotIn', values: [...r.values] };
    case 'exists':
      return { key: r.key, operator: 'Exists' };
    case '!':
      return { key: r.key, operator: 'DoesNotExist' };
    default:
      return undefined;
  }
}

/** [requirements, whether something was dropped]. */
function labelRequirements(s: SelectorAttributes): [SelectorRequirement[], boolean] {
  if ((s.requirements ?? []).length > 0) {
    const out: SelectorRequirement[] = [];
    let failed = false;
    for (const r of s.requirements ?? []) {
      const op = LABEL_OPERATORS[r.operator];
      try {
        if (op === undefined) throw new Error('unknown operator');
        const values = r.values !== undefined && r.values.length > 0 ? r.values : null;
        const req = labelRequirementOut(newRequirement(r.key, op, values));
        if (req !== undefined) out.push(req);
      } catch {
        failed = true;
      }
    }
    return [out, failed];
  }
  try {
    const m = parseLabelSelector(s.rawSelector ?? '');
    return [m.requirements.map(labelRequirementOut).filter((r) => r !== undefined), false];
  } catch {
    return [[], true];
  }
}

function fieldRequirements(s: SelectorAttributes): [SelectorRequirement[], boolean] {
  if ((s.requirements ?? []).length > 0) {
    const out: SelectorRequirement[] = [];
    let failed = false;
    for (const r of s.requirements ?? []) {
      // Field selectors compare with one value only; Exists and DoesNotExist have no meaning yet.
      if ((r.operator === 'In' || r.operator === 'NotIn') && r.values?.length === 1) {
        out.push({ key: r.key, operator: r.operator, values: [r.values[0]] });
      } else failed = true;
    }
    return [out, failed];
  }
  try {
    const m = parseFieldSelector(s.rawSelector ?? '');
    return [
      m.requirements.map((r) => ({
        key: r.field,
        operator: r.operator === '!=' ? 'NotIn' : 'In',
        values: [r.value],
      })),
      false,
    ];
  } catch {
    return [[], true];
  }
}

export function resourceAttributesFrom(user: UserInfo, spec: ResourceAttributesSpec): ReviewAttributes {
  const attributes: Attributes = {
    user,
    verb: spec.verb ?? '',
    isResourceRequest: true,
    path: '',
    apiGroup: spec.group ?? '',
    apiVersion: spec.version || '*',
    resource: spec.resource ?? '',
    subresource: spec.subresource ?? '',
    namespace: spec.namespace ?? '',
    name: spec.name ?? '',
  };
  const selectorErrors: string[] = [];
  const note = (which: string, reqs: SelectorRequirement[], failed: boolean) => {
    if (!failed) return;
    selectorErrors.push(
      `spec.resourceAttributes.${which} ${reqs.length > 0 ? 'partially ignored' : 'ignored'} due to parse error`,
    );
  };
  if (spec.fieldSelector !== undefined) {
    const [reqs, failed] = fieldRequirements(spec.fieldSelector);
    if (reqs.length > 0) attributes.fieldSelector = reqs;
    note('fieldSelector', reqs, failed);
  }
  if (spec.labelSelector !== undefined) {
    const [reqs, failed] = labelRequirements(spec.labelSelector);
    if (reqs.length > 0) attributes.labelSelector = reqs;
    note('labelSelector', reqs, failed);
  }
  return { attributes, selectorErrors };
}

export function nonResourceAttributesFrom(user: UserInfo, spec: NonResourceAttributesSpec): ReviewAttributes {
  return {
    attributes: {
      user,
      verb: spec.verb ?? '',
      isResourceRequest: false,
      path: spec.path ?? '',
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
    },
    selectorErrors: [],
  };
}
