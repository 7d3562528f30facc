// What authentication produces and what each authenticator sees of a request.

import type { X509Certificate } from 'node:crypto';

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
  /**
   * The certificates the client sent (leaf first), when another CA than the client CA may vouch
   * for them (the authenticating proxy's): its authenticator verifies the chain itself.
   */
  chain?: readonly X509Certificate[];
}

export interface AuthnRequest {
  /** The request's headers; an authenticator may delete the ones it consumed (the proxy's). */
  headers: Record<string, string | string[] | undefined>;
  /** Header names and values as received, alternating: repeated headers stay apart. */
  rawHeaders?: readonly string[];
  peerCertificate?: PeerCertificate;
  /** The URL's path, without the query: anonymous access may be limited to some paths. */
  path?: string;
}

/**
 * - `{ user }`: authenticated.
 * - `null`: this authenticator has no opinion (no credential of its kind).
 * - `{ error }`: a credential of its kind was presented and is bad; the request fails with 401.
 */
export type AuthnResult = { user: UserInfo } | { error: string } | null;

/** Authenticates a whole request (its certificate, its headers). May answer later: webhooks, discovery. */
export interface Authenticator {
  authenticate(req: AuthnRequest): AuthnResult | Promise<AuthnResult>;
}

/**
 * - `{ user, audiences }`: the token is good for `audiences` (those of the request it is valid for;
 *   absent when the authenticator does not deal in audiences: static tokens, bootstrap tokens).
 * - `null`: not a token of this kind.
 * - `{ error }`: a token of this kind that is bad (expired, forged, revoked...).
 */
export type TokenResult = { user: UserInfo; audiences?: string[] } | { error: string } | null;

/**
 * Authenticates a bearer token, for the requests that carry one and for TokenReview, which
 * brings its own audiences. `audiences` is what the caller accepts (the API's audiences for a
 * request): a token valid for none of them is refused.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences: readonly string[]): TokenResult | Promise<TokenResult>;
}

export const GROUP_AUTHENTICATED = 'system:authenticated';
export const GROUP_UNAUTHENTICATED = 'system:unauthenticated';
export const USER_ANONYMOUS = 'system:anonymous';

/**
 * Reads the objects tokens are checked against (ServiceAccounts, Secrets, Pods, Nodes), from the
 * server's memory where it has them: authentication costs no store read. Undefined when absent.
 */
export interface ObjectReader {
  get(
    group: string,
    version: string,
    resource: string,
    namespace: string,
    name: string,
  ): Promise<Record<string, unknown> | undefined>;
}
