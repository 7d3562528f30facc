// What a legacy service account token Secret must hold, as upstream's token controller sees it:
// which Secrets are a given account's tokens (the type, the name annotation, and the uid
// annotation when set), which of `token`, `namespace` and `ca.crt` need filling in (a missing token
// or namespace, a CA that differs from the configured bundle), and the Secret once filled in. Also
// the queue keys, which carry enough to act after the object is gone.

import type { ApiObject } from '../../machinery/object.ts';
import type { ServiceAccountNames } from '../../naming/service-accounts.ts';
import { nameOf, namespaceOf, stringMap } from '../controller-support.ts';

export const TOKEN_KEY = 'token';
export const NAMESPACE_KEY = 'namespace';
export const ROOT_CA_KEY = 'ca.crt';

export type TokenNames = Pick<ServiceAccountNames, 'tokenSecretType' | 'nameAnnotation' | 'uidAnnotation'>;

export interface AccountRef {
  namespace: string;
  name: string;
  uid: string;
}

/** Whether `secret` is a token of the account `sa` (upstream's IsServiceAccountToken). */
export function isServiceAccountToken(secret: ApiObject, sa: AccountRef, names: TokenNames): boolean {
  if (secret.type !== names.tokenSecretType) return false;
  const ann = stringMap(secret.metadata?.annotations);
  if ((ann[names.nameAnnotation] ?? '') !== sa.name) return false;
  const uid = ann[names.uidAnnotation] ?? '';
  return uid === '' || uid === sa.uid;
}

function dataBytes(secret: ApiObject, key: string): Buffer {
  const data = secret.data;
  if (data === null || typeof data !== 'object') return Buffer.alloc(0);
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

export interface UpdateNeeded {
  ca: boolean;
  namespace: boolean;
  token: boolean;
}

/** What of the token Secret needs (re)writing, given the CA bundle to hand out ('' for none). */
export function secretUpdateNeeded(secret: ApiObject, rootCA: string): UpdateNeeded {
  return {
    ca: rootCA !== '' && !dataBytes(secret, ROOT_CA_KEY).equals(Buffer.from(rootCA)),
    namespace: dataBytes(secret, NAMESPACE_KEY).length === 0,
    token: dataBytes(secret, TOKEN_KEY).length === 0,
  };
}

export const anyNeeded = (n: UpdateNeeded): boolean => n.ca || n.namespace || n.token;

/**
 * A copy of `live` with what `needed` says filled in (`token` when a token is needed) and the
 * account's name and uid annotations set.
 */
export function populatedSecret(
  live: ApiObject,
  sa: AccountRef,
  needed: UpdateNeeded,
  rootCA: string,
  token: string | undefined,
  names: TokenNames,
): ApiObject {
  const next = structuredClone(live);
  const meta = next.metadata ?? {};
  next.metadata = meta;
  const data: Record<string, unknown> =
    next.data !== null && typeof next.data === 'object' ? { ...(next.data as Record<string, unknown>) } : {};
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  if (needed.ca) data[ROOT_CA_KEY] = b64(rootCA);
  if (needed.namespace) data[NAMESPACE_KEY] = b64(namespaceOf(live));
  if (needed.token && token !== undefined) data[TOKEN_KEY] = b64(token);
  next.data = data;
  meta.annotations = {
    ...stringMap(meta.annotations),
    [names.nameAnnotation]: sa.name,
    [names.uidAnnotation]: sa.uid,
  };
  return next;
}

/** The names of the Secrets an account lists. */
export function secretReferences(sa: ApiObject): Set<string> {
  const refs = Array.isArray(sa.secrets) ? (sa.secrets as unknown[]) : [];
  const out = new Set<string>();
  for (const r of refs) {
    const n = (r as { name?: unknown } | null)?.name;
    if (typeof n === 'string') out.add(n);
  }
  return out;
}

/** Queue key of an account: namespace, name and uid (all needed). */
export function accountKey(sa: ApiObject): string | undefined {
  const ref = [namespaceOf(sa), nameOf(sa), String(sa.metadata?.uid ?? '')];
  return ref.every((s) => s !== '') ? JSON.stringify(ref) : undefined;
}

export function parseAccountKey(key: string): AccountRef {
  const [namespace, name, uid] = JSON.parse(key) as string[];
  return { namespace, name, uid };
}

export interface SecretRef {
  namespace: string;
  name: string;
  uid: string;
  saName: string;
  /** '' for tokens that do not name the account's uid yet. */
  saUid: string;
}

/** Queue key of a token Secret, with the account it names; undefined when it names none. */
export function secretKey(secret: ApiObject, names: TokenNames): string | undefined {
  const ann = stringMap(secret.metadata?.annotations);
  const ref = [
    namespaceOf(secret),
    nameOf(secret),
    String(secret.metadata?.uid ?? ''),
    ann[names.nameAnnotation] ?? '',
    ann[names.uidAnnotation] ?? '',
  ];
  return ref.slice(0, 4).every((s) => s !== '') ? JSON.stringify(ref) : undefined;
}

export function parseSecretKey(key: string): SecretRef {
  const [namespace, name, uid, saName, saUid] = JSON.parse(key) as string[];
  return { namespace, name, uid, saName, saUid };
}
