// One JWT authenticator (an entry of AuthenticationConfiguration's jwt list, or the --oidc-* flags):
// a token whose unverified `iss` is this issuer is verified against the issuer's keys and then
// mapped to a user by claims or CEL, as upstream's OpenID authenticator does, in its order and with
// its messages. Tokens of other issuers are not its business (null). Every failure, an evaluation
// error included, is a refusal: the request gets 401.

import { claimsActivation, evaluateAuthnExpression } from './authentication-config-cel.ts';
import type { CompiledJwtAuthenticator, CompiledRule } from './authentication-config-validation.ts';
import { checkClaims, parseCompactJwt, untrustedIssuer, verifySignature } from './jwt-verify.ts';
import { OidcProvider, type ProviderOptions } from './oidc-provider.ts';
import type { TokenAuthenticator, TokenResult, UserInfo } from './types.ts';

export interface JwtAuthenticatorOptions {
  /** Accepted signing algorithms (the flags' list, or all allowed ones for the file form). */
  signingAlgs: readonly string[];
  /** Overrides of the provider's timing (tests). */
  provider?: Partial<ProviderOptions>;
  now?: () => number;
}

export class JwtAuthenticator implements TokenAuthenticator {
  readonly provider: OidcProvider;
  readonly issuer: string;

  constructor(
    private readonly compiled: CompiledJwtAuthenticator,
    private readonly opts: JwtAuthenticatorOptions,
  ) {
    const issuer = compiled.config.issuer;
    this.issuer = issuer.url;
    const discovery = issuer.discoveryURL ?? '';
    const ca = issuer.certificateAuthority ?? '';
    this.provider = new OidcProvider({
      issuerUrl: issuer.url,
      ...(discovery !== '' ? { discoveryUrl: discovery } : {}),
      ...(ca !== '' ? { caPem: ca } : {}),
      ...opts.provider,
    });
  }

  start(): this {
    this.provider.start();
    return this;
  }

  close(): void {
    this.provider.close();
  }

  async authenticateToken(token: string): Promise<TokenResult> {
    if (untrustedIssuer(token) !== this.issuer) return null;
    const keys = this.provider.keys;
    if (keys === undefined) return { error: 'oidc: authenticator not initialized' };
    const parts = parseCompactJwt(token);
    if ('error' in parts) return { error: `oidc: verify token: oidc: malformed jwt: ${parts.error}` };
    const now = this.opts.now?.() ?? Date.now();
    const cfg = this.compiled.config;
    const claimError = checkClaims(parts.claims, {
      issuer: this.issuer,
      audiences: cfg.issuer.audiences,
      now,
    });
    if (claimError !== undefined) return { error: `oidc: verify token: ${claimError}` };
    let sig = await verifySignature(token, parts.header, keys, this.opts.signingAlgs);
    if (!sig.ok && sig.unknownKey) {
      // A key the set does not hold may be a new one: fetch the set again (rate-limited) and retry.
      await this.provider.refreshKeys();
      sig = await verifySignature(token, parts.header, this.provider.keys ?? [], this.opts.signingAlgs);
    }
    if (!sig.ok) return { error: `oidc: verify token: ${sig.error}` };
    return this.#userOf(parts.claims);
  }

  #userOf(claims: Record<string, unknown>): TokenResult {
    const c = this.compiled;
    const m = c.config.claimMappings;
    const usesCel =
      c.username !== undefined ||
      c.groups !== undefined ||
      c.uid !== undefined ||
      c.extra.length > 0 ||
      c.claimRules.length > 0;
    const activation = usesCel ? claimsActivation(claims) : {};

    // Username.
    let username: string;
    if (c.username !== undefined) {
      const r = evaluateAuthnExpression(c.username, activation);
      if (!r.ok) return { error: `oidc: error evaluating username claim expression: ${r.error}` };
      if (typeof r.value !== 'string') {
        return {
          error:
            'oidc: error evaluating username claim expression: username claim expression must return a string',
        };
      }
      if (r.value === '') return { error: 'oidc: empty username via CEL expression is not allowed' };
      username = r.value;
    } else {
      const claim = m.username.claim ?? '';
      const v = claims[claim];
      if (v === undefined)
        return { error: `oidc: parse username claims ${JSON.stringify(claim)}: claim not present` };
      if (typeof v !== 'string') {
        return {
          error: `oidc: parse username claims ${JSON.stringify(claim)}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`,
        };
      }
      if (claim === 'email' && claims.email_verified !== undefined) {
        // A present email_verified must be true (OpenID Connect Core, standard claims).
        if (typeof claims.email_verified !== 'boolean') {
          return {
            error: `oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonType(claims.email_verified)} into Go value of type bool`,
          };
        }
        if (!claims.email_verified) return { error: 'oidc: email not verified' };
      }
      username = (m.username.prefix ?? '') + v;
    }
    const user: UserInfo = { username, groups: [] };

    // Groups: a claim holding a string or a list of strings, else the expression.
    const groupsClaim = m.groups?.claim ?? '';
    if (groupsClaim !== '' && claims[groupsClaim] !== undefined) {
      const v = claims[groupsClaim];
      const list =
        typeof v === 'string'
          ? [v]
          : Array.isArray(v) && v.every((x) => typeof x === 'string')
            ? (v as string[])
            : undefined;
      if (list === undefined) {
        return {
          error: `oidc: parse groups claim ${JSON.stringify(groupsClaim)}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`,
        };
      }
      const prefix = m.groups?.prefix ?? '';
      user.groups = list.map((g) => prefix + g);
    } else if (c.groups !== undefined) {
      const r = evaluateAuthnExpression(c.groups, activation);
      if (!r.ok) return { error: `oidc: error evaluating group claim expression: ${r.error}` };
      const list = stringList(r.value);
      if (list === undefined)
        return {
          error:
            'oidc: error evaluating group claim expression: expression must return a string or a list of strings',
        };
      user.groups = list;
    }

    // UID.
    const uidClaim = m.uid?.claim ?? '';
    if (uidClaim !== '') {
      const v = claims[uidClaim];
      if (v === undefined)
        return { error: `oidc: parse uid claim ${JSON.stringify(uidClaim)}: claim not present` };
      if (typeof v !== 'string')
        return {
          error: `oidc: parse uid claim ${JSON.stringify(uidClaim)}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`,
        };
      user.uid = v;
    } else if (c.uid !== undefined) {
      const r = evaluateAuthnExpression(c.uid, activation);
      if (!r.ok) return { error: `oidc: error evaluating uid claim expression: ${r.error}` };
      if (typeof r.value !== 'string')
        return {
          error: 'oidc: error evaluating uid claim expression: uid claim expression must return a string',
        };
      if (r.value !== '') user.uid = r.value;
    }

    // Extra: empty values leave the key out.
    for (const x of c.extra) {
      const r = evaluateAuthnExpression(x.program, activation);
      if (!r.ok) return { error: r.error };
      const list = stringList(r.value);
      if (list === undefined) {
        return {
          error: `oidc: error evaluating extra claim expression: ${x.program.expression}: expression must return a string or a list of strings`,
        };
      }
      if (list.length > 0) {
        user.extra ??= {};
        user.extra[x.key] = list;
      }
    }

    // Required claims: present, and equal as strings.
    for (const [claim, want] of c.requiredClaims) {
      if (!(claim in claims)) return { error: `oidc: required claim ${claim} not present in ID token` };
      const got = claims[claim];
      if (typeof got !== 'string') {
        return {
          error: `oidc: parse claim ${claim}: json: cannot unmarshal ${jsonType(got)} into Go value of type string`,
        };
      }
      if (got !== want)
        return { error: `oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}` };
    }

    const claimFailure = checkRules(c.claimRules, activation);
    if (claimFailure !== undefined)
      return { error: `oidc: error evaluating claim validation expression: ${claimFailure}` };
    if (c.userRules.length > 0) {
      const userActivation = {
        user: { username: user.username, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} },
      };
      const userFailure = checkRules(c.userRules, userActivation);
      if (userFailure !== undefined)
        return { error: `oidc: error evaluating user info validation rule: ${userFailure}` };
    }
    return { user };
  }
}

/** The first rule that errs or does not hold, worded as upstream. */
function checkRules(rules: readonly CompiledRule[], activation: Record<string, unknown>): string | undefined {
  for (const rule of rules) {
    const r = evaluateAuthnExpression(rule.program, activation);
    if (!r.ok) return r.error;
    if (typeof r.value !== 'boolean') return 'validation expression must return a boolean';
    if (!r.value) return `validation expression '${rule.expression}' failed: ${rule.message}`;
  }
  return undefined;
}

/** A CEL string or list of strings as a list; '' and null are nothing. undefined for other types. */
function stringList(v: unknown): string[] | undefined {
  if (v === null) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v)) {
    if (!v.every((x) => typeof x === 'string')) return undefined;
    return (v as string[]).filter((x) => x !== '');
  }
  return undefined;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}
