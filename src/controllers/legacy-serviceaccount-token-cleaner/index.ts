// The legacy service account token cleaner (upstream `legacy-serviceaccount-token-cleaner-controller`,
// alias `legacy-serviceaccount-token-cleaner`): auto-generated legacy token Secrets unused for
// LegacySATokenCleaner.CleanUpPeriod (a year by default) are labelled invalid, then deleted one
// period later. Uses client/ only.

import { controllerObjectNames } from '../../naming/controller-objects.ts';
import { componentName } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import type { ControllerDescriptor } from '../controller.ts';
import {
  configSection,
  durationField,
  namingOf,
  PODS,
  runController,
  SECRETS,
  SERVICE_ACCOUNTS,
} from '../controller-support.ts';
import { LegacyTokenCleaner } from './cleaner.ts';

export * from './cleaner.ts';
export * from './pod-secrets.ts';
export * from './verdict.ts';

/** Upstream's default CleanUpPeriod: 365 days. */
export const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * 24 * 3600_000;

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
      pods: ctx.informers.forResource(PODS),
      names: {
        ...serviceAccountNames(profile),
        systemNamespace: componentName(profile, 'system'),
        trackingConfigMap: objects.legacyTokenTrackingConfigMap,
        trackingKey: objects.legacyTokenTrackingKey,
      },
      cleanUpPeriodMs: durationField(
        configSection(ctx.config, 'LegacySATokenCleaner').CleanUpPeriod,
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
