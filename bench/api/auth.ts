// The get scenario's users, one per way of authenticating (`--auth`): a client certificate, a
// static token, a service account's token and an OpenID token. None is in a privileged group, so
// every one of them takes the same path through authorization and only authentication differs (the
// admin's certificate would skip the authorizers through system:masters). Each is checked with a
// SelfSubjectReview before the load, so that a figure never belongs to another user than it says.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLeaf } from '../../src/server/pki/generate.ts';
import type { AuthKind } from '../lib/scenario.ts';
import { apiClient, type Protocol } from './http-client.ts';
import type { Endpoint, Target } from './target.ts';

/** The group every bench user is in: one name, so that an authorizer sees them alike. */
export const BENCH_GROUP = 'bench-users';
export const CERT_USER = 'bench-cert';
export const STATIC_USER = 'bench-static';
export const SERVICE_ACCOUNT = 'bench-sa';

/** What the kinds asked for need from the server and give each load thread. */
export interface AuthSetup {
  /** Flags of the server the bench starts (a token file, an OpenID issuer). */
  flags: string[];
  /**
   * Once the server is up: each kind's endpoint and the user name the server answered for it.
   * `namespace` is where a service account may be made.
   */
  users(t: Target, protocol: Protocol, namespace: string): Promise<AuthUser[]>;
  close(): Promise<void>;
}

export interface AuthUser {
  kind: AuthKind;
  endpoint: Endpoint;
  username: string;
}

/** The server's credentials-free half of an endpoint: where it is and which CA to trust. */
const bare = (e: Endpoint): Endpoint => ({ url: e.url, ca: e.ca, insecure: e.insecure });

/** A JSON request as the admin (the target's own credentials); refuses any status but `want`. */
async function adminRequest(
  t: Target,
  protocol: Protocol,
  method: string,
  path: string,
  body: unknown,
  want: number,
): Promise<Record<string, unknown>> {
  const c = apiClient(t.endpoint, protocol);
  try {
    const r = await c.request(method, path, JSON.stringify(body));
    if (r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as Record<string, unknown>;
  } finally {
    c.close();
  }
}

/** Who the server says the endpoint's credentials are (SelfSubjectReview, under the upstream group name every compatible server serves). */
export async function whoAmI(e: Endpoint, protocol: Protocol): Promise<string> {
  const c = apiClient(e, protocol);
  try {
    const r = await c.request(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    );
    if (r.status !== 201) throw new Error(`SelfSubjectReview: ${r.status} ${r.body}`);
    const review = JSON.parse(r.body) as { status?: { userInfo?: { username?: string } } };
    return review.status?.userInfo?.username ?? '';
  } finally {
    c.close();
  }
}

/** A client certificate for the bench's user, signed by the CA of our server's data directory. */
async function certEndpoint(t: Target): Promise<Endpoint> {
  // A server named by a kubeconfig: its user's credentials are the certificate case.
  if (t.dataDir === undefined) return t.endpoint;
  const ca = {
    certPem: readFileSync(join(t.dataDir, 'ca.crt'), 'utf8'),
    keyPem: readFileSync(join(t.dataDir, 'ca.key'), 'utf8'),
  };
  const leaf = await createLeaf(ca, {
    commonName: CERT_USER,
    organizations: [BENCH_GROUP],
    usage: 'client',
    validDays: 1,
  });
  return { ...bare(t.endpoint), cert: leaf.certPem, key: leaf.keyPem };
}

/** A ServiceAccount in `namespace` and a token for it from TokenRequest (one hour, the API's audiences). */
async function serviceAccountEndpoint(t: Target, protocol: Protocol, namespace: string): Promise<Endpoint> {
  const accounts = `/api/v1/namespaces/${namespace}/serviceaccounts`;
  await adminRequest(t, protocol, 'POST', accounts, { metadata: { name: SERVICE_ACCOUNT } }, 201);
  const review = await adminRequest(
    t,
    protocol,
    'POST',
    `${accounts}/${SERVICE_ACCOUNT}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    201,
  );
  const token = (review.status as { token?: string } | undefined)?.token;
  if (token === undefined) throw new Error('TokenRequest answered no token');
  return { ...bare(t.endpoint), token };
}

/**
 * Read access to the namespace's ConfigMaps for every bench user (their group and the service
 * account), as an operator grants it under RBAC (the default mode): a Role and a RoleBinding, under
 * the upstream group name every compatible server serves. A Role of its own rather than the `view`
 * ClusterRole: `view` is aggregated, and an API server without a controller manager (this bench's
 * target, or kube-apiserver alone) leaves its rules empty.
 */
async function grantView(t: Target, protocol: Protocol, namespace: string): Promise<void> {
  const rbac = 'rbac.authorization.k8s.io';
  await adminRequest(
    t,
    protocol,
    'POST',
    `/apis/${rbac}/v1/namespaces/${namespace}/roles`,
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: 'bench-users-read' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    },
    201,
  );
  await adminRequest(
    t,
    protocol,
    'POST',
    `/apis/${rbac}/v1/namespaces/${namespace}/rolebindings`,
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'bench-users-read' },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'bench-users-read' },
      subjects: [
        { kind: 'Group', apiGroup: rbac, name: BENCH_GROUP },
        { kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace },
      ],
    },
    201,
  );
}

/** Waits (30 s at most) until the endpoint may list the namespace's ConfigMaps: RBAC learns bindings by watching. */
async function untilAllowed(e: Endpoint, protocol: Protocol, namespace: string): Promise<void> {
  const c = apiClient(e, protocol);
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await c.request('GET', `/api/v1/namespaces/${namespace}/configmaps?limit=1`);
      if (r.status === 200) return;
      if (Date.now() > deadline)
        throw new Error(`the bench user was never allowed to read ${namespace}: ${r.status} ${r.body}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    c.close();
  }
}

/** The kinds that need flags of the server, which a server named by a kubeconfig does not take. */
const NEEDS_OUR_SERVER: readonly AuthKind[] = ['static-token', 'oidc-token'];

export async function prepareAuth(kinds: readonly AuthKind[], ownServer: boolean): Promise<AuthSetup> {
  const refused = kinds.filter((k) => NEEDS_OUR_SERVER.includes(k));
  if (!ownServer && refused.length > 0)
    throw new Error(
      `--auth ${refused.join(',')} sets flags of the server, so it needs the server the bench starts (not --kubeconfig)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'bench-auth-'));
  const flags: string[] = [];
  const staticToken = randomBytes(24).toString('base64url');
  if (kinds.includes('static-token')) {
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, `${staticToken},${STATIC_USER},${STATIC_USER}-uid,${BENCH_GROUP}\n`, { mode: 0o600 });
    flags.push(`--token-auth-file=${file}`);
  }
  const oidc = kinds.includes('oidc-token') ? await startOidc(dir) : undefined;
  if (oidc !== undefined) flags.push(...oidc.flags);
  return {
    flags,
    async users(t, protocol, namespace) {
      await grantView(t, protocol, namespace);
      const out: AuthUser[] = [];
      for (const kind of kinds) {
        let endpoint: Endpoint;
        if (kind === 'cert') endpoint = await certEndpoint(t);
        else if (kind === 'static-token') endpoint = { ...bare(t.endpoint), token: staticToken };
        else if (kind === 'sa-token') endpoint = await serviceAccountEndpoint(t, protocol, namespace);
        else endpoint = { ...bare(t.endpoint), token: await (oidc as OidcPeer).token() };
        out.push({ kind, endpoint, username: await whoAmI(endpoint, protocol) });
      }
      for (const u of out) await untilAllowed(u.endpoint, protocol, namespace);
      return out;
    },
    async close() {
      await oidc?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The OpenID issuer the server trusts for the oidc-token kind, and a token from it. */
interface OidcPeer {
  flags: string[];
  token(): Promise<string>;
  stop(): Promise<void>;
}

export const OIDC_USER = 'bench-oidc';
const OIDC_CLIENT_ID = 'bench';

/**
 * The test OpenID issuer (HTTPS on loopback with its own CA) in the harness's process, and the
 * server's --oidc-* flags for it: user names from `sub` under the prefix `oidc:`, groups from
 * `groups`, so that the token's user is `oidc:bench-oidc` in the bench's group.
 */
async function startOidc(dir: string): Promise<OidcPeer> {
  const { TestOidcIssuer } = await import('../../src/auth/authn/testing/oidc-issuer.ts');
  const issuer = await TestOidcIssuer.start();
  const caFile = join(dir, 'oidc-ca.crt');
  writeFileSync(caFile, issuer.caPem);
  return {
    flags: [
      `--oidc-issuer-url=${issuer.url}`,
      `--oidc-client-id=${OIDC_CLIENT_ID}`,
      `--oidc-ca-file=${caFile}`,
      '--oidc-username-claim=sub',
      '--oidc-username-prefix=oidc:',
      '--oidc-groups-claim=groups',
    ],
    // Valid for an hour (the issuer's default), as the service account's token.
    token: () => issuer.issue(OIDC_CLIENT_ID, { sub: OIDC_USER, groups: [BENCH_GROUP] }),
    stop: () => issuer.stop(),
  };
}
