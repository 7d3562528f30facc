// Authorization's flags besides --authorization-mode (the ABAC policy file, the webhook, the
// configuration file), with kube-apiserver's names and defaults, and their mapping onto
// AuthorizationOptions. Rules that tie several flags together are checked where the options are
// used (src/auth/authz/options.ts), so the library and the program refuse the same things.

import { AUTHZ_DEFAULTS, type AuthorizationOptions } from '../auth/authz/options.ts';
import { type FlagSpec, type FlagValues, flag } from './flag-parser.ts';
import { duration, text } from './flag-values.ts';

function webhookVersion(v: string): 'v1' | 'v1beta1' {
  if (v !== 'v1' && v !== 'v1beta1') throw new Error('must be "v1" or "v1beta1"');
  return v;
}

const optionalText = (name: string, arg: string, description: string) =>
  flag<string | undefined>({ name, arg, description, parse: text, default: undefined });

/** The flags `--authorization-config` refuses besides --authorization-mode. */
const WEBHOOK_FLAGS = [
  'authorization-webhook-config-file',
  'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl',
  'authorization-webhook-cache-unauthorized-ttl',
];

export const AUTHZ_FLAGS: FlagSpec[] = [
  optionalText(
    'authorization-policy-file',
    '<file>',
    'ABAC policy, one JSON object per line (with --authorization-mode=ABAC)',
  ),
  optionalText(
    'authorization-webhook-config-file',
    '<file>',
    'client configuration file of the authorization webhook (with --authorization-mode=Webhook)',
  ),
  flag({
    name: 'authorization-webhook-version',
    arg: '<version>',
    description: 'SubjectAccessReview version sent to the webhook (v1 or v1beta1)',
    parse: webhookVersion,
    default: AUTHZ_DEFAULTS.webhookVersion,
  }),
  flag({
    name: 'authorization-webhook-cache-authorized-ttl',
    arg: '<duration>',
    description: "how long the webhook's allowed answers are remembered",
    parse: duration,
    default: AUTHZ_DEFAULTS.webhookAuthorizedTtlMs,
  }),
  flag({
    name: 'authorization-webhook-cache-unauthorized-ttl',
    arg: '<duration>',
    description: "how long the webhook's other answers are remembered",
    parse: duration,
    default: AUTHZ_DEFAULTS.webhookUnauthorizedTtlMs,
  }),
  optionalText(
    'authorization-config',
    '<file>',
    'AuthorizationConfiguration file (ordered authorizers); excludes --authorization-mode and the webhook flags',
  ),
];

/**
 * AuthorizationOptions from parsed flag values and the names of the flags given. The webhook
 * section exists when any webhook flag was given, so that `--authorization-config` can refuse it.
 */
export function authorizationOptionsFrom(
  f: FlagValues,
  given: ReadonlySet<string> = new Set(),
): AuthorizationOptions {
  const o: AuthorizationOptions = {
    policyFile: f['authorization-policy-file'] as string | undefined,
    configFile: f['authorization-config'] as string | undefined,
  };
  if (WEBHOOK_FLAGS.some((n) => given.has(n))) {
    o.webhook = {
      configFile: f['authorization-webhook-config-file'] as string | undefined,
      version: f['authorization-webhook-version'] as 'v1' | 'v1beta1',
      authorizedTtlMs: f['authorization-webhook-cache-authorized-ttl'] as number,
      unauthorizedTtlMs: f['authorization-webhook-cache-unauthorized-ttl'] as number,
    };
  }
  return o;
}
