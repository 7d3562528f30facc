// One object as the watch cache holds it: its JSON body, and the few metadata fields selectors read
// (name, namespace, labels) decoded, so that most selections need no decoding. The body starts as
// the text its encoding produced; once its block is packed (ordered-entries.ts) it is a range of
// that block's bytes, outside the JS heap, and a list copies it along with its neighbours in one
// piece. The content never changes, only where it is kept.

import type { ApiObject } from '../../machinery/object.ts';
import type { EncodedItem, TypeMeta } from '../encoded.ts';

export class Entry implements EncodedItem {
  // A class, so that every entry has one shape: entries made by spreading an object literal each got
  // a hidden class of their own, about 300 bytes apiece.
  private store: string | Buffer;
  private offset = 0;
  /** Whether the body is ASCII, so that its bytes and characters are one to one. */
  private readonly ascii: boolean;

  constructor(
    text: string,
    readonly bytes: number,
    readonly typeMeta: TypeMeta,
    readonly revision: number,
    private readonly name: unknown,
    private readonly namespace: unknown,
    private readonly labels: Readonly<Record<string, string>> | undefined,
  ) {
    this.store = text;
    this.ascii = bytes === text.length;
  }

  text(): string {
    const { store } = this;
    if (typeof store === 'string') return store;
    return store.toString(this.ascii ? 'latin1' : 'utf8', this.offset, this.offset + this.bytes);
  }

  copyTo(target: Buffer, offset: number): number {
    const { store } = this;
    if (typeof store === 'string') return target.write(store, offset, this.ascii ? 'latin1' : 'utf8');
    return store.copy(target, offset, this.offset, this.offset + this.bytes);
  }

  /** Copies the body into a block's bytes at `offset` and keeps it there from now on. */
  packInto(block: Buffer, offset: number): void {
    this.copyTo(block, offset);
    this.store = block;
    this.offset = offset;
  }

  /**
   * Takes the body out of its block, for an entry that leaves the current state but may still be
   * read (from the event window, a snapshot, a list being written): holding its block would keep
   * all of the block's bytes alive for one body.
   */
  detach(): void {
    if (typeof this.store !== 'string') {
      this.store = this.text();
      this.offset = 0;
    }
  }

  /**
   * The metadata selectors read, as an object: made when a selector asks, since holding it would
   * cost two objects per entry for the few lists and watches that select.
   */
  get view(): ApiObject {
    return {
      metadata: { name: this.name as string, namespace: this.namespace as string, labels: this.labels },
    };
  }
}
