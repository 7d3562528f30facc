// The work a load process does, described as plain data so it crosses into worker threads: each job
// runs `concurrency` virtual clients over one connection pool and reports latencies in ms.

import { setMaxListeners } from 'node:events';
import { namingProfile } from '../../src/naming/profile.ts';
import { type ApiClient, apiClient, frameSplitter, lineSplitter, type Protocol } from './http-client.ts';
import type { Endpoint } from './target.ts';

export type Job =
  | { kind: 'create'; namespaces: string[]; prefix: string; count: number; size: number; concurrency: number }
  | { kind: 'get'; objects: [string, string][]; count: number; concurrency: number }
  | { kind: 'update'; objects: [string, string][]; rounds: number; size: number; concurrency: number }
  | { kind: 'update-shared'; object: [string, string]; count: number; concurrency: number }
  | { kind: 'patch'; objects: [string, string][]; count: number; concurrency: number }
  | { kind: 'apply'; objects: [string, string][]; count: number; concurrency: number }
  | { kind: 'list'; path: string; repeats: number; pageSize?: number }
  | {
      kind: 'watch';
      namespace: string;
      watchers: number;
      durationMs: number;
      /** The stream's encoding: JSON lines (the default) or length-prefixed protobuf frames. */
      encoding?: WatchEncoding;
    }
  | {
      kind: 'write';
      namespace: string;
      /** Objects written in turn, one write in flight on each: writes never race on an object. */
      names: string[];
      perSecond: number;
      durationMs: number;
    };

export interface JobResult {
  latencies: number[];
  ok: number;
  failed: number;
  /** Conflicts retried (update-shared). */
  retries: number;
  bytes: number;
  /** watch: events a watcher never received (the scenario counts them from the writer's writes). */
  dropped: number;
  elapsedMs: number;
  /** watch: the writer's sequence number of each event in `latencies`, in the same order. */
  sequences?: number[];
}

export const cmPath = (ns: string, name = '') =>
  `/api/v1/namespaces/${ns}/configmaps${name === '' ? '' : `/${name}`}`;

export function configMap(name: string, size: number, extra: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { payload: 'x'.repeat(size), ...extra },
  });
}

/** Runs `work(i)` for i in [0, count) with `concurrency` of them in flight. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, Math.max(count, 1)) }, async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  });
  await Promise.all(lanes);
}

async function timed(r: JobResult, f: () => Promise<boolean>): Promise<void> {
  const t0 = performance.now();
  const ok = await f();
  r.latencies.push(performance.now() - t0);
  if (ok) r.ok++;
  else r.failed++;
}

export type WatchEncoding = 'json' | 'protobuf';

/** What a watcher needs of a MODIFIED event of a ticker: the writer's sequence and timestamp. */
interface TickerEvent {
  seq: number;
  ts: number;
}

/**
 * How a watcher reads its stream. Events are not decoded whole: the load generator shares the
 * machine with the server, and a thousand watchers decoding every 1.4 KB event would measure the
 * harness rather than the server. Each reader finds the two data values the way a decoder would
 * meet them (a JSON key, or a protobuf map entry) and hands undefined for any other event.
 */
const WATCH_READERS: Record<
  WatchEncoding,
  { accept?: string; split(onEvent: (ev: TickerEvent | undefined) => void): (chunk: Buffer) => void }
> = {
  json: {
    split: (onEvent) =>
      lineSplitter((line) => {
        if (!line.startsWith('{"type":"MODIFIED"')) return onEvent(undefined);
        onEvent({ seq: Number(stringField(line, 'seq')), ts: Number(stringField(line, 'ts')) });
      }),
  },
  protobuf: {
    // The upstream name: every compatible server accepts it.
    accept: namingProfile('upstream').protobufMediaType,
    split: (onEvent) =>
      frameSplitter((frame) => {
        // WatchEvent: field 1 is the type, field 2 the object (whose ConfigMap data map entries
        // are key = 1, value = 2 messages).
        if (frame[0] !== 0x0a || frame.toString('latin1', 2, 2 + frame[1]) !== 'MODIFIED')
          return onEvent(undefined);
        onEvent({
          seq: Number(protobufMapValue(frame, SEQ_ENTRY)),
          ts: Number(protobufMapValue(frame, TS_ENTRY)),
        });
      }),
  },
};

/**
 * The bytes that open a short string map entry `key` (key = field 1, value = field 2), made once:
 * made per event, they were four buffers per event per watcher, 800,000 a second at 1000 watchers.
 */
function mapEntryStart(key: string): Buffer {
  return Buffer.from([0x0a, key.length, ...Buffer.from(key), 0x12]);
}
const SEQ_ENTRY = mapEntryStart('seq');
const TS_ENTRY = mapEntryStart('ts');

/** The value of the short string map entry that `pattern` (mapEntryStart) opens in a message. */
function protobufMapValue(message: Buffer, pattern: Buffer): string | undefined {
  const at = message.indexOf(pattern);
  if (at === -1) return undefined;
  const from = at + pattern.length + 1;
  return message.toString('latin1', from, from + message[from - 1]);
}

/** The value of the last `"name":"..."` in a JSON line (the patch's data keys come last). */
function stringField(line: string, name: string): string | undefined {
  const key = `"${name}":"`;
  const at = line.lastIndexOf(key);
  if (at === -1) return undefined;
  const from = at + key.length;
  return line.slice(from, line.indexOf('"', from));
}

/** The largest sequence number a watcher accepts: anything beyond is not the writer's. */
const MAX_SEQ = 1 << 20;

/**
 * The sequence numbers one watcher has seen, in an array grown as they come. A fixed array of
 * MAX_SEQ per watcher was a gigabyte of buffers across a thousand watchers, which V8 counts as
 * external memory when it decides to collect: the load workers collected for the harness's sake
 * while measuring the server.
 */
export class SeenSequences {
  private seen = new Uint8Array(4096);

  /** Marks `seq` seen; false when it was seen before or is no sequence number of the writer's. */
  add(seq: number): boolean {
    if (!(Number.isInteger(seq) && seq >= 0 && seq < MAX_SEQ)) return false;
    if (seq >= this.seen.length) {
      let length = this.seen.length;
      while (length <= seq) length *= 2;
      const grown = new Uint8Array(Math.min(length, MAX_SEQ));
      grown.set(this.seen);
      this.seen = grown;
    }
    if (this.seen[seq] === 1) return false;
    this.seen[seq] = 1;
    return true;
  }
}

/** Values kept in this many per block: a block is allocated once and never copied. */
const BLOCK = 1 << 16;

/**
 * A watch job's (latency, sequence) pairs as they come, in fixed blocks of 32-bit integers. Two
 * plain arrays pushed a hundred thousand times a second were copied into larger ones as they grew,
 * each copy a large object the collector counted against a heap that had just shrunk after the
 * previous run: measured, each watch thread ran four to six full collections (pauses up to 31 ms)
 * in the first second of writes, and every stream of that thread waited through them.
 */
export class WatchSamples {
  private blocks: Int32Array[] = [];
  /** Where the next pair goes in the last block; a full (or absent) block starts a new one. */
  private at = BLOCK * 2;

  add(latency: number, seq: number): void {
    if (this.at === BLOCK * 2) {
      this.blocks.push(new Int32Array(BLOCK * 2));
      this.at = 0;
    }
    const block = this.blocks[this.blocks.length - 1];
    block[this.at++] = latency;
    block[this.at++] = seq;
  }

  /** Moves the pairs into `latencies` and `sequences`, in the order they came. */
  drainInto(latencies: number[], sequences: number[]): void {
    const last = this.blocks.length - 1;
    for (const [n, b] of this.blocks.entries()) {
      const end = n === last ? this.at : b.length;
      for (let i = 0; i < end; i += 2) {
        latencies.push(b[i]);
        sequences.push(b[i + 1]);
      }
    }
    this.blocks = [];
    this.at = BLOCK * 2;
  }
}

/**
 * Runs one job. `onReady` is told when a watch job's streams are all open (each has had its first
 * event), so that the writer starts against established watches rather than a connection storm.
 * `stop` ends a watch job before its duration: the harness stops every watcher at one moment,
 * after the writer, so that no watcher's window closes while events are still being written.
 */
export async function runJob(
  endpoint: Endpoint,
  protocol: Protocol,
  job: Job,
  onReady: () => void = () => {},
  stop?: AbortSignal,
): Promise<JobResult> {
  // A write job's writes are in flight at once only with a connection each: over HTTP/1.1 a single
  // keep-alive socket would queue them in the client, and that wait would count as delivery latency.
  const concurrency = 'concurrency' in job ? job.concurrency : job.kind === 'write' ? job.names.length : 1;
  const client: ApiClient = apiClient(endpoint, protocol, Math.max(concurrency, 1));
  const r: JobResult = { latencies: [], ok: 0, failed: 0, retries: 0, bytes: 0, dropped: 0, elapsedMs: 0 };
  // When the measured work began: a write job restarts it once its connections are open.
  let t0 = performance.now();
  try {
    switch (job.kind) {
      case 'create':
        await pool(job.count, job.concurrency, (i) =>
          timed(r, async () => {
            const ns = job.namespaces[i % job.namespaces.length];
            return (
              (await client.request('POST', cmPath(ns), configMap(`${job.prefix}-${i}`, job.size))).status ===
              201
            );
          }),
        );
        break;
      case 'get':
        await pool(job.count, job.concurrency, () =>
          timed(r, async () => {
            const [ns, name] = job.objects[Math.floor(Math.random() * job.objects.length)];
            const reply = await client.request('GET', cmPath(ns, name));
            r.bytes += reply.bytes;
            return reply.status === 200;
          }),
        );
        break;
      case 'update': {
        // Lane j owns every object whose index is j modulo the lanes: updates never race.
        const lanes = Math.min(job.concurrency, job.objects.length);
        await Promise.all(
          Array.from({ length: lanes }, async (_, lane) => {
            const mine = job.objects.filter((_, i) => i % lanes === lane);
            const versions = new Map<string, string>();
            for (let round = 0; round < job.rounds; round++) {
              for (const [ns, name] of mine) {
                await timed(r, async () => {
                  let rv = versions.get(name);
                  if (rv === undefined) {
                    const got = JSON.parse((await client.request('GET', cmPath(ns, name))).body) as {
                      metadata: { resourceVersion: string };
                    };
                    rv = got.metadata.resourceVersion;
                  }
                  const body = JSON.parse(configMap(name, job.size, { round: String(round) })) as {
                    metadata: Record<string, string>;
                  };
                  body.metadata.resourceVersion = rv;
                  const reply = await client.request('PUT', cmPath(ns, name), JSON.stringify(body));
                  if (reply.status !== 200) {
                    versions.delete(name);
                    return false;
                  }
                  versions.set(
                    name,
                    (JSON.parse(reply.body) as { metadata: { resourceVersion: string } }).metadata
                      .resourceVersion,
                  );
                  return true;
                });
              }
            }
          }),
        );
        break;
      }
      case 'update-shared': {
        const [ns, name] = job.object;
        await pool(job.count, job.concurrency, (i) =>
          timed(r, async () => {
            for (let attempt = 0; attempt < 100; attempt++) {
              const got = JSON.parse((await client.request('GET', cmPath(ns, name))).body) as {
                metadata: Record<string, string>;
                data: Record<string, string>;
              };
              got.data = { ...got.data, writer: String(i) };
              const reply = await client.request('PUT', cmPath(ns, name), JSON.stringify(got));
              if (reply.status === 200) return true;
              if (reply.status !== 409) return false;
              r.retries++;
            }
            return false;
          }),
        );
        break;
      }
      case 'patch':
        await pool(job.count, job.concurrency, (i) =>
          timed(r, async () => {
            const [ns, name] = job.objects[i % job.objects.length];
            const patch = JSON.stringify({ data: { patched: String(i) } });
            return (
              (await client.request('PATCH', cmPath(ns, name), patch, 'application/merge-patch+json'))
                .status === 200
            );
          }),
        );
        break;
      case 'apply':
        // The same kind of change as the merge patch, as a server-side apply by one field manager.
        // Its own key: the merge patches' key belongs to their manager, so applying it would conflict.
        await pool(job.count, job.concurrency, (i) =>
          timed(r, async () => {
            const [ns, name] = job.objects[i % job.objects.length];
            const config = JSON.stringify({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name, namespace: ns },
              data: { applied: String(i) },
            });
            const path = `${cmPath(ns, name)}?fieldManager=bench-apply`;
            return (
              (await client.request('PATCH', path, config, 'application/apply-patch+yaml')).status === 200
            );
          }),
        );
        break;
      case 'list':
        for (let i = 0; i < job.repeats; i++) {
          await timed(r, async () => {
            let token = '';
            do {
              const query =
                job.pageSize === undefined
                  ? ''
                  : `limit=${job.pageSize}${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`;
              const reply = await client.request(
                'GET',
                `${job.path}${job.path.includes('?') ? '&' : '?'}${query}`,
              );
              r.bytes += reply.bytes;
              if (reply.status !== 200) return false;
              token =
                job.pageSize === undefined
                  ? ''
                  : ((JSON.parse(reply.body) as { metadata: { continue?: string } }).metadata.continue ?? '');
            } while (token !== '');
            return true;
          });
        }
        break;
      case 'watch': {
        // Every watcher checks that it sees the writer's sequence numbers without a gap.
        const abort = new AbortController();
        // Every stream listens on the one signal.
        setMaxListeners(job.watchers + 10, abort.signal);
        const streams: Promise<void>[] = [];
        let opening = job.watchers;
        let opened: () => void = () => {};
        const allOpen = new Promise<void>((res) => {
          opened = res;
        });
        const path = `${cmPath(job.namespace)}?watch=true&resourceVersion=0&allowWatchBookmarks=true`;
        const reader = WATCH_READERS[job.encoding ?? 'json'];
        const sequences: number[] = [];
        r.sequences = sequences;
        const samples = new WatchSamples();
        for (let w = 0; w < job.watchers; w++) {
          // Writes go out several at a time, so events may arrive in any order: each watcher counts
          // the distinct sequence numbers it saw, and what it never saw is counted as dropped.
          const seen = new SeenSequences();
          let open = false;
          const onEvent = (ev: TickerEvent | undefined) => {
            if (!open) {
              open = true;
              if (--opening === 0) opened();
            }
            if (ev === undefined) return;
            const { seq, ts } = ev;
            if (!seen.add(seq)) return;
            samples.add(Date.now() - ts, seq);
            r.ok++;
          };
          streams.push(client.stream(path, reader.split(onEvent), abort.signal, reader.accept));
        }
        // Opening a thousand TLS connections takes the server seconds; the measured time starts
        // once they are all open (or after a minute, with whatever opened).
        await Promise.race([allOpen, new Promise((res) => setTimeout(res, 60_000))]);
        onReady();
        await new Promise<void>((res) => {
          const timer = setTimeout(res, job.durationMs);
          stop?.addEventListener('abort', () => {
            clearTimeout(timer);
            res();
          });
        });
        abort.abort();
        await Promise.race([Promise.all(streams), new Promise((res) => setTimeout(res, 2000))]);
        samples.drainInto(r.latencies, sequences);
        break;
      }
      case 'write': {
        // Open loop: each write goes out when it is due, whether or not earlier ones have been
        // answered, so the rate offered is the rate asked for. Write i goes to object i modulo the
        // objects, after that object's previous write: as many in flight as objects, none racing
        // another on one object (concurrent writes to one object make the server retry lost races,
        // which would measure contention rather than delivery).
        const { namespace, names } = job;
        // Connections open before the first timed write: a write's timestamp is taken before its
        // request goes out, and the first writes on fresh connections counted each TLS handshake
        // (and this new thread's first run of its code) as delivery latency of a thousand events.
        await Promise.all(names.map((name) => client.request('GET', cmPath(namespace, name))));
        t0 = performance.now();
        const interval = 1000 / job.perSecond;
        const start = performance.now();
        const lanes: Promise<void>[] = names.map(() => Promise.resolve());
        for (let seq = 0; performance.now() - start < job.durationMs; seq++) {
          const wait = start + seq * interval - performance.now();
          if (wait > 0) await new Promise((res) => setTimeout(res, wait));
          const lane = seq % names.length;
          await lanes[lane];
          const patch = JSON.stringify({ data: { seq: String(seq), ts: String(Date.now()) } });
          lanes[lane] = timed(
            r,
            async () =>
              (
                await client.request(
                  'PATCH',
                  cmPath(namespace, names[lane]),
                  patch,
                  'application/merge-patch+json',
                )
              ).status === 200,
          ).catch(() => {
            r.failed++;
          });
        }
        await Promise.all(lanes);
        break;
      }
    }
  } finally {
    r.elapsedMs = performance.now() - t0;
    client.close();
  }
  return r;
}
