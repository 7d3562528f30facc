// Buffers for the pieces watch writers send, used again once the socket is done with them. A
// thousand busy watch streams send some 300 MB/s, and a fresh buffer per piece is a fresh
// ArrayBuffer outside the JS heap: V8 answers that much outside memory with a young-generation
// collection about every 100 ms (measured: nearly every collection during a watch load gave
// "external memory pressure" as its reason), which moved every object older than two of them into
// the old generation, and so to back-to-back full collections. Taken from free lists by size
// class and given back by the write's callback, the same few buffers carry every piece.

/** The smallest class: below it, Node's own pool serves allocUnsafe without an ArrayBuffer each. */
const MIN_CLASS_BYTES = 4 * 1024;

/** The largest class; a longer piece (one event longer than this) gets a buffer of its own. */
const MAX_CLASS_BYTES = 256 * 1024;

/** Free bytes kept for reuse, over all classes; buffers given back past this are left to the GC. */
const MAX_FREE_BYTES = 16 * 1024 * 1024;

/** The class of a piece of `length` bytes: the power of two that holds it. */
function classBytes(length: number): number {
  return Math.max(MIN_CLASS_BYTES, 2 ** Math.ceil(Math.log2(length)));
}

export class PieceBuffers {
  /** Free buffers by class size. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  private freeBytes = 0;
  /**
   * Class buffers out with a caller: only these are taken back, once each (a Buffer from Node's
   * pool shares its memory with others, and a second release would lend one buffer twice).
   */
  private readonly lent = new WeakSet<ArrayBuffer>();

  constructor(private readonly maxFreeBytes = MAX_FREE_BYTES) {}

  /**
   * A buffer of exactly `length` bytes, of unspecified content. Give it back with release() once
   * nothing reads it any more (a socket write's callback), or drop it: a buffer never given back
   * is collected like any other.
   */
  take(length: number): Buffer {
    if (length < MIN_CLASS_BYTES || length > MAX_CLASS_BYTES) return Buffer.allocUnsafe(length);
    const size = classBytes(length);
    let backing = this.free.get(size)?.pop();
    if (backing === undefined) backing = new ArrayBuffer(size);
    else this.freeBytes -= size;
    this.lent.add(backing);
    return Buffer.from(backing, 0, length);
  }

  /** Takes back a buffer from take(); it must not be read or written after this. */
  release(piece: Buffer): void {
    const backing = piece.buffer as ArrayBuffer;
    if (!this.lent.delete(backing)) return;
    const size = backing.byteLength;
    if (this.freeBytes + size > this.maxFreeBytes) return;
    let list = this.free.get(size);
    if (list === undefined) {
      list = [];
      this.free.set(size, list);
    }
    list.push(backing);
    this.freeBytes += size;
  }

  /** Bytes held for reuse. */
  get held(): number {
    return this.freeBytes;
  }
}
