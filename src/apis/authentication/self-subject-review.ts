// SelfSubjectReview: the requesting user asks who the server takes them for (`kubectl auth whoami`).
// Nothing is stored; the answer is the request's user (with its uid and extra), stamped with the
// time of the answer, as upstream's registry does (pkg/registry/authentication/selfsubjectreview).

import type { ApiObject } from '../../machinery/object.ts';
import { badRequest } from '../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import { nowTimestamp } from '../../registry/generic-store.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { reviewKind } from '../review-kind.ts';
import { USER_INFO, userInfoOf } from './user-info.ts';

function schemaFor(group: string) {
  return compileKindSchema({
    group,
    version: 'v1',
    kind: 'SelfSubjectReview',
    description:
      'Tells the user making the request who the server takes them for. Under impersonation that is the impersonated user; extra keys that came through impersonation or request headers are reported in lowercase.',
    properties: {
      status: {
        type: 'object',
        description: 'Filled in by the server with what it knows of the requesting user.',
        properties: {
          userInfo: { ref: 'UserInfo', description: 'The requesting user.', proto: 1 },
        },
        proto: 2,
      },
    },
    definitions: { UserInfo: USER_INFO },
  });
}

export function selfSubjectReviewKind(profile: NamingProfile): KindDefinition {
  return reviewKind({
    schema: schemaFor(groupName(profile, 'authentication')),
    resource: 'selfsubjectreviews',
    namespaced: false,
    review: async (_obj, req): Promise<ApiObject> => {
      await req.admit(_obj);
      if (req.user === undefined) throw badRequest('no user present on request');
      return {
        metadata: { creationTimestamp: nowTimestamp() },
        status: { userInfo: userInfoOf(req.user) },
      };
    },
  });
}
