// Names of the credential-plugin protocol: the ExecCredential group, the environment variable a
// plugin reads its ExecCredential from, and the cluster extension holding per-cluster plugin
// configuration. Stock plugins (cloud providers' and the like) are written against upstream's
// names, so the upstream spellings are offered beside the profile's for the client to accept.

import { groupName, type NamingProfile, namingProfile } from './profile.ts';

const UPSTREAM = namingProfile('upstream');

/** `client.authentication.svc.io` under the spec profile. */
export function clientAuthenticationGroup(profile: NamingProfile): string {
  return groupName(profile, 'client.authentication');
}

/** The group stock plugins speak whatever the profile. */
export const UPSTREAM_CLIENT_AUTHENTICATION_GROUP = groupName(UPSTREAM, 'client.authentication');

/** The versions of ExecCredential a client may ask a plugin for. */
export const EXEC_CREDENTIAL_VERSIONS = ['v1', 'v1beta1'] as const;

/** `PLATFORM_EXEC_INFO` under the spec profile: where the plugin finds its ExecCredential. */
export function execInfoEnvName(profile: NamingProfile): string {
  return `${profile.envPrefix}EXEC_INFO`;
}

/** The variable stock plugins (and client-go's helper for plugins) read. */
export const UPSTREAM_EXEC_INFO_ENV = execInfoEnvName(UPSTREAM);

/**
 * Names of the cluster extension whose value becomes spec.cluster.config: the profile's
 * (`client.authentication.svc.io/exec`) first, then upstream's (once when they coincide).
 */
export function execClusterExtensionNames(profile: NamingProfile): string[] {
  const own = `${clientAuthenticationGroup(profile)}/exec`;
  const upstream = `${UPSTREAM_CLIENT_AUTHENTICATION_GROUP}/exec`;
  return own === upstream ? [own] : [own, upstream];
}
