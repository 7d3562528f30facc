// Names the client library needs: where a pod finds its service account's credentials, which
// environment variables name the API's service, and the product word in the User-Agent. Under the
// upstream profile they are exactly client-go's.

import type { NamingProfile } from './profile.ts';

export interface InClusterNames {
  /** Environment variable holding the API service's host. */
  readonly hostEnv: string;
  /** Environment variable holding the API service's port. */
  readonly portEnv: string;
  /** The projected service account token, re-read as it rotates. */
  readonly tokenFile: string;
  /** The cluster CA bundle. */
  readonly caFile: string;
  /** The pod's namespace. */
  readonly namespaceFile: string;
}

export function inClusterNames(profile: NamingProfile): InClusterNames {
  const dir = `/var/run/secrets/${profile.labelDomain}/serviceaccount`;
  return {
    hostEnv: `${profile.envPrefix}SERVICE_HOST`,
    portEnv: `${profile.envPrefix}SERVICE_PORT`,
    tokenFile: `${dir}/token`,
    caFile: `${dir}/ca.crt`,
    namespaceFile: `${dir}/namespace`,
  };
}

/** The product in a default User-Agent: `<command>/<version> (<os>/<arch>) <product>/<commit>`. */
export function userAgentProduct(profile: NamingProfile): string {
  return profile.name === 'upstream' ? 'kubernetes' : 'platform';
}
