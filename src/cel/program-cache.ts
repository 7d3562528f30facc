// Compiled programs, kept by (environment, expression, compile options) so a request never
// compiles. Bounded: least recently used entries go first. Failures are cached too, so a bad
// expression stored in an object is not re-parsed on every request either.

import { type CompileOptions, type CompileResult, compile } from './compile.ts';
import type { Environment } from './environment.ts';
import { typeName } from './types.ts';

export class ProgramCache {
  readonly #entries = new Map<string, CompileResult>();
  #hits = 0;
  #misses = 0;

  constructor(readonly capacity = 4096) {
    if (!(capacity >= 1)) throw new RangeError(`capacity must be at least 1, got ${capacity}`);
  }

  compile(env: Environment, expression: string, options: CompileOptions = {}): CompileResult {
    const key = `${env.id}\u0000${options.expected?.map(typeName).join('|') ?? ''}\u0000${options.maxLength ?? ''}\u0000${options.costLimit ?? ''}\u0000${options.costName ?? ''}\u0000${expression}`;
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#hits++;
      // Re-insert: a Map iterates in insertion order, so its first key is the least recently used.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    this.#misses++;
    const result = compile(env, expression, options);
    this.#entries.set(key, result);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    return result;
  }

  get stats(): { size: number; hits: number; misses: number } {
    return { size: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }
}

/** The process-wide cache the features share. */
export const programCache = new ProgramCache();
