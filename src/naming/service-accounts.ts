// Names inside service account tokens and the objects around them: the private claim of bound
// tokens, the claims of legacy (Secret-held) tokens, the Secret type that holds them, the extra
// keys a service account user carries, and the issuers upstream fixes. Under the upstream profile
// they are exactly upstream's; under the spec profile the label domain replaces upstream's, so
// tokens say whose they are in the profile's words.

import { type NamingProfile, namingProfile } from './profile.ts';

export interface ServiceAccountNames {
  /** Key of the private claim object of bound tokens ({namespace, serviceaccount, pod, ...}). */
  readonly privateClaim: string;
  /** Prefix of the flat claims of legacy tokens: `<prefix>namespace`, `<prefix>secret.name`... */
  readonly legacyClaimPrefix: string;
  /** The Secret type that holds a legacy token. */
  readonly tokenSecretType: string;
  /** Label set on a legacy token's Secret once it is invalidated (it authenticates no more). */
  readonly legacyInvalidSinceLabel: string;
  /** Label holding the day (YYYY-MM-DD) a legacy token was last used. */
  readonly legacyLastUsedLabel: string;
  /** Annotations of a token Secret naming its service account, and that account's uid. */
  readonly nameAnnotation: string;
  readonly uidAnnotation: string;
  /** Extra keys of a service account user: pod name and uid, node name and uid, credential id. */
  readonly extra: {
    readonly podName: string;
    readonly podUid: string;
    readonly nodeName: string;
    readonly nodeUid: string;
    readonly credentialId: string;
  };
}

export function serviceAccountNames(profile: NamingProfile): ServiceAccountNames {
  const d = profile.labelDomain;
  return {
    privateClaim: d,
    legacyClaimPrefix: `${d}/serviceaccount/`,
    tokenSecretType: `${d}/service-account-token`,
    legacyInvalidSinceLabel: `${d}/legacy-token-invalid-since`,
    legacyLastUsedLabel: `${d}/legacy-token-last-used`,
    nameAnnotation: `${d}/service-account.name`,
    uidAnnotation: `${d}/service-account.uid`,
    extra: {
      podName: `authentication.${d}/pod-name`,
      podUid: `authentication.${d}/pod-uid`,
      nodeName: `authentication.${d}/node-name`,
      nodeUid: `authentication.${d}/node-uid`,
      credentialId: `authentication.${d}/credential-id`,
    },
  };
}

/**
 * The issuer of legacy tokens. Upstream's token controller writes this fixed string whatever the
 * cluster; tokens minted by existing tooling carry it, so it is the same under every profile.
 */
export const LEGACY_SERVICE_ACCOUNT_ISSUER = 'kubernetes/serviceaccount';

/**
 * The issuer (and so the API audience) when none is configured: what upstream's local-up script and
 * kubeadm configure, the in-cluster name of the API's service.
 */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The upstream group of TokenRequest, which stock clients send and expect back. */
export function upstreamAuthenticationGroup(): string {
  return `authentication.${namingProfile('upstream').groupDomain}`;
}
