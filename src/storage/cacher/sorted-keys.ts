// Keys in order, for prefix ranges: a sorted array with binary search. Inserting shifts the tail,
// which for 100k keys is tens of microseconds, far below the cost of the write that caused it.

export class SortedKeys {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key >= `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] !== key) this.keys.splice(at, 0, key);
  }

  delete(key: string): void {
    const at = this.lowerBound(key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }

  clear(): void {
    this.keys = [];
  }

  /** Keys in [start, end), in order. */
  *range(start: string, end: string): IterableIterator<string> {
    for (let i = this.lowerBound(start); i < this.keys.length && this.keys[i] < end; i++) yield this.keys[i];
  }
}
