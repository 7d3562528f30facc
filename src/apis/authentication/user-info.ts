// The user as the authentication API reports it (TokenReview's status.user, SelfSubjectReview's
// status.userInfo), and the conversion from the user authentication produced. The authorization
// reviews name users the same way (their spec.extra has this shape too).

import type { RequestUser } from '../../registry/kind.ts';
import type { SchemaNode } from '../../schema/types.ts';

/**
 * A list of strings that upstream's protobuf wraps in a message of its own (ExtraValue): JSON
 * shows the list, the wire a message holding it at field 1.
 */
export const EXTRA_VALUE: SchemaNode = {
  type: 'array',
  items: { type: 'string' },
  protoType: 'StringList',
};

export const USER_INFO: SchemaNode = {
  type: 'object',
  description: 'What authentication established about a user: the facts authorization decides on.',
  properties: {
    username: {
      type: 'string',
      description: 'The name that identifies the user among all users.',
      proto: 1,
    },
    uid: {
      type: 'string',
      description:
        'A value that identifies this user over time: a user removed and another added under the same name get different UIDs.',
      proto: 2,
    },
    groups: {
      type: 'array',
      description: 'The groups the user belongs to.',
      items: { type: 'string' },
      listType: 'atomic',
      proto: 3,
    },
    extra: {
      type: 'object',
      description: 'Further facts the authenticator recorded about the user, by key.',
      additionalProperties: EXTRA_VALUE,
      proto: 4,
    },
  },
};

/**
 * The wire form of a user: empty fields left out (they are omitempty upstream), extra as given.
 */
export function userInfoOf(user: RequestUser): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (user.username !== '') out.username = user.username;
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  const extra = user.extra ?? {};
  if (Object.keys(extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}
