// The objects written by the storage scenario: ConfigMaps of about 1 KiB of JSON, like the small
// config objects that dominate a real cluster's write traffic.

import type { ApiObject } from '../../src/machinery/object.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Deterministic pseudo-random text: repetitive filler would flatter any layer that compresses,
 * and a fixed seed keeps runs comparable.
 */
function filler(length: number, seed: number): string {
  let x = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    // xorshift32
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += ALPHABET[(x >>> 0) % ALPHABET.length];
  }
  return out;
}

const NAME_DIGITS = 9;

/**
 * Makes the objects of one namespace. Names are fixed-width so every object of a factory serialises
 * to exactly the same size, which makes bytes/s figures exact rather than estimated.
 */
export class ConfigMapFactory {
  readonly namespace: string;
  /** Serialised size in bytes of every object this factory makes (before the store adds fields). */
  readonly objectBytes: number;
  private readonly data: Record<string, string>;

  constructor(namespace: string, targetBytes: number) {
    this.namespace = namespace;
    const probe = (data: Record<string, string>) =>
      Buffer.byteLength(JSON.stringify(this.build(this.nameOf(0), data)));
    const keys = ['app.properties', 'log.level', 'feature-flags.json', 'notes.txt'];
    const base = probe(Object.fromEntries(keys.map((k) => [k, ''])));
    const room = Math.max(keys.length, targetBytes - base);
    const each = Math.floor(room / keys.length);
    const data: Record<string, string> = {};
    keys.forEach((k, i) => {
      data[k] = filler(i === keys.length - 1 ? room - each * (keys.length - 1) : each, i + 1);
    });
    this.data = data;
    this.objectBytes = probe(data);
  }

  nameOf(seq: number): string {
    return `obj-${String(seq).padStart(NAME_DIGITS, '0')}`;
  }

  keyOf(seq: number): string {
    return `/configmaps/${this.namespace}/${this.nameOf(seq)}`;
  }

  /** The prefix that selects exactly this factory's objects. */
  get prefix(): string {
    return `/configmaps/${this.namespace}/`;
  }

  /** A fresh object each call: storage may keep or decorate what it is given. */
  make(seq: number): ApiObject {
    return this.build(this.nameOf(seq), { ...this.data });
  }

  private build(name: string, data: Record<string, string>): ApiObject {
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: this.namespace }, data };
  }
}
