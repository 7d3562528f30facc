// The pod-template-hash: a name-safe string derived from the Deployment's pod template (and the
// collision count), naming the new ReplicaSet `<deployment>-<hash>` and labelling its Pods. Go
// hashes its own struct printing, which JavaScript cannot reproduce; this hashes a canonical JSON
// (keys sorted, empty values dropped) with the same FNV-32a and upstream's safe alphabet, so the
// hash is stable across restarts and processes, only not byte-equal to upstream's.

import type { PodTemplate } from './types.ts';

/** Upstream's alphabet for names: no vowels (no words), no 0/1/3 (confusable). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Maps each character through the safe alphabet by its code (upstream's SafeEncodeString). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h >>> 0;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** Keys sorted, null/empty arrays and maps dropped, so equal templates print equally. */
export function canonicalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonicalize);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = canonicalize((v as Record<string, unknown>)[k]);
    if (!isEmpty(x)) out[k] = x;
  }
  return out;
}

/** The pod template's hash, with the collision count mixed in when there is one. */
export function computeHash(template: PodTemplate | undefined, collisionCount?: number): string {
  const text = JSON.stringify(canonicalize(template ?? {}));
  let h = fnv32a(new TextEncoder().encode(text));
  if (collisionCount !== undefined && collisionCount !== null) {
    // As upstream: the count's four little-endian bytes continue the same hash.
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}

/** Whether two pod templates are the same once the hash label is set aside (upstream's EqualIgnoreHash). */
export function equalIgnoreHash(
  a: PodTemplate | undefined,
  b: PodTemplate | undefined,
  hashLabel: string,
): boolean {
  const strip = (t: PodTemplate | undefined): unknown => {
    const labels = { ...(t?.metadata?.labels ?? {}) };
    delete labels[hashLabel];
    return canonicalize({ ...(t ?? {}), metadata: { ...(t?.metadata ?? {}), labels } });
  };
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}
