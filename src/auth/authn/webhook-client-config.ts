// How to reach a webhook (the token webhook now, the authorization webhook later): a client
// configuration file in the format kubectl reads, its current context naming a cluster (the
// webhook's URL and the CA that signs its certificate) and a user (a client certificate, a bearer
// token or basic credentials for the webhook). src/client/ only writes such files, so the small
// reader lives here. Paths inside the file are relative to the file, as client-go resolves them.
// Every problem stops the server at start with the file and the entry named.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface WebhookClientConfig {
  /** The exact URL requests are sent to (its path included). */
  url: URL;
  /** PEM of the CAs that may sign the webhook's certificate; the host's roots when absent. */
  ca?: Buffer;
  insecureSkipTlsVerify: boolean;
  /** Name checked against the webhook's certificate instead of the URL's host. */
  serverName?: string;
  clientCert?: Buffer;
  clientKey?: Buffer;
  token?: string;
  username?: string;
  password?: string;
}

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

function named(list: unknown, kind: string, name: string, file: string): Dict {
  if (list !== undefined && list !== null && !Array.isArray(list))
    throw new Error(`${file}: ${kind}s must be a list`);
  for (const entry of (list as unknown[] | undefined) ?? []) {
    if (isDict(entry) && entry.name === name) {
      const inner = entry[kind];
      if (inner === undefined || inner === null) return {};
      if (!isDict(inner)) throw new Error(`${file}: ${kind} ${JSON.stringify(name)} must be a mapping`);
      return inner;
    }
  }
  throw new Error(`${file}: no ${kind} named ${JSON.stringify(name)}`);
}

function text(d: Dict, key: string, where: string): string | undefined {
  const v = d[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`${where}: ${key} must be a string`);
  return v;
}

/** A `<name>` file or `<name>-data` inline base64 value; the inline one wins, as client-go's. */
function material(d: Dict, key: string, where: string, dir: string): Buffer | undefined {
  const data = text(d, `${key}-data`, where);
  if (data !== undefined) {
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length === 0) throw new Error(`${where}: ${key}-data is not base64`);
    return bytes;
  }
  const path = text(d, key, where);
  if (path === undefined) return undefined;
  const full = isAbsolute(path) ? path : join(dir, path);
  try {
    return readFileSync(full);
  } catch (err) {
    throw new Error(`${where}: unable to read ${key} ${full}: ${(err as Error).message}`);
  }
}

export function parseWebhookClientConfig(source: string, file: string): WebhookClientConfig {
  let doc: unknown;
  try {
    doc = parseYaml(source);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  if (!isDict(doc)) throw new Error(`${file}: not a client configuration`);
  const dir = dirname(file);
  const contextName = text(doc, 'current-context', file);
  if (contextName === undefined) throw new Error(`${file}: current-context is not set`);
  const context = named(doc.contexts, 'context', contextName, file);
  const clusterName = text(context, 'cluster', `${file}: context ${JSON.stringify(contextName)}`);
  if (clusterName === undefined)
    throw new Error(`${file}: context ${JSON.stringify(contextName)} names no cluster`);
  const cluster = named(doc.clusters, 'cluster', clusterName, file);
  const cw = `${file}: cluster ${JSON.stringify(clusterName)}`;
  const server = text(cluster, 'server', cw);
  if (server === undefined) throw new Error(`${cw}: no server found`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`${cw}: server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${cw}: server ${JSON.stringify(server)} is neither https nor http`);
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  const ca = material(cluster, 'certificate-authority', cw, dir);
  if (insecure && ca !== undefined)
    throw new Error(`${cw}: specifying a root certificates file with the insecure flag is not allowed`);
  const config: WebhookClientConfig = {
    url,
    ca,
    insecureSkipTlsVerify: insecure,
    serverName: text(cluster, 'tls-server-name', cw),
  };
  const userName = text(context, 'user', `${file}: context ${JSON.stringify(contextName)}`);
  if (userName === undefined) return config;
  const user = named(doc.users, 'user', userName, file);
  const uw = `${file}: user ${JSON.stringify(userName)}`;
  config.clientCert = material(user, 'client-certificate', uw, dir);
  config.clientKey = material(user, 'client-key', uw, dir);
  if ((config.clientCert === undefined) !== (config.clientKey === undefined))
    throw new Error(`${uw}: a client certificate needs its key, and a key its certificate`);
  config.token = text(user, 'token', uw);
  const tokenFile = text(user, 'tokenFile', uw);
  if (config.token === undefined && tokenFile !== undefined) {
    const full = isAbsolute(tokenFile) ? tokenFile : join(dir, tokenFile);
    try {
      config.token = readFileSync(full, 'utf8').trim();
    } catch (err) {
      throw new Error(`${uw}: unable to read tokenFile ${full}: ${(err as Error).message}`);
    }
  }
  config.username = text(user, 'username', uw);
  config.password = text(user, 'password', uw);
  if (config.token !== undefined && config.username !== undefined)
    throw new Error(`${uw}: more than one authentication method found: token and basic auth`);
  return config;
}

export function loadWebhookClientConfig(file: string): WebhookClientConfig {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`unable to read ${file}: ${(err as Error).message}`);
  }
  return parseWebhookClientConfig(source, file);
}
