// Issues bound service account tokens: the claims upstream puts in them (iss, sub, aud, iat, nbf,
// exp, jti, and the private claim naming the namespace, the service account and the object the
// token is bound to, with `warnafter` for the extended tokens of projected volumes), signed with
// the signing key, its key id in the header. The claims are written in the order upstream's JSON
// encoder writes them (sorted keys), so tokens look the same byte for byte apart from the values.

import { randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import type { ServiceAccountNames } from '../../naming/service-accounts.ts';
import type { SigningKey } from './keys.ts';

export interface ObjectRef {
  name: string;
  /** Empty when unknown (a pod's node that does not exist): the claim then names the node alone. */
  uid: string;
}

export interface BoundTokenRequest {
  namespace: string;
  serviceAccount: ObjectRef;
  /** At most one of pod, secret and node-alone; a pod-bound token may name its node too. */
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  audiences: readonly string[];
  /** Seconds from now to exp. */
  expirationSeconds: number;
  /** Seconds from now to the `warnafter` claim (extended tokens); 0 or absent for none. */
  warnAfterSeconds?: number;
}

export interface IssuedToken {
  token: string;
  /** Seconds since the epoch at which the token was issued (iat), for the TokenRequest's status. */
  issuedAt: number;
  expiresAt: number;
  jti: string;
}

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function ref(r: ObjectRef): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.name !== '') out.name = r.name;
  if (r.uid !== '') out.uid = r.uid;
  return out;
}

/** Sorted member order, as Go writes a map: upstream merges the claims into one before encoding. */
function sorted(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort()) out[k] = obj[k];
  return out;
}

export class ServiceAccountTokenIssuer {
  constructor(
    /** The first `--service-account-issuer`: what new tokens say in `iss`. */
    readonly issuer: string,
    private readonly key: SigningKey,
    private readonly names: ServiceAccountNames,
    private readonly now: () => number = Date.now,
  ) {}

  /** The claims of a token, without signing it (what `issue` signs). */
  claims(r: BoundTokenRequest): { claims: Record<string, unknown>; issuedAt: number; jti: string } {
    if (r.secret !== undefined && (r.pod !== undefined || r.node !== undefined)) {
      // Upstream refuses this combination before signing; the TokenRequest handler never asks for it.
      throw new Error('internal error, token can only be bound to one object type');
    }
    const iat = Math.floor(this.now() / 1000);
    const jti = randomUUID();
    const priv: Record<string, unknown> = {
      namespace: r.namespace,
      serviceaccount: ref(r.serviceAccount),
    };
    if (r.pod !== undefined) priv.pod = ref(r.pod);
    if (r.secret !== undefined) priv.secret = ref(r.secret);
    if (r.node !== undefined) priv.node = ref(r.node);
    if (r.warnAfterSeconds !== undefined && r.warnAfterSeconds !== 0)
      priv.warnafter = iat + r.warnAfterSeconds;
    const claims = sorted({
      aud: [...r.audiences],
      exp: iat + r.expirationSeconds,
      iat,
      iss: this.issuer,
      jti,
      nbf: iat,
      sub: serviceAccountUsername(r.namespace, r.serviceAccount.name),
      [this.names.privateClaim]: sorted(priv),
    });
    return { claims, issuedAt: iat, jti };
  }

  async issue(r: BoundTokenRequest): Promise<IssuedToken> {
    const { claims, issuedAt, jti } = this.claims(r);
    return { token: await this.sign(claims), issuedAt, expiresAt: claims.exp as number, jti };
  }

  /** Signs any claims with the signing key (legacy tokens in tests, the controller to come). */
  sign(claims: Record<string, unknown>): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: this.key.alg, kid: this.key.kid })
      .sign(this.key.privateKey);
  }
}
