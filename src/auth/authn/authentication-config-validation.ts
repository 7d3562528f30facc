// The rules of an AuthenticationConfiguration, with upstream's field paths and messages
// (`jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https`), and the compiled
// form of each JWT authenticator: its CEL programs and required claims, ready for tokens. The flag
// form (--oidc-*) is turned into one such authenticator and checked by the same rules.

import { X509Certificate } from 'node:crypto';
import type { Program } from '../../cel/index.ts';
import {
  duplicate,
  type FieldError,
  type FieldPath,
  invalid,
  newPath,
  required,
  tooMany,
} from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain, regexError } from '../../machinery/validation/names.ts';
import { type NamingProfile, namingProfile } from '../../naming/index.ts';
import type {
  AuthenticationConfiguration,
  JwtAuthenticatorConfig,
  PrefixedClaimOrExpression,
} from './authentication-config.ts';
import { compileAuthnExpression, selectsClaim } from './authentication-config-cel.ts';

export const MAX_JWT_AUTHENTICATORS = 64;

export interface CompiledRule {
  expression: string;
  message: string;
  program: Program;
}

/** One JWT authenticator ready to check tokens. */
export interface CompiledJwtAuthenticator {
  config: JwtAuthenticatorConfig;
  username?: Program;
  groups?: Program;
  uid?: Program;
  extra: { key: string; program: Program }[];
  /** claim -> requiredValue. */
  requiredClaims: Map<string, string>;
  claimRules: CompiledRule[];
  userRules: CompiledRule[];
}

export interface ValidationOptions {
  /** Issuers no JWT authenticator may claim: the service account issuers. */
  disallowedIssuers?: readonly string[];
  profile?: NamingProfile;
  /** StructuredAuthenticationConfigurationEgressSelector (beta, on by default). */
  egressSelectorGate?: boolean;
}

export interface ValidationResult {
  errors: FieldError[];
  authenticators: CompiledJwtAuthenticator[];
}

export function validateAuthenticationConfiguration(
  c: AuthenticationConfiguration,
  opts: ValidationOptions = {},
): ValidationResult {
  const root = newPath('jwt');
  const errors: FieldError[] = [];
  const authenticators: CompiledJwtAuthenticator[] = [];
  if (c.jwt.length > MAX_JWT_AUTHENTICATORS) {
    return { errors: [tooMany(root, c.jwt.length, MAX_JWT_AUTHENTICATORS)], authenticators };
  }
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  c.jwt.forEach((a, i) => {
    const p = root.index(i);
    const r = validateJwtAuthenticator(a, p, opts);
    errors.push(...r.errors);
    authenticators.push(r.compiled);
    if (seenIssuers.has(a.issuer.url)) errors.push(duplicate(p.child('issuer', 'url'), a.issuer.url));
    seenIssuers.add(a.issuer.url);
    const d = a.issuer.discoveryURL ?? '';
    if (d !== '') {
      if (seenDiscovery.has(d)) errors.push(duplicate(p.child('issuer', 'discoveryURL'), d));
      seenDiscovery.add(d);
    }
  });
  if (c.anonymous !== undefined) {
    if (!c.anonymous.enabled && (c.anonymous.conditions?.length ?? 0) > 0) {
      errors.push(
        invalid(
          newPath('anonymous', 'conditions'),
          c.anonymous.conditions,
          'enabled should be set to true when conditions are defined',
        ),
      );
    }
  }
  return { errors, authenticators };
}

function validateJwtAuthenticator(
  a: JwtAuthenticatorConfig,
  p: FieldPath,
  opts: ValidationOptions,
): { errors: FieldError[]; compiled: CompiledJwtAuthenticator } {
  const errors: FieldError[] = [];
  const compiled: CompiledJwtAuthenticator = {
    config: a,
    extra: [],
    requiredClaims: new Map(),
    claimRules: [],
    userRules: [],
  };
  const state = { usesEmail: false, usesEmailVerified: false };
  errors.push(...validateIssuer(a, p.child('issuer'), opts));
  errors.push(...validateClaimRules(a, p.child('claimValidationRules'), compiled, state));
  errors.push(...validateClaimMappings(a, p.child('claimMappings'), compiled, state, opts));
  errors.push(...validateUserRules(a, p.child('userValidationRules'), compiled));
  return { errors, compiled };
}

function validateIssuer(a: JwtAuthenticatorConfig, p: FieldPath, opts: ValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  const { url, discoveryURL, audiences, audienceMatchPolicy, certificateAuthority, egressSelectorType } =
    a.issuer;
  const disallowed = new Set(opts.disallowedIssuers ?? []);
  if (url === '') errors.push(required(p.child('url'), ''));
  else errors.push(...validateUrl(url, disallowed, p.child('url')));
  if (discoveryURL !== undefined && discoveryURL !== '') {
    if (url !== '' && url.replace(/\/+$/, '') === discoveryURL.replace(/\/+$/, '')) {
      errors.push(invalid(p.child('discoveryURL'), discoveryURL, 'discoveryURL must be different from URL'));
    }
    errors.push(...validateUrl(discoveryURL, new Set(), p.child('discoveryURL')));
  }
  const ap = p.child('audiences');
  const mp = p.child('audienceMatchPolicy');
  if (audiences.length === 0) {
    errors.push(required(ap, `at least one ${ap} is required`));
  } else {
    const seen = new Set<string>();
    audiences.forEach((aud, i) => {
      if (aud === '') errors.push(required(ap.index(i), ''));
      if (seen.has(aud)) errors.push(duplicate(ap.index(i), aud));
      seen.add(aud);
    });
    const policy = audienceMatchPolicy ?? '';
    if (audiences.length > 1 && policy !== 'MatchAny') {
      errors.push(invalid(mp, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
    }
    if (audiences.length === 1 && policy !== '' && policy !== 'MatchAny') {
      errors.push(invalid(mp, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
    }
  }
  if (certificateAuthority !== undefined && certificateAuthority !== '') {
    const why = caBundleError(certificateAuthority);
    if (why !== undefined) errors.push(invalid(p.child('certificateAuthority'), '<omitted>', why));
  }
  if (egressSelectorType !== undefined && egressSelectorType !== '') {
    const ep = p.child('egressSelectorType');
    if (opts.egressSelectorGate === false) {
      errors.push(
        invalid(
          ep,
          egressSelectorType,
          'egress selector is not supported when StructuredAuthenticationConfigurationEgressSelector feature gate is disabled',
        ),
      );
    }
    if (egressSelectorType !== 'controlplane' && egressSelectorType !== 'cluster') {
      errors.push(invalid(ep, egressSelectorType, 'egress selector must be either controlplane or cluster'));
    }
  }
  return errors;
}

function validateUrl(raw: string, disallowed: Set<string>, p: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.has(raw)) {
    errors.push(
      invalid(p, raw, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`),
    );
  }
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Go's parser accepts what WHATWG rejects (relative references): report the scheme, as it would.
    errors.push(invalid(p, raw, 'URL scheme must be https'));
    return errors;
  }
  if (u.protocol !== 'https:') errors.push(invalid(p, raw, 'URL scheme must be https'));
  if (u.username !== '' || u.password !== '') {
    errors.push(invalid(p, raw, 'URL must not contain a username or password'));
  }
  if (u.search.length > 1) errors.push(invalid(p, raw, 'URL must not contain a query'));
  if (u.hash.length > 1) errors.push(invalid(p, raw, 'URL must not contain a fragment'));
  return errors;
}

/** Why a PEM bundle holds no usable CA certificate, as upstream's pool builder words it. */
export function caBundleError(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  let good = 0;
  for (const b of blocks) {
    try {
      new X509Certificate(b);
      good++;
    } catch {
      return 'data does not contain any valid RSA or ECDSA certificates';
    }
  }
  return good === 0 ? 'data does not contain any valid RSA or ECDSA certificates' : undefined;
}

interface EmailState {
  usesEmail: boolean;
  usesEmailVerified: boolean;
}

function validateClaimRules(
  a: JwtAuthenticatorConfig,
  p: FieldPath,
  out: CompiledJwtAuthenticator,
  state: EmailState,
): FieldError[] {
  const errors: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const rp = p.index(i);
    const claim = rule.claim ?? '';
    const expression = rule.expression ?? '';
    if (claim !== '' && expression !== '') {
      errors.push(invalid(rp, claim, "claim and expression can't both be set"));
    } else if (claim === '' && expression === '') {
      errors.push(required(rp, 'claim or expression is required'));
    } else if (claim !== '') {
      if ((rule.message ?? '') !== '') {
        errors.push(invalid(rp.child('message'), rule.message, 'may not be specified when claim is set'));
      }
      if (seenClaims.has(claim)) errors.push(duplicate(rp.child('claim'), claim));
      seenClaims.add(claim);
      out.requiredClaims.set(claim, rule.requiredValue ?? '');
    } else {
      if ((rule.requiredValue ?? '') !== '') {
        errors.push(
          invalid(
            rp.child('requiredValue'),
            rule.requiredValue,
            'may not be specified when expression is set',
          ),
        );
      }
      if (seenExpressions.has(expression)) {
        errors.push(duplicate(rp.child('expression'), expression));
        return;
      }
      seenExpressions.add(expression);
      const c = compileAuthnExpression('claims', expression, true);
      if (!c.ok) {
        errors.push(invalid(rp.child('expression'), expression, c.detail));
        return;
      }
      out.claimRules.push({ expression, message: rule.message ?? '', program: c.program });
      state.usesEmailVerified ||= selectsClaim(expression, 'email_verified');
    }
  });
  return errors;
}

function validatePrefixed(
  m: PrefixedClaimOrExpression | undefined,
  p: FieldPath,
  requiredMapping: boolean,
): { errors: FieldError[]; program?: Program } {
  const claim = m?.claim ?? '';
  const expression = m?.expression ?? '';
  if (expression !== '' && claim !== '')
    return { errors: [invalid(p, '', "claim and expression can't both be set")] };
  if (expression === '' && claim === '') {
    return { errors: requiredMapping ? [required(p, 'claim or expression is required')] : [] };
  }
  const errors: FieldError[] = [];
  if (expression !== '') {
    if (m?.prefix !== undefined) {
      errors.push(invalid(p.child('prefix'), m.prefix, 'may not be specified when expression is set'));
    }
    const c = compileAuthnExpression('claims', expression, false);
    if (!c.ok) errors.push(invalid(p.child('expression'), expression, c.detail));
    return { errors, program: c.ok ? c.program : undefined };
  }
  if (m?.prefix === undefined) {
    errors.push(
      required(
        p.child('prefix'),
        'prefix is required when claim is set. It can be set to an empty string to disable prefixing',
      ),
    );
  }
  return { errors };
}

function validateClaimMappings(
  a: JwtAuthenticatorConfig,
  p: FieldPath,
  out: CompiledJwtAuthenticator,
  state: EmailState,
  opts: ValidationOptions,
): FieldError[] {
  const errors: FieldError[] = [];
  const m = a.claimMappings;
  const username = validatePrefixed(m.username, p.child('username'), true);
  errors.push(...username.errors);
  if (username.errors.length === 0 && username.program !== undefined) {
    out.username = username.program;
    state.usesEmail ||= selectsClaim(username.program.expression, 'email');
    state.usesEmailVerified ||= selectsClaim(username.program.expression, 'email_verified');
  }
  const groups = validatePrefixed(m.groups, p.child('groups'), false);
  errors.push(...groups.errors);
  if (groups.errors.length === 0 && groups.program !== undefined) out.groups = groups.program;

  const uidClaim = m.uid?.claim ?? '';
  const uidExpression = m.uid?.expression ?? '';
  if (uidClaim !== '' && uidExpression !== '') {
    errors.push(invalid(p.child('uid'), '', "claim and expression can't both be set"));
  } else if (uidExpression !== '') {
    const c = compileAuthnExpression('claims', uidExpression, false);
    if (c.ok) out.uid = c.program;
    else errors.push(invalid(p.child('uid', 'expression'), uidExpression, c.detail));
  }

  const reserved = reservedDomains(opts.profile ?? namingProfile('spec'));
  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((x, i) => {
    const xp = p.child('extra').index(i);
    const key = x.key ?? '';
    errors.push(...domainPrefixedPath(xp.child('key'), key));
    if (key !== key.toLowerCase()) errors.push(invalid(xp.child('key'), key, 'must be lowercase'));
    if (isReservedKey(key, reserved)) {
      errors.push(
        invalid(
          xp.child('key'),
          key,
          `${reserved.join(', ')} and their subdomains are reserved for ${RESERVED_FOR} use`,
        ),
      );
    }
    if (seenKeys.has(key)) {
      errors.push(duplicate(xp.child('key'), key));
      return;
    }
    seenKeys.add(key);
    const expression = x.valueExpression ?? '';
    if (expression === '') {
      errors.push(required(xp.child('valueExpression'), ''));
      return;
    }
    const c = compileAuthnExpression('claims', expression, false);
    if (!c.ok) {
      errors.push(invalid(xp.child('valueExpression'), expression, c.detail));
      return;
    }
    out.extra.push({ key, program: c.program });
    state.usesEmailVerified ||= selectsClaim(expression, 'email_verified');
  });

  if (state.usesEmail && !state.usesEmailVerified) {
    errors.push(
      invalid(
        p.child('username', 'expression'),
        m.username.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return errors;
}

function validateUserRules(
  a: JwtAuthenticatorConfig,
  p: FieldPath,
  out: CompiledJwtAuthenticator,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const ep = p.index(i).child('expression');
    const expression = rule.expression ?? '';
    if (expression === '') {
      errors.push(required(ep, ''));
      return;
    }
    if (seen.has(expression)) {
      errors.push(duplicate(ep, expression));
      return;
    }
    seen.add(expression);
    const c = compileAuthnExpression('user', expression, true);
    if (!c.ok) errors.push(invalid(ep, expression, c.detail));
    else out.userRules.push({ expression, message: rule.message ?? '', program: c.program });
  });
  return errors;
}

/** Who the reserved extra-key domains belong to, in the message that refuses them. */
const RESERVED_FOR = 'platform';

/**
 * Domains of extra keys the server keeps for itself: the profile's group and label domains, and
 * upstream's (whose keys stock components read), once each.
 */
function reservedDomains(profile: NamingProfile): string[] {
  const upstream = namingProfile('upstream');
  return [...new Set([profile.groupDomain, profile.labelDomain, upstream.groupDomain, upstream.labelDomain])];
}

function isReservedKey(key: string, domains: readonly string[]): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const domain = key.slice(0, slash);
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

const HTTP_PATH_FORMAT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FORMAT}$`);

/** A key like `example.org/groups`: a DNS subdomain, a slash, an HTTP path. */
function domainPrefixedPath(p: FieldPath, key: string): FieldError[] {
  if (key === '') return [required(p, '')];
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) {
    return [invalid(p, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const host = key.slice(0, slash);
  const path = key.slice(slash + 1);
  const errors = isDNS1123Subdomain(host).map((e) => invalid(p, host, e));
  if (!HTTP_PATH.test(path)) {
    errors.push(invalid(p, path, regexError('Invalid path', HTTP_PATH_FORMAT)));
  }
  return errors;
}
