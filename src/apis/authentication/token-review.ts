// TokenReview: someone holding a bearer token asks whether this server's token authenticators
// accept it, and as whom (webhook token authenticators of other servers, aggregated APIs). Nothing
// is stored; the answer follows upstream's registry (pkg/registry/authentication/tokenreview):
// an empty token is a 400, audiences default to the API's, a token nobody accepts answers
// authenticated false with the reason in status.error, and an authenticator that claims audiences
// none of which were asked for is an internal error.

import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, internalError } from '../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition, ReviewRequest } from '../../registry/kind.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { reviewKind } from '../review-kind.ts';
import { USER_INFO, userInfoOf } from './user-info.ts';

/** The token authenticators of the server, as the authentication layer hands them over. */
export interface TokenReviewer {
  authenticateToken(
    token: string,
    audiences: readonly string[],
  ):
    | { user: ReviewedUser; audiences?: string[] }
    | { error: string }
    | null
    | Promise<{ user: ReviewedUser; audiences?: string[] } | { error: string } | null>;
  /** What a token must be good for when the review names no audiences (`--api-audiences`). */
  readonly apiAudiences: readonly string[];
}

type ReviewedUser = NonNullable<ReviewRequest['user']>;

/** Users every authenticated request carries, as upstream's chain adds it to whoever it accepts. */
const GROUP_AUTHENTICATED = 'system:authenticated';

interface TokenReviewShape extends ApiObject {
  spec?: { token?: string; audiences?: string[] };
  status?: Record<string, unknown>;
}

function schemaFor(group: string) {
  return compileKindSchema({
    group,
    version: 'v1',
    kind: 'TokenReview',
    description:
      'Asks whether a bearer token is accepted by this server, and if so for which user. Answers may be cached by the webhook token authenticator.',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        description: 'The token to check.',
        properties: {
          token: { type: 'string', description: 'The bearer token, opaque to the caller.', proto: 1 },
          audiences: {
            type: 'array',
            description:
              'What the token is to be accepted for; an audience-aware authenticator accepts it only when it was issued for one of them. Empty means the audiences of this API server.',
            items: { type: 'string' },
            listType: 'atomic',
            proto: 2,
          },
        },
        proto: 2,
      },
      status: {
        type: 'object',
        description: 'Filled in by the server: whether the token is accepted, and as whom.',
        properties: {
          authenticated: {
            type: 'boolean',
            description: 'True when the token was accepted.',
            proto: 1,
          },
          user: { ref: 'UserInfo', description: 'The user the token stands for.', proto: 2 },
          audiences: {
            type: 'array',
            description:
              'The audiences, among those asked for, the token is good for. An authenticator that does not deal in audiences is good for all of them. A client that asked for audiences should check that it is one of these.',
            items: { type: 'string' },
            listType: 'atomic',
            proto: 4,
          },
          error: {
            type: 'string',
            description:
              'Why the token could not be checked or was refused; authenticated may be false without an error.',
            proto: 3,
          },
        },
        proto: 3,
      },
    },
    definitions: { UserInfo: USER_INFO },
  });
}

async function review(
  reviewer: (() => TokenReviewer | undefined) | undefined,
  obj: ApiObject,
  req: ReviewRequest,
): Promise<ApiObject> {
  // Upstream echoes the review it was sent, metadata included (an empty one when none came).
  const tr = { ...obj, metadata: obj.metadata ?? {} } as TokenReviewShape;
  const token = tr.spec?.token ?? '';
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  await req.admit(tr);
  const tokens = reviewer?.();
  // A server without token authenticators answers the review as it came, as upstream does.
  if (tokens === undefined) return tr;
  const asked = tr.spec?.audiences ?? [];
  const audiences = asked.length > 0 ? asked : [...tokens.apiAudiences];
  const result = await tokens.authenticateToken(token, audiences);
  const status: Record<string, unknown> = {};
  if (result === null || 'error' in result) {
    // The same words the request path gives a refused bearer token (auth/authn/bearer-token.ts).
    status.user = {};
    status.error = result === null ? 'invalid bearer token' : `invalid bearer token, ${result.error}`;
    return { ...tr, status };
  }
  // An authenticator that does not deal in audiences is good for whatever was asked.
  const good = result.audiences ?? audiences;
  if (audiences.length > 0 && !good.some((a) => audiences.includes(a))) {
    throw internalError('error validating audiences');
  }
  const groups = result.user.groups.includes(GROUP_AUTHENTICATED)
    ? result.user.groups
    : [...result.user.groups, GROUP_AUTHENTICATED];
  status.authenticated = true;
  status.user = userInfoOf({ ...result.user, groups });
  if (good.length > 0) status.audiences = [...good];
  return { ...tr, status };
}

/** TokenReview, answered by the token authenticators the getter hands over once the server has them. */
export function tokenReviewKind(
  profile: NamingProfile,
  reviewer?: () => TokenReviewer | undefined,
): KindDefinition {
  return reviewKind({
    schema: schemaFor(groupName(profile, 'authentication')),
    resource: 'tokenreviews',
    namespaced: false,
    review: (obj, req) => review(reviewer, obj, req),
  });
}
