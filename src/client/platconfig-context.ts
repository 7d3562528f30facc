// Choosing a context from a read configuration and checking it as client-go checks a configuration
// before use: the context, its user and its cluster must exist and agree, every problem reported at
// once in client-go's words, each prefixed with its field path and the message naming the file.

import { readFileSync } from 'node:fs';
import { isDNS1123Label } from '../machinery/validation/names.ts';
import {
  type Platconfig,
  type PlatconfigCluster,
  type PlatconfigContext,
  PlatconfigError,
  type PlatconfigUser,
} from './platconfig.ts';

/** What a caller may choose over the file's own choices (kubectl's --context, --cluster, --user, -n). */
export interface ContextOverrides {
  context?: string;
  cluster?: string;
  user?: string;
  namespace?: string;
}

/** The chosen context with its cluster and user: what a client connects with. */
export interface SelectedContext {
  file: string;
  context: string;
  /** The context's namespace, `default` when it names none. */
  namespace: string;
  cluster: PlatconfigCluster;
  user: PlatconfigUser;
}

const canOpen = (file: string): string | undefined => {
  try {
    readFileSync(file);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

/**
 * The context to use (the override's, else current-context), checked as client-go checks a
 * configuration before use; every problem is reported at once, each with its field path.
 */
export function selectContext(cfg: Platconfig, overrides: ContextOverrides = {}): SelectedContext {
  const problems: string[] = [];
  const fields: string[] = [];
  const problem = (field: string, message: string) => {
    fields.push(field);
    problems.push(`${field}: ${message}`);
  };
  const invalid = () => {
    const agg = problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`;
    return new PlatconfigError(`invalid configuration in "${cfg.file}": ${agg}`, cfg.file, fields[0]);
  };
  const name = overrides.context ?? cfg.currentContext;
  if (name === '') {
    problem('current-context', 'no context chosen');
    throw invalid();
  }
  const ci = cfg.contexts.findIndex((c) => c.name === name);
  if (ci < 0) {
    problem(
      overrides.context !== undefined ? 'context' : 'current-context',
      `context was not found for specified context: ${name}`,
    );
    throw invalid();
  }
  const ctx = cfg.contexts[ci] as PlatconfigContext;
  const clusterName = overrides.cluster ?? ctx.cluster;
  const userName = overrides.user ?? ctx.user;
  const namespace = overrides.namespace ?? ctx.namespace;
  const cat = `contexts[${ci}].context`;
  if (userName === '') problem(`${cat}.user`, `user was not specified for context "${name}"`);
  if (clusterName === '') problem(`${cat}.cluster`, `cluster was not specified for context "${name}"`);
  const ui = cfg.users.findIndex((u) => u.name === userName);
  const ki = cfg.clusters.findIndex((c) => c.name === clusterName);
  if (userName !== '' && ui < 0)
    problem(`${cat}.user`, `user "${userName}" was not found for context "${name}"`);
  if (clusterName !== '' && ki < 0)
    problem(`${cat}.cluster`, `cluster "${clusterName}" was not found for context "${name}"`);
  if (namespace !== undefined && isDNS1123Label(namespace).length > 0)
    problem(
      `${cat}.namespace`,
      `namespace "${namespace}" for context "${name}" does not conform to the DNS_LABEL rules`,
    );
  const user = cfg.users[ui] ?? { name: userName };
  const cluster = cfg.clusters[ki] ?? {
    name: clusterName,
    server: '',
    insecureSkipTlsVerify: false,
    disableCompression: false,
  };
  if (ui >= 0) checkUser(user, `users[${ui}].user`, problem);
  if (ki >= 0) checkCluster(cluster, `clusters[${ki}].cluster`, problem);
  if (problems.length > 0) throw invalid();
  return { file: cfg.file, context: name, namespace: namespace ?? 'default', cluster, user };
}

type Report = (field: string, message: string) => void;

function checkCluster(c: PlatconfigCluster, at: string, problem: Report): void {
  if (c.server === '') problem(`${at}.server`, `no server found for cluster "${c.name}"`);
  else {
    let url: URL | undefined;
    try {
      url = new URL(c.server);
    } catch {
      problem(`${at}.server`, `invalid server URL "${c.server}" for cluster "${c.name}"`);
    }
    if (url !== undefined && url.protocol !== 'https:' && url.protocol !== 'http:')
      problem(`${at}.server`, `server URL "${c.server}" for cluster "${c.name}" must be https or http`);
  }
  if (c.proxyUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:', 'socks5:'].includes(new URL(c.proxyUrl).protocol);
    } catch {}
    if (!ok) problem(`${at}.proxy-url`, `invalid 'proxy-url' "${c.proxyUrl}" for cluster "${c.name}"`);
  }
  if (c.certificateAuthority !== undefined && c.certificateAuthorityData !== undefined)
    problem(
      `${at}.certificate-authority`,
      `certificate-authority-data and certificate-authority are both specified for ${c.name}. certificate-authority-data will override.`,
    );
  if (c.certificateAuthority !== undefined) {
    const err = canOpen(c.certificateAuthority);
    if (err !== undefined)
      problem(
        `${at}.certificate-authority`,
        `unable to read certificate-authority ${c.certificateAuthority} for ${c.name} due to ${err}`,
      );
  }
}

function checkUser(u: PlatconfigUser, at: string, problem: Report): void {
  const methods: string[] = [];
  if (u.token !== undefined) methods.push('token');
  if (u.clientCertificate !== undefined || u.clientCertificateData !== undefined) {
    if (u.clientCertificate !== undefined && u.clientCertificateData !== undefined)
      problem(
        `${at}.client-certificate`,
        `client-cert-data and client-cert are both specified for ${u.name}. client-cert-data will override.`,
      );
    if (u.clientKey !== undefined && u.clientKeyData !== undefined)
      problem(
        `${at}.client-key`,
        `client-key-data and client-key are both specified for ${u.name}; client-key-data will override`,
      );
    if (u.clientKey === undefined && u.clientKeyData === undefined)
      problem(
        `${at}.client-key`,
        `client-key-data or client-key must be specified for ${u.name} to use the clientCert authentication method.`,
      );
    for (const [field, file] of [
      ['client-certificate', u.clientCertificate],
      ['client-key', u.clientKey],
    ] as const) {
      if (file === undefined) continue;
      const err = canOpen(file);
      const what = field === 'client-certificate' ? 'client-cert' : 'client-key';
      if (err !== undefined)
        problem(`${at}.${field}`, `unable to read ${what} ${file} for ${u.name} due to ${err}`);
    }
  }
  const imp = u.impersonate;
  if (imp !== undefined && imp.user === '')
    problem(`${at}.as`, `requesting uid, groups or user-extra for ${u.name} without impersonating a user`);
}
