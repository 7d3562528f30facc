// From a chosen platconfig context to a REST client: the cluster's address and trust, the user's
// credentials as a CredentialSource (token, token file, certificate and key inline or in files, or
// an exec plugin), impersonation, and a User-Agent of upstream's shape. Files a context names are
// read here, so a missing one fails when the client is made, naming the file and the field.

import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { namingProfile, userAgentProduct } from '../naming/index.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { API_MAJOR, API_MINOR } from '../server/version.ts';
import type { CredentialSource, Credentials } from './api.ts';
import { StaticCredentialSource } from './credentials.ts';
import {
  ExecCredentialSource,
  type ExecCredentialSourceOptions,
  findExecClusterConfig,
} from './exec/index.ts';
import { PlatconfigError, readPlatconfig } from './platconfig.ts';
import { type ContextOverrides, type SelectedContext, selectContext } from './platconfig-context.ts';
import { RestClient, type RestClientOptions } from './rest-client.ts';

/** What a caller adds to a configuration file's choices. */
export interface FromPlatconfigOptions extends Partial<Omit<RestClientOptions, 'server' | 'credentials'>> {
  /** kubectl's --context, --cluster, --user and --namespace. */
  overrides?: ContextOverrides;
  /** Options of the exec plugin runner (standard input, timeout, environment). */
  exec?: Omit<ExecCredentialSourceOptions, 'cluster' | 'profile'>;
}

/** `<command>/v1.35.0 (linux/amd64) <product>/<commit>`, as client-go's default User-Agent. */
export function defaultUserAgent(profile: NamingProfile = namingProfile('spec'), command?: string): string {
  const script = process.argv[1] ?? 'node';
  const cmd = command ?? basename(script, extname(script));
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `${cmd}/v${API_MAJOR}.${API_MINOR}.0 (${process.platform}/${arch}) ${userAgentProduct(profile)}/0000000`;
}

/** Uses the static credentials over the plugin's where both are given, as client-go does. */
class Layered implements CredentialSource {
  constructor(private readonly sources: CredentialSource[]) {}
  async current(): Promise<Credentials> {
    const all = await Promise.all(this.sources.map((s) => s.current()));
    return Object.assign({}, ...all.reverse());
  }
  unauthorized(used: Credentials): void {
    for (const s of this.sources) s.unauthorized(used);
  }
}

function readPem(file: string, field: string, configFile: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new PlatconfigError(
      `invalid configuration in "${configFile}": ${field}: unable to read ${file}: ${(err as Error).message}`,
      configFile,
      field,
    );
  }
}

/** The REST client options for a chosen context. */
export function restOptionsFor(sel: SelectedContext, opts: FromPlatconfigOptions = {}): RestClientOptions {
  const { cluster, user } = sel;
  const profile = opts.profile ?? namingProfile('spec');
  const caPem =
    cluster.certificateAuthorityData ??
    (cluster.certificateAuthority !== undefined
      ? readPem(cluster.certificateAuthority, `clusters["${cluster.name}"].certificate-authority`, sel.file)
      : undefined);
  const hasStatic =
    user.token !== undefined ||
    user.tokenFile !== undefined ||
    user.clientCertificate !== undefined ||
    user.clientCertificateData !== undefined;
  const sources: CredentialSource[] = [];
  if (hasStatic) {
    try {
      sources.push(
        new StaticCredentialSource({
          token: user.token,
          tokenFile: user.tokenFile,
          clientCertificatePem: user.clientCertificateData,
          clientKeyPem: user.clientKeyData,
          clientCertificateFile: user.clientCertificate,
          clientKeyFile: user.clientKey,
          clock: opts.clock,
        }),
      );
    } catch (err) {
      throw new PlatconfigError(
        `invalid configuration in "${sel.file}": users["${user.name}"]: ${(err as Error).message}`,
        sel.file,
        `users["${user.name}"]`,
      );
    }
  }
  if (user.exec !== undefined) {
    sources.push(
      new ExecCredentialSource(user.exec, {
        ...opts.exec,
        profile,
        cluster: {
          server: cluster.server,
          certificateAuthorityData: caPem,
          tlsServerName: cluster.tlsServerName,
          insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
          proxyUrl: cluster.proxyUrl,
          disableCompression: cluster.disableCompression,
          config: findExecClusterConfig(cluster.extensions, profile),
        },
      }),
    );
  }
  const { overrides: _o, exec: _e, ...rest } = opts;
  return {
    userAgent: defaultUserAgent(profile),
    ...rest,
    profile,
    server: cluster.server,
    caPem,
    insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
    tlsServerName: cluster.tlsServerName,
    ...(cluster.proxyUrl !== undefined ? { proxyUrl: cluster.proxyUrl } : {}),
    credentials: sources.length === 0 ? undefined : sources.length === 1 ? sources[0] : new Layered(sources),
    namespace: sel.namespace,
    ...(user.impersonate !== undefined ? { impersonate: user.impersonate } : {}),
  };
}

/** Reads a configuration file, chooses its context and returns the REST client options for it. */
export function restOptionsFromPlatconfig(file: string, opts: FromPlatconfigOptions = {}): RestClientOptions {
  const cfg = readPlatconfig(file, { profile: opts.profile });
  return restOptionsFor(selectContext(cfg, opts.overrides), opts);
}

/** A REST client for a configuration file's (chosen) context. */
export function clientFromPlatconfig(file: string, opts: FromPlatconfigOptions = {}): RestClient {
  return new RestClient(restOptionsFromPlatconfig(file, opts));
}
