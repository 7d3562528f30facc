// What the reviews need of the server's authorization layer, declared here so that apis/ does not
// reach up into auth/: the authorizer chain and its rule resolver satisfy these shapes as they are.

import type { RequestUser } from '../../registry/kind.ts';

/** One selector condition as reviews and webhooks carry it (In, NotIn, Exists, DoesNotExist). */
export interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface ReviewAttributesRecord {
  user: RequestUser;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector?: SelectorRequirement[];
  labelSelector?: SelectorRequirement[];
}

export interface ReviewVerdict {
  decision: 'allow' | 'deny' | 'noOpinion';
  reason: string;
  error?: string;
}

export interface ReviewAuthorizer {
  authorize(a: ReviewAttributesRecord): ReviewVerdict | Promise<ReviewVerdict>;
}

export interface ReviewRulesResult {
  resourceRules: { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames: string[] }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface ReviewRuleResolver {
  rulesFor(user: RequestUser, namespace: string): ReviewRulesResult | Promise<ReviewRulesResult>;
}
