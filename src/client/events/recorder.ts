// The event recorder (client-go's record package): event() builds the Event and queues it without
// waiting; one writer sends the queue in order through the correlator (spam filter, aggregation,
// counting by patch). The queue is bounded (1,000, as upstream's broadcaster): past it events are
// dropped and logged. A transport failure is retried (12 tries, 10 s apart, the first delay
// randomized); an answer from the server is final. stop() sends what is queued and then ends.

import type { ApiObject } from '../../machinery/object.ts';
import type { ApiClient, Clock, GroupVersionResource } from '../api.ts';
import { realClock, sleep } from '../work-queue/clock.ts';
import { EventCorrelator } from './correlator.ts';
import { type CoreEvent, type EventSource, type EventType, makeEvent, referenceTo } from './event.ts';

export const EVENTS: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };

/** Upstream's maxQueuedEvents. */
export const MAX_QUEUED_EVENTS = 1000;
const MAX_TRIES = 12;
const RETRY_SLEEP_MS = 10_000;

export interface EventRecorder {
  /**
   * Records an Event about `obj` (core v1 Event in obj's namespace, 'default' for cluster-scoped);
   * fieldPath names a part of it (a node agent's `spec.containers{name}`).
   */
  event(obj: ApiObject, type: EventType, reason: string, message: string, fieldPath?: string): void;
}

export interface EventBroadcaster extends EventRecorder {
  /** Sends what is queued (without retry waits), then stops; later events are dropped. */
  stop(): Promise<void>;
}

export interface EventRecorderOptions {
  clock?: Clock;
  log?: (m: string) => void;
  /** The source's host and the reportingInstance (empty, as the controller manager's own recorders). */
  host?: string;
  /** Upstream's queue bound by default. */
  maxQueued?: number;
}

/** Whether a failure is the server's answer (a Status), which no retry would change. */
function isServerAnswer(err: unknown): boolean {
  const s = (err as { status?: unknown } | null)?.status;
  return s !== null && typeof s === 'object';
}

function statusCode(err: unknown): number | undefined {
  const s = (err as { status?: { code?: unknown } } | null)?.status;
  return typeof s?.code === 'number' ? s.code : undefined;
}

class Broadcaster implements EventBroadcaster {
  private readonly queue: CoreEvent[] = [];
  private readonly correlator: EventCorrelator;
  private readonly clock: Clock;
  private readonly log: (m: string) => void;
  private readonly source: EventSource;
  private readonly maxQueued: number;
  private readonly stopping = new AbortController();
  private writer: Promise<void> | undefined;
  private stopped = false;
  // A random start: recorders of one process (a scheduler and node agents) naming events about one
  // object in one millisecond would otherwise pick the same names, and the later create would fail.
  private seq = Math.floor(Math.random() * 1_000_000);

  constructor(
    private readonly client: ApiClient,
    component: string,
    opts: EventRecorderOptions,
  ) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? (() => {});
    this.source = { component, host: opts.host };
    this.maxQueued = opts.maxQueued ?? MAX_QUEUED_EVENTS;
    this.correlator = new EventCorrelator(
      () => this.clock.now(),
      (name, ms) => this.nameFor(name, ms),
    );
  }

  event(obj: ApiObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    if (this.stopped) return;
    if (type !== 'Normal' && type !== 'Warning') {
      this.log(`unsupported event type ${JSON.stringify(type)}`);
      return;
    }
    const ref = referenceTo(obj);
    if (ref === undefined) {
      this.log(
        `could not construct a reference to the object of event ${reason}: no kind, apiVersion or name`,
      );
      return;
    }
    if (fieldPath) ref.fieldPath = fieldPath;
    const now = this.clock.now();
    const ev = makeEvent(ref, this.source, type, reason, message, this.nameFor(ref.name ?? '', now), now);
    if (this.queue.length >= this.maxQueued) {
      this.log(`too many queued events, dropped event ${reason} about ${ref.kind} ${ref.name}`);
      return;
    }
    this.queue.push(ev);
    this.writer ??= this.drain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.writer;
  }

  /**
   * `<object name>.<hex nanoseconds>`: the clock has milliseconds, so a counter fills the lower
   * digits and two events of one millisecond get different names.
   */
  private nameFor(objectName: string, ms: number): string {
    this.seq = (this.seq + 1) % 1_000_000;
    return `${objectName}.${(BigInt(ms) * 1_000_000n + BigInt(this.seq)).toString(16)}`;
  }

  private async drain(): Promise<void> {
    try {
      for (let ev = this.queue.shift(); ev !== undefined; ev = this.queue.shift()) {
        await this.send(ev);
      }
    } finally {
      this.writer = undefined;
      // An event queued while the last send was finishing starts a new writer.
      if (this.queue.length > 0) this.writer = this.drain();
    }
  }

  private async send(input: CoreEvent): Promise<void> {
    let c: ReturnType<EventCorrelator['correlate']>;
    try {
      c = this.correlator.correlate(input);
    } catch (err) {
      this.log(`event correlation failed: ${String(err)}`);
      return;
    }
    if (c.skip) return;
    for (let tries = 1; ; tries++) {
      if (await this.write(c.event, c.patch)) return;
      if (tries >= MAX_TRIES) {
        this.log(`unable to write event ${c.event.metadata.name} (retry limit exceeded)`);
        return;
      }
      if (this.stopping.signal.aborted) {
        this.log(`unable to write event ${c.event.metadata.name} (recorder stopped)`);
        return;
      }
      const delay = tries === 1 ? RETRY_SLEEP_MS * Math.random() : RETRY_SLEEP_MS;
      await sleep(this.clock, delay, this.stopping.signal);
    }
  }

  /** One attempt: true when done (written, or refused for good), false to retry. */
  private async write(
    ev: CoreEvent,
    patch: { count: number; lastTimestamp: string; message: string } | undefined,
  ): Promise<boolean> {
    const events = this.client.resource<CoreEvent>(EVENTS, ev.metadata.namespace);
    try {
      let stored: CoreEvent | undefined;
      if (patch !== undefined) {
        try {
          stored = await events.patch(ev.metadata.name, 'strategic', patch);
        } catch (err) {
          // The Event expired or was deleted: write it anew.
          if (statusCode(err) !== 404) throw err;
        }
      }
      if (stored === undefined) {
        const { resourceVersion: _rv, ...metadata } = ev.metadata;
        stored = await events.create({ ...ev, metadata });
      }
      this.correlator.updateState(stored);
      return true;
    } catch (err) {
      if (isServerAnswer(err)) {
        this.log(
          `server rejected event ${ev.metadata.name} (will not retry): ${String((err as Error).message)}`,
        );
        return true;
      }
      this.log(`unable to write event ${ev.metadata.name} (may retry): ${String(err)}`);
      return false;
    }
  }
}

/** component: the `source.component` / `reportingComponent` (e.g. 'deployment-controller'). */
export function createEventRecorder(
  client: ApiClient,
  component: string,
  opts: EventRecorderOptions = {},
): EventBroadcaster {
  return new Broadcaster(client, component, opts);
}
