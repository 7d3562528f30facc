// TokenRequest, the `token` sub-resource of ServiceAccounts: a client posts the audiences, lifetime
// and binding it wants and gets a signed token back; nothing is stored. Upstream's rules
// (pkg/registry/core/serviceaccount/storage/token.go): name and namespace in the body must match
// the path, audiences default to the API's, the lifetime defaults to an hour and is at least ten
// minutes, the server's maximum shortens it with a warning, a binding names an existing Pod,
// Secret or Node (with its uid when given), and a Pod-bound token of exactly 3607 s for the API's
// audiences is issued for a year with a `warnafter` at the nominal expiry, which is what status
// reports. The signing lives in the authentication layer; this file holds the API's side.

import { invalid as fieldInvalid, newPath } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { badRequest, conflict, invalid, notFound } from '../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import { upstreamAuthenticationGroup } from '../../naming/service-accounts.ts';
import type { SubresourceAction, SubresourceActionRequest } from '../../registry/subresource-action.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { KindSchema } from '../../schema/types.ts';

/** The nominal lifetime that marks a projected volume's token for extension (upstream's 1 h + 7 s). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** How long such a token is actually valid: a year. */
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 3600;
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

interface Ref {
  name: string;
  uid: string;
}

/** What the authentication layer offers to issue tokens (auth/authn/service-account-issuer.ts). */
export interface TokenRequestIssuer {
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 for none. */
  readonly maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration`. */
  readonly extendExpiration: boolean;
  issue(r: {
    namespace: string;
    serviceAccount: Ref;
    pod?: Ref;
    secret?: Ref;
    node?: Ref;
    audiences: readonly string[];
    expirationSeconds: number;
    warnAfterSeconds?: number;
  }): Promise<{ token: string; issuedAt: number }>;
}

export function tokenRequestSchema(group: string): KindSchema {
  return compileKindSchema({
    group,
    version: 'v1',
    kind: 'TokenRequest',
    description: 'Asks for a token for a service account; the answer carries it in status.',
    required: ['spec'],
    properties: {
      spec: { ref: 'TokenRequestSpec', description: 'What the token is to be good for.', proto: 2 },
      status: {
        ref: 'TokenRequestStatus',
        description: 'Filled in by the server: the token and when it stops being valid.',
        proto: 3,
      },
    },
    definitions: {
      TokenRequestSpec: {
        type: 'object',
        description: 'The audiences, lifetime and binding asked for.',
        required: ['audiences'],
        properties: {
          audiences: {
            type: 'array',
            description:
              'Who should accept the token. A recipient must check that one of these names it and refuse the token otherwise. Empty means the audiences of this API server.',
            items: { type: 'string', default: '' },
            listType: 'atomic',
            proto: 1,
          },
          expirationSeconds: {
            type: 'integer',
            format: 'int64',
            description:
              'How long the token should stay valid, in seconds. The server may issue it for less (its maximum) or, for tokens of projected volumes, for more; status.expirationTimestamp is what counts.',
            proto: 4,
            protoPointer: true,
          },
          boundObjectRef: {
            ref: 'BoundObjectReference',
            description:
              'An object whose life bounds the token: once it is deleted, the token is refused even before it expires.',
            proto: 3,
            protoPointer: true,
          },
        },
      },
      TokenRequestStatus: {
        type: 'object',
        description: 'The issued token.',
        required: ['token', 'expirationTimestamp'],
        properties: {
          token: { type: 'string', default: '', description: 'The token itself, opaque.', proto: 1 },
          expirationTimestamp: { ref: 'Time', description: 'When the token stops being valid.', proto: 2 },
        },
      },
      BoundObjectReference: {
        type: 'object',
        description: 'Names the object a token is bound to.',
        properties: {
          kind: { type: 'string', description: 'Kind of the object: Pod, Secret or Node.', proto: 1 },
          apiVersion: { type: 'string', description: 'API version of the object.', proto: 2 },
          name: { type: 'string', description: 'Name of the object.', proto: 3 },
          uid: { type: 'string', description: 'UID of the object; when set, it must match.', proto: 4 },
        },
        structType: 'atomic',
      },
    },
  });
}

interface TokenRequestShape extends ApiObject {
  metadata?: ApiObject['metadata'] & { name?: string; namespace?: string; creationTimestamp?: string };
  spec?: {
    audiences?: string[];
    expirationSeconds?: number;
    boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string };
  };
}

const rfc3339 = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Go's schema.FromAPIVersionAndKind: an apiVersion that does not parse leaves group and version empty. */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '') return { group: '', version: '' };
  if (parts.length === 1) return { group: '', version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: '', version: '' };
}

const uidOf = (obj: ApiObject): string => String(obj.metadata?.uid ?? '');

interface Binding {
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
}

async function resolveBinding(
  req: SubresourceActionRequest,
  ref: NonNullable<NonNullable<TokenRequestShape['spec']>['boundObjectRef']>,
): Promise<Binding> {
  const { group, version } = groupVersionOf(ref.apiVersion ?? '');
  const kind = ref.kind ?? '';
  const name = ref.name ?? '';
  const core = (resource: string) => ({ group: '', resource });
  const out: Binding = {};
  let uid: string;
  if (group === '' && kind === 'Pod') {
    const pod = await req.get('', 'v1', 'pods', req.namespace, name);
    if (pod === undefined) throw notFound(core('pods'), name);
    const spec = (pod.spec ?? {}) as { serviceAccountName?: string; nodeName?: string };
    if ((spec.serviceAccountName ?? '') !== req.name) {
      throw badRequest(
        `cannot bind token for serviceaccount ${JSON.stringify(req.name)} to pod running with different serviceaccount name.`,
      );
    }
    uid = uidOf(pod);
    out.pod = { name: String(pod.metadata?.name ?? name), uid };
    const nodeName = spec.nodeName ?? '';
    if (nodeName !== '') {
      // A node that does not exist (yet) is still named, without a uid, as upstream does.
      const node = await req.get('', 'v1', 'nodes', '', nodeName);
      out.node = { name: nodeName, uid: node === undefined ? '' : uidOf(node) };
    }
  } else if (group === '' && kind === 'Node') {
    const node = await req.get('', 'v1', 'nodes', '', name);
    if (node === undefined) throw notFound(core('nodes'), name);
    uid = uidOf(node);
    out.node = { name, uid };
  } else if (group === '' && kind === 'Secret') {
    const secret = await req.get('', 'v1', 'secrets', req.namespace, name);
    if (secret === undefined) throw notFound(core('secrets'), name);
    uid = uidOf(secret);
    out.secret = { name, uid };
  } else {
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  if ((ref.uid ?? '') !== '' && uid !== ref.uid) {
    throw conflict(
      { group, resource: kind },
      name,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return out;
}

async function createToken(issuer: TokenRequestIssuer, req: SubresourceActionRequest): Promise<ApiObject> {
  const body = req.body as TokenRequestShape;
  const group = String(body.apiVersion ?? '').split('/')[0];
  const gk = { group, kind: 'TokenRequest' };
  const meta = body.metadata ?? {};
  if ((meta.name ?? '') !== '' && meta.name !== req.name) {
    throw invalid(gk, req.name, [
      fieldInvalid(
        newPath('metadata', 'name'),
        meta.name,
        'must match the service account name if specified',
      ),
    ]);
  }
  if ((meta.namespace ?? '') !== '' && meta.namespace !== req.namespace) {
    throw invalid(gk, req.name, [
      fieldInvalid(
        newPath('metadata', 'namespace'),
        meta.namespace,
        'must match the service account namespace if specified',
      ),
    ]);
  }
  const sa = await req.get('', 'v1', 'serviceaccounts', req.namespace, req.name);
  if (sa === undefined) throw notFound({ group: '', resource: 'serviceaccounts' }, req.name);

  const spec = { ...(body.spec ?? {}) };
  if (spec.audiences === undefined || spec.audiences.length === 0) spec.audiences = [...issuer.apiAudiences];
  spec.expirationSeconds ??= DEFAULT_EXPIRATION_SECONDS;
  const expirationPath = newPath('spec', 'expirationSeconds');
  if (spec.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    throw invalid(gk, '', [
      fieldInvalid(expirationPath, spec.expirationSeconds, 'may not specify a duration less than 10 minutes'),
    ]);
  }
  if (spec.expirationSeconds > MAX_EXPIRATION_SECONDS) {
    throw invalid(gk, '', [
      fieldInvalid(
        expirationPath,
        spec.expirationSeconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    ]);
  }
  const binding = spec.boundObjectRef === undefined ? {} : await resolveBinding(req, spec.boundObjectRef);

  const max = issuer.maxExpirationSeconds;
  if (max > 0 && spec.expirationSeconds > max) {
    req.warn(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${max} seconds`);
    spec.expirationSeconds = max;
  }
  let exp = spec.expirationSeconds;
  let warnAfter = 0;
  const forThisApi = spec.audiences.every((a) => issuer.apiAudiences.includes(a));
  if (
    issuer.extendExpiration &&
    binding.pod !== undefined &&
    spec.expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS &&
    forThisApi
  ) {
    warnAfter = exp;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const issued = await issuer.issue({
    namespace: req.namespace,
    serviceAccount: { name: req.name, uid: uidOf(sa) },
    ...binding,
    audiences: spec.audiences,
    expirationSeconds: exp,
    warnAfterSeconds: warnAfter,
  });
  return {
    apiVersion: body.apiVersion,
    kind: 'TokenRequest',
    metadata: {
      ...meta,
      name: req.name,
      namespace: req.namespace,
      creationTimestamp: rfc3339(issued.issuedAt),
    },
    spec,
    status: {
      token: issued.token,
      expirationTimestamp: rfc3339(issued.issuedAt + spec.expirationSeconds),
    },
  };
}

/**
 * The `token` sub-resource of ServiceAccounts. The kind is `authentication.<profile domain>/v1`
 * TokenRequest and also upstream's group, which stock clients post.
 */
export function tokenRequestAction(profile: NamingProfile, issuer: TokenRequestIssuer): SubresourceAction {
  const own = groupName(profile, 'authentication');
  const upstream = upstreamAuthenticationGroup();
  return {
    schema: tokenRequestSchema(own),
    aliases: upstream === own ? [] : [tokenRequestSchema(upstream)],
    create: (req) => createToken(issuer, req),
  };
}
