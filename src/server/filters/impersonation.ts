// Acting as someone else (`kubectl --as`, `--as-group`, `--as-uid`): the Impersonate-* headers name
// a user, groups, a uid and extra values; the authenticated requester must be allowed the verb
// `impersonate` on each of them, one authorization per value, and the request then runs as the
// user they describe. This is upstream's classic impersonation: the constrained modes of 1.35 are
// alpha and off by default there. Users, groups and service accounts are resources of the core
// group (as upstream checks them); uids and userextras belong to the authentication group.

import { headerValues, unescapeExtraKey } from '../../auth/authn/headers.ts';
import type { UserInfo } from '../../auth/authn/types.ts';
import type { Attributes, Authorizer } from '../../auth/authz/types.ts';
import { badRequest, forbiddenByAuthorization } from '../../machinery/status.ts';
import { nameIsDNSSubdomain, validateNamespaceName } from '../../machinery/validation/names.ts';
import type { Filter } from '../context.ts';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';

const ANONYMOUS = 'system:anonymous';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const SA_PREFIX = 'system:serviceaccount:';
const SA_GROUP = 'system:serviceaccounts';

/** One thing the requester asks to act as; printed like upstream's ObjectReference when malformed. */
interface Wanted {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  /** The extra key, for UserExtra. */
  fieldPath: string;
}

/** `system:serviceaccount:<ns>:<name>` with a valid namespace and name, as upstream splits it. */
export function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [ns, name] = parts;
  if (validateNamespaceName(ns, false).length > 0 || nameIsDNSSubdomain(name, false).length > 0) {
    return undefined;
  }
  return [ns, name];
}

/** Go's `%v` of an ObjectReference, the only way upstream's 400 names what was asked. */
function goString(w: Wanted): string {
  return `{${[w.kind, w.namespace, w.name, '', w.apiVersion, '', w.fieldPath].join(' ')}}`;
}

/** What the headers ask for, in upstream's order; a 400 when they ask for more than a user. */
export function impersonationRequests(headers: Map<string, string[]>, authenticationGroup: string): Wanted[] {
  const authnVersion = `${authenticationGroup}/v1`;
  const out: Wanted[] = [];
  const user = headers.get(USER_HEADER)?.[0] ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    out.push(
      sa !== undefined
        ? { kind: 'ServiceAccount', namespace: sa[0], name: sa[1], apiVersion: '', fieldPath: '' }
        : { kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' },
    );
  }
  const groups = headers.get(GROUP_HEADER) ?? [];
  for (const g of groups) out.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' });
  let hasExtra = false;
  for (const [name, values] of headers) {
    if (!name.startsWith(EXTRA_PREFIX)) continue;
    hasExtra = true;
    const key = unescapeExtraKey(name.slice(EXTRA_PREFIX.length));
    for (const v of values) {
      out.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: authnVersion, fieldPath: key });
    }
  }
  const uid = headers.get(UID_HEADER)?.[0] ?? '';
  if (uid !== '')
    out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: authnVersion, fieldPath: '' });
  if ((groups.length > 0 || hasExtra || uid !== '') && user === '') {
    throw badRequest(`requested [${out.map(goString).join(' ')}] without impersonating a user`);
  }
  return out;
}

function attributesFor(requestor: UserInfo, w: Wanted, authenticationGroup: string): Attributes {
  const core = w.kind === 'ServiceAccount' || w.kind === 'User' || w.kind === 'Group';
  const resource = {
    ServiceAccount: 'serviceaccounts',
    User: 'users',
    Group: 'groups',
    UserExtra: 'userextras',
    UID: 'uids',
  }[w.kind];
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    apiGroup: core ? '' : authenticationGroup,
    apiVersion: 'v1',
    resource,
    subresource: w.kind === 'UserExtra' ? w.fieldPath : '',
    namespace: w.namespace,
    name: w.name,
  };
}

/**
 * Checks each impersonation request with the authorizer and returns the user the request runs
 * as; undefined when the headers ask for nothing.
 */
export async function impersonate(
  authorizer: Authorizer,
  requestor: UserInfo,
  headers: Map<string, string[]>,
  authenticationGroup: string,
): Promise<UserInfo | undefined> {
  const wanted = impersonationRequests(headers, authenticationGroup);
  if (wanted.length === 0) return undefined;
  // Groups given are the whole list; without them a service account gets its fixed ones.
  const groupsGiven = (headers.get(GROUP_HEADER) ?? []).length > 0;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const w of wanted) {
    const a = attributesFor(requestor, w, authenticationGroup);
    switch (w.kind) {
      case 'ServiceAccount':
        username = `${SA_PREFIX}${w.namespace}:${w.name}`;
        if (!groupsGiven) groups = [SA_GROUP, `${SA_GROUP}:${w.namespace}`];
        break;
      case 'User':
        username = w.name;
        break;
      case 'Group':
        groups.push(w.name);
        break;
      case 'UserExtra':
        extra[w.fieldPath] = [...(extra[w.fieldPath] ?? []), w.name];
        break;
      case 'UID':
        uid = w.name;
        break;
    }
    const v = await authorizer.authorize(a);
    if (v.decision !== 'allow') {
      throw forbiddenByAuthorization(
        {
          user: requestor.username,
          verb: a.verb,
          resourceRequest: true,
          path: '',
          apiGroup: a.apiGroup,
          resource: a.resource,
          subresource: a.subresource,
          namespace: a.namespace,
          name: a.name,
        },
        v.reason,
      );
    }
  }
  if (username !== ANONYMOUS) {
    if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  } else if (!groups.includes(UNAUTHENTICATED)) {
    groups.push(UNAUTHENTICATED);
  }
  const user: UserInfo = { username, groups, extra };
  if (uid !== '') user.uid = uid;
  return user;
}

/** Names of the headers the filter consumes, so nothing after it acts on them again. */
function isImpersonationHeader(name: string): boolean {
  const k = name.toLowerCase();
  return k === USER_HEADER || k === GROUP_HEADER || k === UID_HEADER || k.startsWith(EXTRA_PREFIX);
}

export function impersonation(authorizer: Authorizer, authenticationGroup: string): Filter {
  return async (ctx, next) => {
    const raw = ctx.req.rawHeaders;
    // The common request carries none of the headers: one scan and no allocation beyond it.
    if (!raw.some((h, i) => i % 2 === 0 && isImpersonationHeader(h))) {
      await next();
      return;
    }
    const requestor = ctx.user ?? { username: '', groups: [] };
    const user = await impersonate(authorizer, requestor, headerValues(raw), authenticationGroup);
    if (user !== undefined) ctx.user = user;
    for (const name of Object.keys(ctx.req.headers)) {
      if (isImpersonationHeader(name)) delete ctx.req.headers[name];
    }
    await next();
  };
}
