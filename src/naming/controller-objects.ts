// Names of the objects the system controllers publish or read: the CA bundle ConfigMap in every
// namespace (upstream `kube-root-ca.crt`) and its description annotation, the signed `cluster-info`
// ConfigMap of the public namespace with its client-configuration key and detached signatures
// (upstream `kubeconfig`, `jws-kubeconfig-<id>`; the spec's `platconfig`, `jws-platconfig-<id>`),
// and the API server's record of when it began tracking legacy token use.

import { componentName, labelKey, type NamingProfile } from './profile.ts';

export interface ControllerObjectNames {
  /** The CA bundle ConfigMap every namespace gets. */
  readonly rootCAConfigMap: string;
  /** The annotation that says what that ConfigMap is for, and its text. */
  readonly descriptionAnnotation: string;
  readonly rootCADescription: string;
  /** Namespace and name of the ConfigMap the bootstrap signer signs. */
  readonly publicNamespace: string;
  readonly clusterInfoConfigMap: string;
  /** Key of the client configuration in it, and the prefix of each token's signature key. */
  readonly clusterInfoConfigKey: string;
  readonly jwsSignaturePrefix: string;
  /** The system namespace's ConfigMap whose `since` day says when legacy token use was first tracked. */
  readonly legacyTokenTrackingConfigMap: string;
  readonly legacyTokenTrackingKey: string;
}

export function controllerObjectNames(profile: NamingProfile): ControllerObjectNames {
  const apiserver = componentName(profile, 'apiserver');
  return {
    rootCAConfigMap: componentName(profile, 'root-ca.crt'),
    descriptionAnnotation: labelKey(profile, 'description'),
    rootCADescription:
      `Contains a CA bundle that can be used to verify the ${apiserver} when using internal endpoints ` +
      'such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across ' +
      'distributions of Kubernetes clusters.',
    publicNamespace: componentName(profile, 'public'),
    clusterInfoConfigMap: 'cluster-info',
    clusterInfoConfigKey: profile.clientConfig,
    jwsSignaturePrefix: `jws-${profile.clientConfig}-`,
    legacyTokenTrackingConfigMap: `${apiserver}-legacy-service-account-token-tracking`,
    legacyTokenTrackingKey: 'since',
  };
}
