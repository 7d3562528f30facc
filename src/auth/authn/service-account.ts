// Bound service account tokens (those TokenRequest issues): after the shared JWT checks
// (service-account-jwt.ts), the times are checked with upstream's minute of leeway, and the
// service account, and the Secret, Pod or Node the token is bound to, must still exist with the
// uid the token names (upstream checks these whatever --service-account-lookup says: that flag
// is about legacy tokens). The user is the service account, in its groups, with the pod, node and
// credential id (JTI) as extra, as upstream's service account user carries them.

import type { ServiceAccountNames } from '../../naming/service-accounts.ts';
import { serviceAccountUsername } from './service-account-issuer.ts';
import type { Claims, ClaimsValidator } from './service-account-jwt.ts';
import type { ObjectReader, UserInfo } from './types.ts';

/** go-jose's default leeway on exp, nbf and iat. */
export const LEEWAY_SECONDS = 60;

export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUid?: string;
  nodeName?: string;
  nodeUid?: string;
  credentialId?: string;
}

/** Upstream's service account user: name, uid, the two groups, and the extra it knows. */
export function serviceAccountUser(sa: ServiceAccountInfo, names: ServiceAccountNames): UserInfo {
  const user: UserInfo = {
    username: serviceAccountUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`],
  };
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUid) {
    extra[names.extra.podName] = [sa.podName];
    extra[names.extra.podUid] = [sa.podUid];
  }
  if (sa.credentialId) extra[names.extra.credentialId] = [sa.credentialId];
  if (sa.nodeName) {
    extra[names.extra.nodeName] = [sa.nodeName];
    if (sa.nodeUid) extra[names.extra.nodeUid] = [sa.nodeUid];
  }
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

interface Ref {
  name: string;
  uid: string;
}

function refOf(v: unknown): Ref | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  return { name: typeof r.name === 'string' ? r.name : '', uid: typeof r.uid === 'string' ? r.uid : '' };
}

function numeric(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** go-jose's time checks, in its order, with upstream's messages. */
export function timeError(claims: Claims, nowSeconds: number): string | undefined {
  const nbf = numeric(claims.nbf);
  const exp = numeric(claims.exp);
  const iat = numeric(claims.iat);
  if (nbf !== undefined && nowSeconds + LEEWAY_SECONDS < nbf) return 'service account token is not valid yet';
  if (exp !== undefined && nowSeconds - LEEWAY_SECONDS > exp) return 'service account token has expired';
  if (iat !== undefined && nowSeconds + LEEWAY_SECONDS < iat)
    return 'service account token is issued in the future';
  return undefined;
}

type Meta = { uid?: string; deletionTimestamp?: string };
const metaOf = (obj: Record<string, unknown>): Meta => (obj.metadata ?? {}) as Meta;

/** Deleted before now minus the leeway: gone for the token's purposes. */
function deletedBefore(obj: Record<string, unknown>, cutoffMs: number): boolean {
  const ts = metaOf(obj).deletionTimestamp;
  return ts !== undefined && Date.parse(ts) < cutoffMs;
}

const INVALIDATED = 'service account token has been invalidated';

export class BoundTokenValidator implements ClaimsValidator {
  constructor(
    private readonly objects: ObjectReader,
    private readonly names: ServiceAccountNames,
    private readonly now: () => number = Date.now,
  ) {}

  async validate(_token: string, claims: Claims): Promise<{ user: UserInfo } | { error: string }> {
    const nowMs = this.now();
    const tooEarlyOrLate = timeError(claims, nowMs / 1000);
    if (tooEarlyOrLate !== undefined) return { error: tooEarlyOrLate };
    const cutoff = nowMs - LEEWAY_SECONDS * 1000;
    const priv = (claims[this.names.privateClaim] ?? {}) as Record<string, unknown>;
    const namespace = typeof priv.namespace === 'string' ? priv.namespace : '';
    const saRef = refOf(priv.serviceaccount) ?? { name: '', uid: '' };
    const podRef = refOf(priv.pod);
    const secretRef = refOf(priv.secret);
    const nodeRef = refOf(priv.node);

    const sa = await this.objects.get('', 'v1', 'serviceaccounts', namespace, saRef.name);
    if (sa === undefined) return { error: `serviceaccounts "${saRef.name}" not found` };
    if (deletedBefore(sa, cutoff))
      return { error: `service account ${namespace}/${saRef.name} has been deleted` };
    const saUid = metaOf(sa).uid ?? '';
    if (saUid !== saRef.uid)
      return { error: `service account UID (${saUid}) does not match claim (${saRef.uid})` };

    if (secretRef !== undefined) {
      const secret = await this.objects.get('', 'v1', 'secrets', namespace, secretRef.name);
      if (secret === undefined || deletedBefore(secret, cutoff)) return { error: INVALIDATED };
      const uid = metaOf(secret).uid ?? '';
      if (uid !== secretRef.uid) {
        return {
          error: `secret UID (${uid}) does not match service account secret ref claim (${secretRef.uid})`,
        };
      }
    }
    const info: ServiceAccountInfo = { namespace, name: saRef.name, uid: saRef.uid };
    if (podRef !== undefined) {
      const pod = await this.objects.get('', 'v1', 'pods', namespace, podRef.name);
      if (pod === undefined || deletedBefore(pod, cutoff)) return { error: INVALIDATED };
      const uid = metaOf(pod).uid ?? '';
      if (uid !== podRef.uid) {
        return { error: `pod UID (${uid}) does not match service account pod ref claim (${podRef.uid})` };
      }
      info.podName = podRef.name;
      info.podUid = podRef.uid;
    }
    if (nodeRef !== undefined) {
      if (podRef !== undefined) {
        // A pod-bound token names its node for information; the pod is what binds it.
        info.nodeName = nodeRef.name;
        info.nodeUid = nodeRef.uid;
      } else {
        const node = await this.objects.get('', 'v1', 'nodes', '', nodeRef.name);
        if (node === undefined || deletedBefore(node, cutoff)) return { error: INVALIDATED };
        const uid = metaOf(node).uid ?? '';
        if (uid !== nodeRef.uid) {
          return {
            error: `node UID (${uid}) does not match service account node ref claim (${nodeRef.uid})`,
          };
        }
        info.nodeName = nodeRef.name;
        info.nodeUid = nodeRef.uid;
      }
    }
    if (typeof claims.jti === 'string' && claims.jti !== '') info.credentialId = `JTI=${claims.jti}`;
    return { user: serviceAccountUser(info, this.names) };
  }
}
