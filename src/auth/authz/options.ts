// Everything authorization is configured with besides --authorization-mode, as kube-apiserver's
// flags group it (src/cmd/authz-flags.ts maps the flags onto these one to one), and the rules
// that tie the flags together, checked where the options are used so that the library and the
// program refuse the same things with upstream's messages. Durations are milliseconds.

import type { AuthorizationMode } from './modes.ts';

export interface AuthorizationWebhookOptions {
  /** `--authorization-webhook-config-file`: client configuration file naming the webhook. */
  configFile?: string;
  /** `--authorization-webhook-version`: SubjectAccessReview version sent (default v1beta1, as upstream). */
  version?: 'v1' | 'v1beta1';
  /** `--authorization-webhook-cache-authorized-ttl` (default 5 minutes). */
  authorizedTtlMs?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (default 30 seconds). */
  unauthorizedTtlMs?: number;
}

export interface AuthorizationOptions {
  /** `--authorization-policy-file`: the ABAC policy, one JSON object per line. */
  policyFile?: string;
  /**
   * The `--authorization-webhook-*` flags. Present only when one of them was given: with
   * `--authorization-config` any of them is an error, as upstream makes it.
   */
  webhook?: AuthorizationWebhookOptions;
  /** `--authorization-config`: an AuthorizationConfiguration file; replaces the flags above. */
  configFile?: string;
}

export const AUTHZ_DEFAULTS = {
  webhookVersion: 'v1beta1',
  webhookAuthorizedTtlMs: 5 * 60_000,
  webhookUnauthorizedTtlMs: 30_000,
} as const;

/** Go's %q of a []string: `["RBAC" "RBAC"]`. */
function goQuotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/**
 * Upstream's checks of the authorization flags, in its order: the messages of every broken rule
 * (empty when all hold). `modes` is --authorization-mode as given (undefined when not given).
 */
export function authorizationOptionErrors(
  modes: readonly AuthorizationMode[] | undefined,
  o: AuthorizationOptions,
): string[] {
  if (o.configFile !== undefined && o.configFile !== '') {
    if (modes !== undefined || o.webhook !== undefined) {
      return [
        '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
      ];
    }
    return [];
  }
  const errs: string[] = [];
  const list = modes ?? [];
  if (modes !== undefined && list.length === 0) errs.push('at least one authorization-mode must be passed');
  for (const m of list) {
    if (m === 'ABAC' && !o.policyFile)
      errs.push("authorization-mode ABAC's authorization policy file not passed");
    if (m === 'Webhook' && !o.webhook?.configFile)
      errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (o.policyFile && !list.includes('ABAC'))
    errs.push('cannot specify --authorization-policy-file without mode ABAC');
  if (o.webhook?.configFile && !list.includes('Webhook'))
    errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(list).size !== list.length)
    errs.push(`authorization-mode ${goQuotedList(list)} has mode specified more than once`);
  return errs;
}

/** Throws the broken rules as upstream aggregates them (one alone, several in brackets). */
export function validateAuthorizationOptions(
  modes: readonly AuthorizationMode[] | undefined,
  o: AuthorizationOptions,
): void {
  const errs = authorizationOptionErrors(modes, o);
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
}
