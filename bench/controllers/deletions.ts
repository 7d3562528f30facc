// Knowing the moment a set of objects is gone without polling the server under test: a watch opened
// at a revision taken before the delete counts DELETED events and notes the time of the last one
// expected. Polling would add load to the very server being timed and blur the end by its period;
// the watch costs the server one stream it serves anyway. If the stream ends early (a 410, a
// dropped connection), a cheap check the caller supplies decides instead, at a coarse period.

import { type ApiClient, lineSplitter } from '../api/http-client.ts';

interface WatchLine {
  type?: string;
  object?: { metadata?: { name?: string; namespace?: string } };
}

export interface DeletionWatchOptions {
  /** The collection's path (`/api/v1/namespaces/x/configmaps`). */
  path: string;
  /** Revision to watch from: events after it are counted, so the watch may open after the delete. */
  resourceVersion: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** How many distinct objects must be deleted. */
  expected: number;
}

export class DeletionWatch {
  private readonly names = new Set<string>();
  private readonly abort = new AbortController();
  private readonly stream: Promise<void>;
  private endedEarly = false;
  /** performance.now() when the expected count was reached. */
  doneAt: number | undefined;

  constructor(
    c: ApiClient,
    private readonly opts: DeletionWatchOptions,
  ) {
    const q = new URLSearchParams({
      watch: '1',
      resourceVersion: opts.resourceVersion,
      allowWatchBookmarks: 'true',
    });
    if (opts.labelSelector !== undefined) q.set('labelSelector', opts.labelSelector);
    if (opts.fieldSelector !== undefined) q.set('fieldSelector', opts.fieldSelector);
    const onLine = lineSplitter((line) => this.onLine(line));
    this.stream = c.stream(`${opts.path}?${q}`, onLine, this.abort.signal).then(
      () => this.ended(),
      () => this.ended(),
    );
    if (opts.expected === 0) this.doneAt = performance.now();
  }

  /** Objects seen deleted so far. */
  get deleted(): number {
    return this.names.size;
  }

  /** The stream ended before the count was reached: the caller must check by other means. */
  get blind(): boolean {
    return this.endedEarly;
  }

  private ended(): void {
    if (this.doneAt === undefined && !this.abort.signal.aborted) this.endedEarly = true;
  }

  private onLine(line: string): void {
    if (line === '') return;
    let ev: WatchLine;
    try {
      ev = JSON.parse(line) as WatchLine;
    } catch {
      return;
    }
    if (ev.type === 'ERROR') {
      // A 410 or another failure: nothing more will be counted on this stream.
      this.endedEarly = this.doneAt === undefined;
      this.abort.abort();
      return;
    }
    if (ev.type !== 'DELETED') return;
    const m = ev.object?.metadata;
    this.names.add(`${m?.namespace ?? ''}/${m?.name ?? ''}`);
    if (this.doneAt === undefined && this.names.size >= this.opts.expected) this.doneAt = performance.now();
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.stream;
  }
}

export interface WaitOptions {
  /** Gives up after this long; the result then says how many were left. */
  timeoutMs: number;
  /** Asked when the watch went blind: true once everything is gone. */
  gone: () => Promise<boolean>;
  /** Progress for the operator, about every 5 s. */
  progress?: (deleted: number) => void;
}

/**
 * Waits until the watch has seen every expected deletion (or, blind, until `gone` says so); answers
 * the time it happened, or undefined on timeout.
 */
export async function waitForDeletions(w: DeletionWatch, o: WaitOptions): Promise<number | undefined> {
  const start = performance.now();
  let lastProgress = start;
  for (;;) {
    if (w.doneAt !== undefined) return w.doneAt;
    const now = performance.now();
    if (w.blind && (await o.gone())) return performance.now();
    if (now - start > o.timeoutMs) return undefined;
    if (now - lastProgress >= 5000) {
      o.progress?.(w.deleted);
      lastProgress = now;
    }
    // Only the blind fallback's resolution depends on this period; the watch notes its own time.
    await new Promise((r) => setTimeout(r, w.blind ? 250 : 50));
  }
}
