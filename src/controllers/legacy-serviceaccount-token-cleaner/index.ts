// The legacy service account token cleaner (upstream `legacy-serviceaccount-token-cleaner-controller`,
// alias `legacy-serviceaccount-token-cleaner`): auto-generated legacy token Secrets unused for
// LegacySATokenCleaner.CleanUpPeriod (a year by default) are labelled invalid, then deleted one
// period later. Uses client/ only.

import { Discovery } from '../../client/discovery.ts';
import { RestClient } from '../../client/rest-client.ts';
import { controllerObjectNames } from '../../naming/controller-objects.ts';
import { componentName } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import type { ControllerContext, ControllerDescriptor } from '../controller.ts';
import {
  configSection,
  durationField,
  isNotFound,
  namingOf,
  PODS,
  runController,
  SECRETS,
  SERVICE_ACCOUNTS,
} from '../controller-support.ts';
import type { LegacySATokenCleanerConfiguration } from '../manager/config/types-controllers.ts';
import { LegacyTokenCleaner } from './cleaner.ts';

export * from './cleaner.ts';
export * from './pod-secrets.ts';
export * from './verdict.ts';

/** Upstream's default CleanUpPeriod: 365 days. */
export const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * 24 * 3600_000;

/**
 * Whether the server serves Pods: upstream's cleaner keeps tokens that Pods mount, but a server
 * without Pods (this one, until they are served) has none to mount them, and an informer on them
 * would never sync. Asked of discovery when the context has it (any client may read discovery),
 * else by listing one Pod, where only a 404 means not served. When unsure: served (the informer
 * retries until the answer comes).
 */
export async function podsServed(ctx: Pick<ControllerContext, 'client' | 'discovery'>): Promise<boolean> {
  try {
    // A listing can answer 403 before 404 (the account may not list Pods), so discovery first,
    // which every client may read.
    const discovery =
      ctx.discovery ?? (ctx.client instanceof RestClient ? new Discovery(ctx.client) : undefined);
    if (discovery !== undefined) {
      const found = await discovery.all();
      if (found.failed.v1 !== undefined) return true;
      return found.resources.some((r) => r.group === '' && r.version === 'v1' && r.resource === 'pods');
    }
    await ctx.client.resource(PODS).list({ limit: 1 });
    return true;
  } catch (err) {
    return !isNotFound(err);
  }
}

export const legacyServiceAccountTokenCleanerDescriptor: ControllerDescriptor = {
  name: 'legacy-serviceaccount-token-cleaner-controller',
  aliases: ['legacy-serviceaccount-token-cleaner'],
  enabledByDefault: true,
  serviceAccountName: 'legacy-service-account-token-cleaner',
  async start(ctx) {
    const profile = namingOf(ctx);
    const objects = controllerObjectNames(profile);
    const cleaner = new LegacyTokenCleaner({
      client: ctx.client,
      serviceAccounts: ctx.informers.forResource(SERVICE_ACCOUNTS),
      secrets: ctx.informers.forResource(SECRETS),
      pods: (await podsServed(ctx)) ? ctx.informers.forResource(PODS) : undefined,
      names: {
        ...serviceAccountNames(profile),
        systemNamespace: componentName(profile, 'system'),
        trackingConfigMap: objects.legacyTokenTrackingConfigMap,
        trackingKey: objects.legacyTokenTrackingKey,
      },
      cleanUpPeriodMs: durationField(
        configSection<LegacySATokenCleanerConfiguration>(ctx.config, 'LegacySATokenCleaner').CleanUpPeriod,
        DEFAULT_CLEAN_UP_PERIOD_MS,
      ),
      log: ctx.log,
    });
    return runController(
      ctx,
      'legacy-serviceaccount-token-cleaner',
      (signal) => cleaner.run(signal),
      () => {},
    );
  },
};
