// What authentication produces and what each authenticator sees of a request.

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The client certificate as the TLS layer saw it. */
export interface PeerCertificate {
  /** Whether the chain verified against the client CA bundle. */
  verified: boolean;
  commonName: string;
  organizations: string[];
  /** Extended key usage OIDs; undefined when the certificate has no such extension. */
  extKeyUsage?: string[];
  /** Why verification failed, when it did. */
  verifyError?: string;
}

export interface AuthnRequest {
  headers: Record<string, string | string[] | undefined>;
  peerCertificate?: PeerCertificate;
}

/**
 * - `{ user }`: authenticated.
 * - `null`: this authenticator has no opinion (no credential of its kind).
 * - `{ error }`: a credential of its kind was presented and is bad; the request fails with 401.
 */
export type AuthnResult = { user: UserInfo } | { error: string } | null;

export interface Authenticator {
  authenticate(req: AuthnRequest): AuthnResult;
}

export const GROUP_AUTHENTICATED = 'system:authenticated';
export const GROUP_UNAUTHENTICATED = 'system:unauthenticated';
export const USER_ANONYMOUS = 'system:anonymous';
