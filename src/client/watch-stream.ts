// A watch response read as events: newline-delimited JSON (`{"type":...,"object":...}` per line) or
// protobuf (length-prefixed WatchEvent frames, each object an enveloped body). ERROR events are
// delivered as events (a 410 Expired arrives that way, with its Status). The iteration ends when the
// server ends the response, when the connection drops (an informer then watches again), or when
// stop() is called; an event that cannot be decoded is reported as an ERROR event carrying an
// InternalError Status, as client-go reports it, and ends the stream.

import { StringDecoder } from 'node:string_decoder';
import { decodeWatchEvent, FrameReader } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { internalError } from '../machinery/status.ts';
import type { WatchEvent, WatchEventType, WatchStream } from './api.ts';
import { type ClientCodec, isProtobufMediaType } from './client-codec.ts';
import type { StreamingResponse } from './transport.ts';

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Decodes one response's chunks into events. */
interface Framing {
  push(chunk: Buffer): Promise<WatchEvent[]>;
  /** Bytes of an event not yet complete. */
  readonly buffered: number;
}

function checked(type: unknown, object: unknown): WatchEvent {
  if (typeof type !== 'string' || !EVENT_TYPES.has(type))
    throw new Error(`got invalid watch event type: ${String(type)}`);
  if (typeof object !== 'object' || object === null || Array.isArray(object))
    throw new Error(`watch event ${type} has no object`);
  return { type: type as WatchEventType, object: object as ApiObject };
}

function jsonFraming(): Framing {
  const text = new StringDecoder('utf8');
  let pending = '';
  return {
    get buffered() {
      return pending.trim().length;
    },
    async push(chunk) {
      pending += text.write(chunk);
      const out: WatchEvent[] = [];
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
        const line = pending.slice(start, nl).trim();
        start = nl + 1;
        if (line === '') continue;
        const ev = JSON.parse(line) as { type?: unknown; object?: unknown };
        out.push(checked(ev.type, ev.object));
      }
      pending = pending.slice(start);
      return out;
    },
  };
}

function protobufFraming(codec: ClientCodec): Framing {
  const frames = new FrameReader();
  return {
    get buffered() {
      return frames.buffered;
    },
    async push(chunk) {
      const out: WatchEvent[] = [];
      for (const frame of frames.push(chunk)) {
        const raw = decodeWatchEvent(frame);
        out.push(checked(raw.type, await codec.decodeProtobuf(raw.object)));
      }
      return out;
    },
  };
}

export class HttpWatchStream<T extends ApiObject = ApiObject> implements WatchStream<T> {
  private stopped = false;
  private iterated = false;
  private readonly framing: Framing;
  private readonly onAbort = () => this.stop();

  constructor(
    private readonly res: StreamingResponse,
    contentType: string | undefined,
    codec: ClientCodec,
    private readonly signal?: AbortSignal,
  ) {
    this.framing = isProtobufMediaType(contentType) ? protobufFraming(codec) : jsonFraming();
    if (signal?.aborted) this.stop();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.res.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    if (this.iterated) throw new Error('a watch stream can be iterated only once');
    this.iterated = true;
    try {
      for await (const chunk of this.res.body) {
        if (this.stopped) return;
        let events: WatchEvent[];
        try {
          events = await this.framing.push(chunk);
        } catch (err) {
          yield this.decodeFailure(err);
          return;
        }
        for (const ev of events) {
          if (this.stopped) return;
          yield ev as WatchEvent<T>;
        }
      }
      if (this.framing.buffered > 0 && !this.stopped)
        yield this.decodeFailure(new Error('the watch stream ended inside an event'));
    } catch {
      // The connection dropped or the stream was cancelled: the watch simply ends.
    } finally {
      this.stop();
    }
  }

  private decodeFailure(err: unknown): WatchEvent<T> {
    const status = internalError(
      new Error(`unable to decode an event from the watch stream: ${(err as Error).message}`),
    ).status;
    return { type: 'ERROR', object: status as unknown as T };
  }
}

export function decodeWatch<T extends ApiObject>(
  res: StreamingResponse,
  contentType: string | undefined,
  codec: ClientCodec,
  signal?: AbortSignal,
): HttpWatchStream<T> {
  return new HttpWatchStream<T>(res, contentType, codec, signal);
}
