// SelfSubjectRulesReview: what the requesting user may do in a namespace (`kubectl auth can-i
// --list`), from the rule resolvers of the authorizer chain (RBAC's index; AlwaysAllow lists
// everything). Nothing is stored. As upstream's registry: a namespace is required (400), the
// answer is all the resolvers found, `incomplete` when one of them cannot list its rules, and an
// error while resolving is reported in status.evaluationError beside the rules that were found.

import type { ApiObject } from '../../machinery/object.ts';
import { badRequest } from '../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { reviewKind } from '../review-kind.ts';
import { rulesReviewSchema } from './schema.ts';
import type { ReviewRuleResolver as RuleResolver } from './types.ts';

export function rulesReviewKind(
  profile: NamingProfile,
  resolver?: () => RuleResolver | undefined,
): KindDefinition {
  return reviewKind({
    schema: rulesReviewSchema(groupName(profile, 'authorization')),
    resource: 'selfsubjectrulesreviews',
    namespaced: false,
    review: async (obj, req): Promise<ApiObject> => {
      if (req.user === undefined) throw badRequest('no user present on request');
      const spec = (obj as { spec?: { namespace?: string } }).spec ?? {};
      const namespace = spec.namespace ?? '';
      if (namespace === '') throw badRequest('no namespace on request');
      await req.admit(obj);
      const rules = (await resolver?.()?.rulesFor(req.user, namespace)) ?? {
        resourceRules: [],
        nonResourceRules: [],
        // A server without a resolver cannot say what it would allow.
        incomplete: true,
      };
      const status: Record<string, unknown> = {
        resourceRules: rules.resourceRules.map((r) => {
          const out: Record<string, unknown> = { verbs: [...r.verbs] };
          if (r.apiGroups.length > 0) out.apiGroups = [...r.apiGroups];
          if (r.resources.length > 0) out.resources = [...r.resources];
          if (r.resourceNames.length > 0) out.resourceNames = [...r.resourceNames];
          return out;
        }),
        nonResourceRules: rules.nonResourceRules.map((r) => {
          const out: Record<string, unknown> = { verbs: [...r.verbs] };
          if (r.nonResourceURLs.length > 0) out.nonResourceURLs = [...r.nonResourceURLs];
          return out;
        }),
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      // Upstream answers a fresh object: the spec it was asked is not echoed.
      return { metadata: {}, spec: {}, status };
    },
  });
}
