// The selectors of a list, watch or deletecollection as authorization attributes (upstream's
// AuthorizeWithSelectors, on by default in 1.35): each parsed requirement in the form
// SubjectAccessReview carries (In, NotIn, Exists, DoesNotExist). A selector that does not parse,
// or whose requirements have no such form (gt, lt), is left out, as upstream leaves it; the
// request itself reports the parse error later.

import { parseFieldSelector } from '../../machinery/fields.ts';
import { type LabelOperator, parseLabelSelector } from '../../machinery/labels.ts';
import type { SelectorRequirement } from './types.ts';

const SELECTING_VERBS = new Set(['list', 'watch', 'deletecollection']);

const LABEL_OPERATORS: Partial<Record<LabelOperator, string>> = {
  in: 'In',
  '=': 'In',
  '==': 'In',
  notin: 'NotIn',
  '!=': 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

function fieldRequirements(text: string): SelectorRequirement[] | undefined {
  try {
    const reqs = parseFieldSelector(text).requirements.map((r) => ({
      key: r.field,
      operator: r.operator === '!=' ? 'NotIn' : 'In',
      values: [r.value],
    }));
    return reqs.length > 0 ? reqs : undefined;
  } catch {
    return undefined;
  }
}

function labelRequirements(text: string): SelectorRequirement[] | undefined {
  try {
    const out: SelectorRequirement[] = [];
    for (const r of parseLabelSelector(text).requirements) {
      const operator = LABEL_OPERATORS[r.operator];
      if (operator === undefined) continue;
      const values = [...r.values].sort();
      out.push(values.length > 0 ? { key: r.key, operator, values } : { key: r.key, operator });
    }
    return out.length > 0 ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The request's selector attributes; empty for other verbs and for requests without selectors. */
export function selectorAttributes(
  verb: string,
  query: URLSearchParams,
): { fieldSelector?: SelectorRequirement[]; labelSelector?: SelectorRequirement[] } {
  if (!SELECTING_VERBS.has(verb)) return {};
  const out: { fieldSelector?: SelectorRequirement[]; labelSelector?: SelectorRequirement[] } = {};
  const fs = query.get('fieldSelector');
  if (fs) {
    const reqs = fieldRequirements(fs);
    if (reqs !== undefined) out.fieldSelector = reqs;
  }
  const ls = query.get('labelSelector');
  if (ls) {
    const reqs = labelRequirements(ls);
    if (reqs !== undefined) out.labelSelector = reqs;
  }
  return out;
}
