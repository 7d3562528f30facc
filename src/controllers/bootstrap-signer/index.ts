// The bootstrap signer (upstream `bootstrap-signer-controller`, alias `bootstrapsigner`, off unless
// named): detached HS256 JWS signatures of the public namespace's cluster-info ConfigMap, one per
// bootstrap token marked for signing. Also the reading of bootstrap token Secrets the token
// cleaner shares. Uses client/ only.

import { bootstrapTokenSecretType } from '../../naming/bootstrap-tokens.ts';
import { controllerObjectNames } from '../../naming/controller-objects.ts';
import { componentName, type NamingProfile } from '../../naming/profile.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { CONFIG_MAPS, namingOf, runController, SECRETS } from '../controller-support.ts';
import { BootstrapSigner, type BootstrapSignerNames } from './signer.ts';

export * from './bootstrap-token-secret.ts';
export * from './cluster-info.ts';
export * from './jws.ts';
export * from './signer.ts';

export function bootstrapSignerNames(profile: NamingProfile): BootstrapSignerNames {
  const o = controllerObjectNames(profile);
  return {
    configMapNamespace: o.publicNamespace,
    configMapName: o.clusterInfoConfigMap,
    configKey: o.clusterInfoConfigKey,
    signaturePrefix: o.jwsSignaturePrefix,
    tokenNamespace: componentName(profile, 'system'),
    tokenSecretType: bootstrapTokenSecretType(profile),
  };
}

export const bootstrapSignerDescriptor: ControllerDescriptor = {
  name: 'bootstrap-signer-controller',
  aliases: ['bootstrapsigner'],
  enabledByDefault: false,
  serviceAccountName: 'bootstrap-signer',
  async start(ctx) {
    const signer = new BootstrapSigner({
      client: ctx.client,
      secrets: ctx.informers.forResource(SECRETS),
      configMaps: ctx.informers.forResource(CONFIG_MAPS),
      names: bootstrapSignerNames(namingOf(ctx)),
      log: ctx.log,
    });
    return runController(
      ctx,
      'bootstrap-signer',
      (signal) => signer.run(signal),
      () => signer.stop(),
    );
  },
};
