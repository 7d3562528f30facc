// The service account token controller (upstream `serviceaccount-token-controller`, alias
// `serviceaccount-token`): fills in legacy token Secrets (a token signed with
// SAController.ServiceAccountKeyFile, the CA bundle of RootCAFile, the namespace) and deletes the
// tokens of accounts that are gone. Off, as upstream, when no key file is configured. It runs with
// the manager's own credentials. Uses client/ and the token signing helpers of auth/authn/.

import { readFileSync } from 'node:fs';
import { parsePrivateKeyPem, type SigningKey, signingKeyOf } from '../../auth/authn/keys.ts';
import { ServiceAccountTokenIssuer } from '../../auth/authn/service-account-issuer.ts';
import { legacyClaims } from '../../auth/authn/service-account-legacy.ts';
import { LEGACY_SERVICE_ACCOUNT_ISSUER, serviceAccountNames } from '../../naming/service-accounts.ts';
import type { ControllerDescriptor } from '../controller.ts';
import {
  configSection,
  intField,
  messageOf,
  namingOf,
  runController,
  SECRETS,
  SERVICE_ACCOUNTS,
  stringField,
} from '../controller-support.ts';
import type { SAControllerConfiguration } from '../manager/config/types-controllers.ts';
import { rootCAOf } from '../root-ca-cert-publisher/root-ca.ts';
import { TokensController } from './tokens-controller.ts';

export * from './token-secret.ts';
export * from './tokens-controller.ts';

/** Upstream's default ConcurrentSATokenSyncs. */
export const DEFAULT_CONCURRENT_SA_TOKEN_SYNCS = 5;

/** The private key of `path`, with upstream's message when it cannot be read. */
export function readTokenSigningKey(path: string): SigningKey {
  try {
    return signingKeyOf(parsePrivateKeyPem(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new Error(`error reading key for service account token controller: ${messageOf(err)}`);
  }
}

export const serviceAccountTokenControllerDescriptor: ControllerDescriptor = {
  name: 'serviceaccount-token-controller',
  aliases: ['serviceaccount-token'],
  enabledByDefault: true,
  serviceAccountName: 'tokens-controller',
  rootCredentials: true,
  async start(ctx) {
    const section = configSection<SAControllerConfiguration>(ctx.config, 'SAController');
    const keyFile = stringField(section.ServiceAccountKeyFile);
    if (keyFile === '') {
      ctx.log.info('Controller is disabled because there is no private key', {
        controller: 'serviceaccount-token-controller',
      });
      return { stop: async () => {} };
    }
    const key = readTokenSigningKey(keyFile);
    const rootCA = rootCAOf(ctx);
    const names = serviceAccountNames(namingOf(ctx));
    const issuer = new ServiceAccountTokenIssuer(LEGACY_SERVICE_ACCOUNT_ISSUER, key, names);
    const controller = new TokensController({
      client: ctx.client,
      serviceAccounts: ctx.informers.forResource(SERVICE_ACCOUNTS),
      secrets: ctx.informers.forResource(SECRETS),
      generateToken: (sa, secretName) => issuer.sign(legacyClaims(names, sa, secretName)),
      rootCA,
      names,
      log: ctx.log,
      workers: intField(section.ConcurrentSATokenSyncs, DEFAULT_CONCURRENT_SA_TOKEN_SYNCS),
    });
    return runController(
      ctx,
      'serviceaccount-token-controller',
      (signal) => controller.run(signal),
      () => controller.stop(),
    );
  },
};
