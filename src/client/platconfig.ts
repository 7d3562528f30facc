// Reading a client configuration file (kubectl's kubeconfig format: clusters, users, contexts and
// the current context), so controllers and tests connect with the same file stock clients use.
// Type errors name the file and the field path; the checks of the chosen context are client-go's,
// in its words. Relative file paths are anchored at the file's directory, as clientcmd does, so a
// configuration shipped beside its certificates works from any working directory.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { type NamingProfile, namingProfile } from '../naming/index.ts';
import { type ExecConfig, ExecConfigError, parseExecConfig } from './exec/exec-config.ts';

export interface PlatconfigCluster {
  name: string;
  server: string;
  /** A CA bundle file, absolute. */
  certificateAuthority?: string;
  /** A CA bundle, decoded from certificate-authority-data. */
  certificateAuthorityData?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
  disableCompression: boolean;
  /** The cluster's extensions as written ({name, extension} items), for exec plugins' cluster info. */
  extensions?: unknown[];
}

export interface PlatconfigUser {
  name: string;
  /** Files, absolute. */
  clientCertificate?: string;
  clientKey?: string;
  tokenFile?: string;
  /** PEM, decoded from the -data fields. */
  clientCertificateData?: string;
  clientKeyData?: string;
  token?: string;
  exec?: ExecConfig;
  /** Impersonation (`as`, `as-uid`, `as-groups`, `as-user-extra`). */
  impersonate?: { user: string; uid?: string; groups: string[]; extra: Record<string, string[]> };
}

export interface PlatconfigContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

export interface Platconfig {
  /** The file it was read from (absolute), or '' for text parsed without one. */
  file: string;
  clusters: PlatconfigCluster[];
  users: PlatconfigUser[];
  contexts: PlatconfigContext[];
  currentContext: string;
}

/** A configuration that cannot be read or used; the message names the file and the field. */
export class PlatconfigError extends Error {
  override name = 'PlatconfigError';
  constructor(
    message: string,
    readonly file: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface ParsePlatconfigOptions {
  /** Decides which ExecCredential apiVersions an exec stanza may name; default the spec profile. */
  profile?: NamingProfile;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const join = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);

/** Reads and parses a file; relative paths inside it are anchored at its directory. */
export function readPlatconfig(file: string, opts: ParsePlatconfigOptions = {}): Platconfig {
  const abs = resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new PlatconfigError(`error loading config file "${abs}": ${(err as Error).message}`, abs);
  }
  return parsePlatconfig(text, abs, opts);
}

/** Parses a configuration's text; `file` anchors relative paths (the working directory when ''). */
export function parsePlatconfig(text: string, file: string, opts: ParsePlatconfigOptions = {}): Platconfig {
  const fail = (field: string | undefined, problem: string): never => {
    const at = field === undefined ? '' : `${field}: `;
    throw new PlatconfigError(`error loading config file "${file}": ${at}${problem}`, file, field);
  };
  let doc: unknown;
  try {
    doc = parse(text, { prettyErrors: false });
  } catch (err) {
    return fail(undefined, (err as Error).message);
  }
  // An empty file is an empty configuration, as clientcmd reads it.
  if (doc === null || doc === undefined) doc = {};
  if (!isObj(doc)) return fail(undefined, `must be a mapping, got ${typeName(doc)}`);
  const dir = file === '' ? process.cwd() : dirname(file);
  if (doc.apiVersion !== undefined && doc.apiVersion !== null && doc.apiVersion !== 'v1')
    fail('apiVersion', `no kind "Config" is registered for version ${JSON.stringify(doc.apiVersion)}`);
  if (doc.kind !== undefined && doc.kind !== null && doc.kind !== 'Config')
    fail('kind', `must be "Config", got ${JSON.stringify(doc.kind)}`);
  const profile = opts.profile ?? namingProfile('spec');

  const str = (o: Obj, key: string, at: string): string | undefined => {
    const v = o[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') return fail(join(at, key), `must be a string, got ${typeName(v)}`);
    return v;
  };
  const bool = (o: Obj, key: string, at: string): boolean => {
    const v = o[key];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') return fail(`${at}.${key}`, `must be a boolean, got ${typeName(v)}`);
    return v;
  };
  const path = (o: Obj, key: string, at: string): string | undefined => {
    const v = str(o, key, at);
    return v === undefined ? undefined : isAbsolute(v) ? v : resolve(dir, v);
  };
  const data = (o: Obj, key: string, at: string): string | undefined => {
    const v = str(o, key, at);
    if (v === undefined) return undefined;
    const compact = v.replace(/[\r\n]/g, '');
    if (!BASE64.test(compact) || compact.length % 4 !== 0) return fail(`${at}.${key}`, 'illegal base64 data');
    return Buffer.from(compact, 'base64').toString('utf8');
  };
  const named = (key: string, inner: string): { at: string; name: string; body: Obj }[] => {
    const list = doc[key];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) return fail(key, `must be a list, got ${typeName(list)}`);
    const seen = new Set<string>();
    return list.map((item, i) => {
      const at = `${key}[${i}]`;
      if (!isObj(item)) return fail(at, `must be a mapping, got ${typeName(item)}`);
      const name = str(item, 'name', at) ?? '';
      if (seen.has(name)) fail(`${at}.name`, `duplicate name "${name}" in list`);
      seen.add(name);
      const body = item[inner] ?? {};
      if (!isObj(body)) return fail(`${at}.${inner}`, `must be a mapping, got ${typeName(body)}`);
      return { at: `${at}.${inner}`, name, body };
    });
  };

  const clusters = named('clusters', 'cluster').map(({ at, name, body }): PlatconfigCluster => {
    const extensions = body.extensions;
    if (extensions !== undefined && extensions !== null && !Array.isArray(extensions))
      fail(`${at}.extensions`, `must be a list, got ${typeName(extensions)}`);
    return {
      name,
      server: str(body, 'server', at) ?? '',
      certificateAuthority: path(body, 'certificate-authority', at),
      certificateAuthorityData: data(body, 'certificate-authority-data', at),
      insecureSkipTlsVerify: bool(body, 'insecure-skip-tls-verify', at),
      tlsServerName: str(body, 'tls-server-name', at),
      proxyUrl: str(body, 'proxy-url', at),
      disableCompression: bool(body, 'disable-compression', at),
      ...(Array.isArray(extensions) ? { extensions } : {}),
    };
  });

  const users = named('users', 'user').map(({ at, name, body }): PlatconfigUser => {
    if (str(body, 'username', at) !== undefined || str(body, 'password', at) !== undefined)
      fail(
        `${at}.${body.username !== undefined ? 'username' : 'password'}`,
        'basic authentication is not supported (upstream removed it in 1.19): use a token, a client certificate or an exec plugin',
      );
    if (body['auth-provider'] !== undefined && body['auth-provider'] !== null)
      fail(
        `${at}.auth-provider`,
        'auth providers are not supported (upstream removed them): use an exec plugin',
      );
    const user: PlatconfigUser = {
      name,
      clientCertificate: path(body, 'client-certificate', at),
      clientCertificateData: data(body, 'client-certificate-data', at),
      clientKey: path(body, 'client-key', at),
      clientKeyData: data(body, 'client-key-data', at),
      token: str(body, 'token', at),
      tokenFile: path(body, 'tokenFile', at),
    };
    if (body.exec !== undefined && body.exec !== null) {
      try {
        user.exec = parseExecConfig(body.exec, dir, { userName: name, fieldPath: `${at}.exec`, profile });
      } catch (err) {
        if (err instanceof ExecConfigError) fail(`${at}.exec`, err.message);
        throw err;
      }
    }
    const as = str(body, 'as', at);
    const uid = str(body, 'as-uid', at);
    const groups = body['as-groups'] ?? [];
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))
      fail(`${at}.as-groups`, 'must be a list of strings');
    const extra = body['as-user-extra'] ?? {};
    if (
      !isObj(extra) ||
      Object.values(extra).some((v) => !Array.isArray(v) || v.some((s) => typeof s !== 'string'))
    )
      fail(`${at}.as-user-extra`, 'must be a mapping of string lists');
    if (
      as !== undefined ||
      uid !== undefined ||
      (groups as string[]).length > 0 ||
      Object.keys(extra).length > 0
    )
      user.impersonate = {
        user: as ?? '',
        ...(uid !== undefined ? { uid } : {}),
        groups: groups as string[],
        extra: extra as Record<string, string[]>,
      };
    return user;
  });

  const contexts = named('contexts', 'context').map(({ at, name, body }): PlatconfigContext => {
    const namespace = str(body, 'namespace', at);
    return {
      name,
      cluster: str(body, 'cluster', at) ?? '',
      user: str(body, 'user', at) ?? '',
      ...(namespace !== undefined ? { namespace } : {}),
    };
  });

  return { file, clusters, users, contexts, currentContext: str(doc, 'current-context', '') ?? '' };
}
