// Configuration for a program running in a pod: the API service's address from the environment
// variables the node agent sets, trust from the service account's CA bundle and credentials from
// its token file, re-read about every minute as the projected token rotates (client-go's
// InClusterConfig). As upstream, an unreadable CA bundle leaves the system's roots in use rather
// than failing, and an unreadable token file fails.

import { readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { inClusterNames, type NamingProfile, namingProfile } from '../naming/index.ts';
import type { Clock } from './api.ts';
import { defaultUserAgent } from './config.ts';
import { readTokenFile, StaticCredentialSource } from './credentials.ts';
import type { RestClientOptions } from './rest-client.ts';

export interface InClusterOptions {
  profile?: NamingProfile;
  /** The environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Replaces the service account directory's files (tests). */
  files?: { tokenFile?: string; caFile?: string; namespaceFile?: string };
  clock?: Clock;
  /** Where the CA problem upstream only logs goes (default: a process warning). */
  warn?: (message: string) => void;
}

/** Not running in a pod: the service variables are not set. */
export class NotInClusterError extends Error {
  override name = 'NotInClusterError';
}

export function inClusterConfig(opts: InClusterOptions = {}): RestClientOptions {
  const profile = opts.profile ?? namingProfile('spec');
  const names = { ...inClusterNames(profile), ...opts.files };
  const env = opts.env ?? process.env;
  const host = env[names.hostEnv] ?? '';
  const port = env[names.portEnv] ?? '';
  if (host === '' || port === '')
    throw new NotInClusterError(
      `unable to load in-cluster configuration, ${names.hostEnv} and ${names.portEnv} must be defined`,
    );
  // Fails now, as upstream does, when the token cannot be read.
  const token = readTokenFile(names.tokenFile);
  let caPem: string | undefined;
  try {
    caPem = readFileSync(names.caFile, 'utf8');
    if (!caPem.includes('-----BEGIN CERTIFICATE-----'))
      throw new Error('data does not contain any valid RSA or ECDSA certificates');
  } catch (err) {
    caPem = undefined;
    (opts.warn ?? ((m) => process.emitWarning(m)))(
      `Expected to load root CA config from ${names.caFile}, but got err: ${(err as Error).message}`,
    );
  }
  let namespace: string | undefined;
  try {
    namespace = readFileSync(names.namespaceFile, 'utf8').trim() || undefined;
  } catch {
    namespace = undefined;
  }
  return {
    server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`,
    caPem,
    credentials: new StaticCredentialSource({ token, tokenFile: names.tokenFile, clock: opts.clock }),
    userAgent: defaultUserAgent(profile),
    profile,
    namespace: namespace ?? 'default',
  };
}
