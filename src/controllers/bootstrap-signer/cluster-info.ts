// What the cluster-info ConfigMap's data should be: the client configuration left as it is, one
// `<prefix><token id>` detached signature per signing token, and no other signature (a token
// deleted, expired or no longer marked for signing loses its key). Undefined when nothing changes,
// so the signer writes only when a signature is new, different or stale.

import type { SigningToken } from './bootstrap-token-secret.ts';
import { computeDetachedSignature } from './jws.ts';

export interface ClusterInfoKeys {
  /** The key of the signed client configuration (`platconfig`; upstream `kubeconfig`). */
  configKey: string;
  /** The prefix of each signature's key (`jws-platconfig-`). */
  signaturePrefix: string;
}

/**
 * The data `data` should hold once signed by `tokens`, or undefined when it already does (or
 * holds no client configuration to sign, which leaves its signatures alone, as upstream).
 */
export function signedClusterInfoData(
  data: unknown,
  tokens: readonly SigningToken[],
  keys: ClusterInfoKeys,
): Record<string, string> | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const current = data as Record<string, unknown>;
  const content = current[keys.configKey];
  if (typeof content !== 'string') return undefined;
  const next: Record<string, string> = {};
  const stale = new Map<string, unknown>();
  for (const [k, v] of Object.entries(current)) {
    if (k.startsWith(keys.signaturePrefix)) stale.set(k.slice(keys.signaturePrefix.length), v);
    else next[k] = v as string;
  }
  let changed = false;
  const seen = new Set<string>();
  for (const token of tokens) {
    // Two Secrets cannot carry one id (the name is derived from it); keep the first if they do.
    if (seen.has(token.id)) continue;
    seen.add(token.id);
    const sig = computeDetachedSignature(content, token.id, token.secret);
    if (stale.get(token.id) !== sig) changed = true;
    stale.delete(token.id);
    next[`${keys.signaturePrefix}${token.id}`] = sig;
  }
  if (stale.size > 0) changed = true;
  return changed ? next : undefined;
}
