// The log backend (upstream's plugin/pkg/audit/log): each event becomes one line, its JSON (the
// Event in the profile's audit group) or upstream's legacy one-line text, written to a LineSink.
//
// When lines reach the file: upstream writes each event before the request goes on. Here:
// - `immediate` (blocking-strict, and the batch wrapper's delivery): written (write(2)) before
//   processEvents returns, so a failure is known and answered;
// - deferred (blocking): serialised at once (later changes to the event do not show), appended to
//   an in-memory run of lines, and written in one system call when the current turn of the event
//   loop ends (setImmediate) or 256 KiB have gathered, and at shutdown or process exit. A crash
//   loses at most the lines of the turn it happened in; nothing is fsync'd (as upstream).
// Failures are counted as `log` errors (apiserver_audit_error_total) and logged.

import type { AuditBackend, AuditEvent } from '../event-types.ts';
import type { BatchDelegate } from './buffered.ts';
import { eventString } from './legacy-format.ts';
import type { LineSink } from './line-sinks.ts';
import type { PluginErrors } from './metrics.ts';

export type LogFormat = 'json' | 'legacy';

const FLUSH_BYTES = 256 * 1024;

/** Backends with deferred lines, written out if the process exits before their turn ends. */
const deferred = new Set<LogBackend>();
let exitHook = false;

function flushAllOnExit(): void {
  for (const b of deferred) b.flush();
}

export class LogBackend implements AuditBackend, BatchDelegate {
  readonly name = 'log';
  private pendingLines: string[] = [];
  private pendingEvents: AuditEvent[] = [];
  private pendingBytes = 0;
  private scheduled: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly sink: LineSink,
    private readonly format: LogFormat,
    /** `audit.<group domain>/v1`: what each JSON line's apiVersion says. */
    private readonly apiVersion: string,
    private readonly errors: PluginErrors,
    /** Write before returning (true) or at the end of the event loop's turn (false). */
    private readonly immediate: boolean,
  ) {}

  private line(ev: AuditEvent): string {
    if (this.format === 'legacy') return `${eventString(ev)}\n`;
    const out = ev.apiVersion === this.apiVersion ? ev : { ...ev, apiVersion: this.apiVersion };
    return `${JSON.stringify(out)}\n`;
  }

  processEvents(...events: AuditEvent[]): boolean {
    if (this.closed) {
      this.errors.report(this.name, 'audit backend shut down', events);
      return false;
    }
    for (const ev of events) {
      const line = this.line(ev);
      this.pendingLines.push(line);
      this.pendingEvents.push(ev);
      this.pendingBytes += line.length;
    }
    if (this.immediate || this.pendingBytes >= FLUSH_BYTES) return this.flush();
    if (this.scheduled === undefined) {
      this.scheduled = setImmediate(() => this.flush());
      if (!exitHook) {
        exitHook = true;
        process.once('exit', flushAllOnExit);
      }
      deferred.add(this);
    }
    return true;
  }

  /** The batch wrapper's delivery: written at once. */
  deliver(events: AuditEvent[]): boolean {
    return this.processEvents(...events);
  }

  /** Writes what is pending; false when some line could not be written. */
  flush(): boolean {
    if (this.scheduled !== undefined) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
      deferred.delete(this);
    }
    if (this.pendingLines.length === 0) return true;
    const lines = this.pendingLines;
    const events = this.pendingEvents;
    this.pendingLines = [];
    this.pendingEvents = [];
    this.pendingBytes = 0;
    const failure = this.sink.write(lines);
    if (failure === undefined) return true;
    this.errors.report(
      this.name,
      failure.error,
      failure.failed.map((i) => events[i]),
    );
    return false;
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await this.sink.close();
  }
}
