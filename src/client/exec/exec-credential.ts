// The ExecCredential objects of the plugin protocol: the one the client hands the plugin (spec:
// interactive, and the cluster when asked to provide it) and the one the plugin answers with
// (status: a token, or a certificate and key, and an optional expiry), checked the way client-go
// checks it so a plugin that works with stock clients works here and a broken one is named.

import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { type NamingProfile, sameApiVersion } from '../../naming/index.ts';
import type { Credentials } from '../api.ts';

const KIND = 'ExecCredential';

/** What the plugin learns about the cluster when the config sets provideClusterInfo. */
export interface ExecClusterInfo {
  server: string;
  /** PEM of the cluster's authorities (from certificate-authority-data or the file it names). */
  certificateAuthorityData?: string;
  tlsServerName?: string;
  insecureSkipTlsVerify?: boolean;
  proxyUrl?: string;
  disableCompression?: boolean;
  /** The cluster's exec extension (findExecClusterConfig), passed to the plugin as spec.cluster.config. */
  config?: unknown;
}

/** The ExecCredential the plugin reads from its environment, as JSON. */
export function encodeExecCredentialInput(
  apiVersion: string,
  interactive: boolean,
  cluster?: ExecClusterInfo,
): string {
  const spec: Record<string, unknown> = {};
  if (cluster !== undefined) {
    // Field names and encodings as in a client configuration file's cluster entry.
    const c: Record<string, unknown> = { server: cluster.server };
    if (cluster.tlsServerName) c['tls-server-name'] = cluster.tlsServerName;
    if (cluster.insecureSkipTlsVerify) c['insecure-skip-tls-verify'] = true;
    if (cluster.certificateAuthorityData)
      c['certificate-authority-data'] = Buffer.from(cluster.certificateAuthorityData).toString('base64');
    if (cluster.proxyUrl) c['proxy-url'] = cluster.proxyUrl;
    if (cluster.disableCompression) c['disable-compression'] = true;
    if (cluster.config !== undefined) c.config = cluster.config;
    spec.cluster = c;
  }
  spec.interactive = interactive;
  return JSON.stringify({ kind: KIND, apiVersion, spec });
}

/** What a plugin's answer yields: credentials and, when it said, when they expire (ms since the epoch). */
export interface ExecCredentialResult {
  credentials: Credentials;
  expiresAt?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Parses the plugin's standard output. JSON normally; YAML too, since client-go's decoder takes it.
 * Messages never quote the output: it may hold a token.
 */
async function parseOutput(stdout: string): Promise<Record<string, unknown>> {
  const text = stdout.trim();
  let parsed: unknown;
  if (text.startsWith('{')) {
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(`decoding stdout: ${(e as Error).message}`);
    }
  } else if (text === '') {
    throw new Error("decoding stdout: Object 'Kind' is missing in ''");
  } else {
    try {
      const { parse } = await import('yaml');
      parsed = parse(text, { prettyErrors: false });
    } catch {
      parsed = undefined;
    }
    if (!isObject(parsed))
      throw new Error(
        "decoding stdout: couldn't get version/kind; output is neither a JSON nor a YAML object",
      );
  }
  if (!isObject(parsed)) throw new Error(`decoding stdout: expected an object, got ${typeName(parsed)}`);
  return parsed;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function parseTime(v: string): number | undefined {
  if (!RFC3339.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Decodes and checks the plugin's answer. `apiVersion` is the one the config asked for; an answer
 * in the same version of the group's other name (the profile's or upstream's) is the same type.
 */
export async function decodeExecCredentialOutput(
  stdout: string,
  apiVersion: string,
  profile: NamingProfile,
): Promise<ExecCredentialResult> {
  const obj = await parseOutput(stdout);
  const kind = obj.kind;
  const version = obj.apiVersion;
  if (kind === undefined || kind === null || kind === '')
    throw new Error("decoding stdout: Object 'Kind' is missing");
  if (version === undefined || version === null || version === '')
    throw new Error("decoding stdout: Object 'apiVersion' is missing");
  if (typeof kind !== 'string' || typeof version !== 'string')
    throw new Error('decoding stdout: kind and apiVersion must be strings');
  if (kind !== KIND)
    throw new Error(
      `decoding stdout: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(version)}`,
    );
  if (!sameApiVersion(profile, version, apiVersion))
    throw new Error(
      `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${version}`,
    );

  const status = obj.status;
  if (status === undefined || status === null) throw new Error("exec plugin didn't return a status field");
  if (!isObject(status))
    throw new Error(`decoding stdout: status: must be an object, got ${typeName(status)}`);
  const field = (key: string): string => {
    const v = status[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string')
      throw new Error(`decoding stdout: status.${key}: must be a string, got ${typeName(v)}`);
    return v;
  };
  const token = field('token');
  const cert = field('clientCertificateData');
  const key = field('clientKeyData');
  const expiry = field('expirationTimestamp');

  if (token === '' && cert === '' && key === '')
    throw new Error("exec plugin didn't return a token or cert/key pair");
  if ((cert === '') !== (key === ''))
    throw new Error('exec plugin returned only certificate or key, not both');

  let expiresAt: number | undefined;
  if (expiry !== '') {
    expiresAt = parseTime(expiry);
    if (expiresAt === undefined)
      throw new Error(
        `decoding stdout: status.expirationTimestamp: ${JSON.stringify(expiry)} is not an RFC 3339 time`,
      );
  }

  if (cert === '') return { credentials: { token }, expiresAt };
  checkKeyPair(cert, key);
  // Both at once are used together, as client-go does: the certificate in the handshake, the
  // token in each request.
  const credentials: Credentials = { clientCertificatePem: cert, clientKeyPem: key };
  if (token !== '') credentials.token = token;
  return { credentials, expiresAt };
}

interface PemBlock {
  type: string;
  text: string;
}

function pemBlocks(data: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of data.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g))
    out.push({ type: m[1] as string, text: m[0] });
  return out;
}

const isKeyType = (t: string) => t === 'PRIVATE KEY' || t.endsWith(' PRIVATE KEY');

/**
 * The checks Go's tls.X509KeyPair makes, in its words: PEM certificate blocks (the first is the
 * leaf, intermediates may follow), a PEM private key, and a key that belongs to the leaf.
 */
function checkKeyPair(certData: string, keyData: string): void {
  const fail = (msg: string): never => {
    throw new Error(`failed parsing client key/certificate: ${msg}`);
  };
  const certBlocks = pemBlocks(certData);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    if (certBlocks.length === 0) fail('tls: failed to find any PEM data in certificate input');
    if (certBlocks.some((b) => isKeyType(b.type)))
      fail(
        'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      );
    fail(
      `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${certBlocks.map((b) => b.type).join(' ')}]`,
    );
  }
  let leaf: X509Certificate | undefined;
  for (const b of certs) {
    try {
      const c = new X509Certificate(b.text);
      leaf ??= c;
    } catch (e) {
      fail(`tls: failed to parse certificate: ${(e as Error).message}`);
    }
  }

  const keyBlocks = pemBlocks(keyData);
  const keyBlock = keyBlocks.find((b) => isKeyType(b.type));
  if (keyBlock === undefined) {
    if (keyBlocks.length === 0) fail('tls: failed to find any PEM data in key input');
    if (keyBlocks.some((b) => b.type === 'CERTIFICATE'))
      fail('tls: found a certificate rather than a key in the PEM for the private key');
    fail(
      `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${keyBlocks.map((b) => b.type).join(' ')}]`,
    );
  }
  let keyObject: KeyObject | undefined;
  try {
    keyObject = createPrivateKey((keyBlock as PemBlock).text);
  } catch {
    fail('tls: failed to parse private key');
  }
  let matches = false;
  try {
    matches = (leaf as X509Certificate).checkPrivateKey(keyObject as KeyObject);
  } catch {
    matches = false;
  }
  if (!matches) fail('tls: private key does not match public key');
}
