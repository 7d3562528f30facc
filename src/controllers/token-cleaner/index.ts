// The token cleaner (upstream `token-cleaner-controller`, alias `tokencleaner`, off unless named):
// deletes bootstrap token Secrets once their expiration passes. Uses client/ only.

import { bootstrapTokenSecretType } from '../../naming/bootstrap-tokens.ts';
import { componentName } from '../../naming/profile.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { namingOf, runController, SECRETS } from '../controller-support.ts';
import { TokenCleaner } from './token-cleaner.ts';

export * from './token-cleaner.ts';

export const tokenCleanerDescriptor: ControllerDescriptor = {
  name: 'token-cleaner-controller',
  aliases: ['tokencleaner'],
  enabledByDefault: false,
  serviceAccountName: 'token-cleaner',
  async start(ctx) {
    const profile = namingOf(ctx);
    const cleaner = new TokenCleaner({
      client: ctx.client,
      secrets: ctx.informers.forResource(SECRETS),
      tokenNamespace: componentName(profile, 'system'),
      tokenSecretType: bootstrapTokenSecretType(profile),
      log: ctx.log,
    });
    return runController(
      ctx,
      'token-cleaner',
      (signal) => cleaner.run(signal),
      () => cleaner.stop(),
    );
  },
};
