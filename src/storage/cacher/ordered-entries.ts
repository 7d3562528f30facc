// The watch cache's current objects in key order, kept in blocks of neighbouring keys. Each block
// packs its entries' bodies into one buffer, joined by commas exactly as a list writes them, so a
// list of a whole collection is a copy of a few hundred buffers rather than of 100k bodies one by
// one, and the bodies sit outside the JS heap, densely, instead of as 100k strings the collector
// must trace and keeps slack for.
//
// A change only marks its block: the block is packed again when a list reads it whole or when the
// cache is idle (`pack`), so a burst of writes to one block costs one packing. Until then the new
// body is held as its text, and the others stay readable in the block's previous buffer, which
// nothing changes once written.

import type { EncodedRun } from '../encoded.ts';
import type { Entry } from './entry.ts';

/** Entries per block before it splits in two. */
const MAX_ENTRIES = 64;

/** Bytes per block before it splits (when it has more than one entry): large objects pack alone. */
const MAX_BYTES = 1 << 20;

/** A block this small merges into its successor when both fit in one. */
const MIN_ENTRIES = MAX_ENTRIES / 4;

const COMMA = 0x2c;

class Block {
  keys: string[] = [];
  entries: Entry[] = [];
  /** The bodies' bytes and the commas between them. */
  bytes = 0;
  /** The entries' bodies joined by commas, when no entry has changed since it was made. */
  packed: Buffer | undefined;
}

/** Index of the first key >= `key` in a sorted array. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class OrderedEntries {
  private blocks: Block[] = [];
  private readonly byKey = new Map<string, Entry>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): Entry | undefined {
    return this.byKey.get(key);
  }

  /** Sets the entry of `key`; answers the one it replaces, detached from its block. */
  set(key: string, entry: Entry): Entry | undefined {
    const previous = this.byKey.get(key);
    this.byKey.set(key, entry);
    if (this.blocks.length === 0) this.blocks.push(new Block());
    const at = this.blockOf(key);
    const block = this.blocks[at];
    const i = lowerBound(block.keys, key);
    if (previous !== undefined) {
      block.entries[i] = entry;
      block.bytes += entry.bytes - previous.bytes;
      previous.detach();
    } else {
      block.keys.splice(i, 0, key);
      block.entries.splice(i, 0, entry);
      block.bytes += entry.bytes + (block.entries.length > 1 ? 1 : 0);
    }
    block.packed = undefined;
    if (block.entries.length > MAX_ENTRIES || (block.bytes > MAX_BYTES && block.entries.length > 1))
      this.split(at);
    return previous;
  }

  /** Removes the entry of `key`; answers it, detached from its block. */
  delete(key: string): Entry | undefined {
    const previous = this.byKey.get(key);
    if (previous === undefined) return undefined;
    this.byKey.delete(key);
    const at = this.blockOf(key);
    const block = this.blocks[at];
    const i = lowerBound(block.keys, key);
    block.keys.splice(i, 1);
    block.entries.splice(i, 1);
    block.bytes -= previous.bytes + (block.entries.length > 0 ? 1 : 0);
    block.packed = undefined;
    previous.detach();
    if (block.entries.length === 0) this.blocks.splice(at, 1);
    else if (block.entries.length < MIN_ENTRIES) this.mergeWithNext(at);
    return previous;
  }

  clear(): void {
    this.blocks = [];
    this.byKey.clear();
  }

  /** Keys and entries in [start, end), in order. */
  slice(start: string, end: string): { keys: string[]; entries: Entry[] } {
    const keys: string[] = [];
    const entries: Entry[] = [];
    this.forRange(start, end, (block, from, to) => {
      for (let i = from; i < to; i++) {
        keys.push(block.keys[i]);
        entries.push(block.entries[i]);
      }
    });
    return { keys, entries };
  }

  /** Entries in [start, end), in order. */
  range(start: string, end: string): Entry[] {
    const entries: Entry[] = [];
    this.forRange(start, end, (block, from, to) => {
      for (let i = from; i < to; i++) entries.push(block.entries[i]);
    });
    return entries;
  }

  /**
   * The entries in [start, end) as a list writes them: every block the range holds whole as its
   * packed bytes (packed now if it changed), the rest entry by entry.
   */
  runs(start: string, end: string): EncodedRun[] {
    const runs: EncodedRun[] = [];
    this.forRange(start, end, (block, from, to) => {
      if (from === 0 && to === block.entries.length) {
        runs.push({ joined: this.packed(block), count: to });
      } else {
        for (let i = from; i < to; i++) runs.push(block.entries[i]);
      }
    });
    return runs;
  }

  /** Packs every block changed since it was last packed (the cache calls this when idle). */
  pack(): void {
    for (const block of this.blocks) this.packed(block);
  }

  private packed(block: Block): Buffer {
    if (block.packed !== undefined) return block.packed;
    const buffer = Buffer.allocUnsafeSlow(block.bytes);
    let at = 0;
    for (const entry of block.entries) {
      if (at > 0) buffer[at++] = COMMA;
      entry.packInto(buffer, at);
      at += entry.bytes;
    }
    block.packed = buffer;
    return buffer;
  }

  /** Calls `visit` with each block holding keys of [start, end) and the index range of those keys. */
  private forRange(
    start: string,
    end: string,
    visit: (block: Block, from: number, to: number) => void,
  ): void {
    if (this.blocks.length === 0) return;
    for (let b = this.blockOf(start); b < this.blocks.length; b++) {
      const block = this.blocks[b];
      const { keys } = block;
      if (keys[0] >= end) return;
      const from = keys[0] >= start ? 0 : lowerBound(keys, start);
      const to = keys[keys.length - 1] < end ? keys.length : lowerBound(keys, end);
      if (from < to) visit(block, from, to);
    }
  }

  /** Index of the block that holds, or would hold, `key`: the last whose first key is <= it. */
  private blockOf(key: string): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.blocks[mid].keys[0] <= key) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(0, lo - 1);
  }

  private split(at: number): void {
    const block = this.blocks[at];
    const half = block.entries.length >>> 1;
    const tail = new Block();
    tail.keys = block.keys.splice(half);
    tail.entries = block.entries.splice(half);
    tail.bytes = bytesOf(tail.entries);
    block.bytes = bytesOf(block.entries);
    this.blocks.splice(at + 1, 0, tail);
  }

  private mergeWithNext(at: number): void {
    const block = this.blocks[at];
    const next = this.blocks[at + 1];
    if (next === undefined || block.entries.length + next.entries.length > MAX_ENTRIES) return;
    if (block.bytes + next.bytes + 1 > MAX_BYTES) return;
    block.keys.push(...next.keys);
    block.entries.push(...next.entries);
    block.bytes += next.bytes + 1;
    block.packed = undefined;
    this.blocks.splice(at + 1, 1);
  }
}

/** Bytes of the bodies joined by commas. */
function bytesOf(entries: readonly Entry[]): number {
  let bytes = Math.max(0, entries.length - 1);
  for (const e of entries) bytes += e.bytes;
  return bytes;
}
