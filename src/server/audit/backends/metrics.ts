// Audit's metrics, as upstream's pkg/audit/metrics.go defines them (all ALPHA), and the one way a
// backend reports events it failed to record (upstream's HandlePluginError: counted by plugin and
// logged with the events' one-line form). Backends count errors here; the pipeline counts events
// (one per stage handed to the backend), policy levels (one per request) and requests rejected
// because a blocking-strict backend failed. The metrics are made once per registry, so the
// pipeline and the backends share them whoever asks first.

import type { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { type CounterSeries, FastCounter } from '../../../machinery/metrics/index.ts';
import type { AuditEvent } from '../event-types.ts';
import type { AuditLevel } from '../policy-types.ts';
import { eventString } from './legacy-format.ts';

export class AuditMetrics {
  private readonly events: CounterSeries;
  private readonly levels: FastCounter;
  private readonly levelSeries = new Map<string, CounterSeries>();
  private readonly errors: FastCounter;
  private readonly errorSeries = new Map<string, CounterSeries>();
  private readonly rejected: CounterSeries;

  constructor(registry: MetricsRegistry) {
    this.events = new FastCounter(
      {
        name: 'apiserver_audit_event_total',
        help: 'Counter of audit events generated and sent to the audit backend.',
        stability: 'ALPHA',
        labelNames: [],
      },
      registry,
    ).series();
    this.errors = new FastCounter(
      {
        name: 'apiserver_audit_error_total',
        help:
          'Counter of audit events that failed to be audited properly. ' +
          'Plugin identifies the plugin affected by the error.',
        stability: 'ALPHA',
        labelNames: ['plugin'],
      },
      registry,
    );
    this.levels = new FastCounter(
      {
        name: 'apiserver_audit_level_total',
        help: 'Counter of policy levels for audit events (1 per request).',
        stability: 'ALPHA',
        labelNames: ['level'],
      },
      registry,
    );
    this.rejected = new FastCounter(
      {
        name: 'apiserver_audit_requests_rejected_total',
        help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
        stability: 'ALPHA',
        labelNames: [],
      },
      registry,
    ).series();
  }

  /** One event handed to the backend (upstream's ObserveEvent, in ProcessEventStage). */
  observeEvent(): void {
    this.events.value++;
  }

  /** The policy level of one request (upstream's ObservePolicyLevel, in the audit filter). */
  observePolicyLevel(level: AuditLevel): void {
    let s = this.levelSeries.get(level);
    if (s === undefined) {
      s = this.levels.series(level);
      this.levelSeries.set(level, s);
    }
    s.value++;
  }

  /** A request refused because its RequestReceived event could not be recorded (blocking-strict). */
  requestRejected(): void {
    this.rejected.value++;
  }

  /** Events a plugin (`log`, `webhook`, `buffered`, `truncate`) failed to record. */
  pluginErrors(plugin: string, count: number): void {
    let s = this.errorSeries.get(plugin);
    if (s === undefined) {
      s = this.errors.series(plugin);
      this.errorSeries.set(plugin, s);
    }
    s.value += count;
  }
}

const byRegistry = new WeakMap<MetricsRegistry, AuditMetrics>();

/** The audit metrics of a registry, made on first use. */
export function auditMetrics(registry: MetricsRegistry): AuditMetrics {
  let m = byRegistry.get(registry);
  if (m === undefined) {
    m = new AuditMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}

/** Logging of plugin errors: the first at once, then at most one line a second with the count. */
const LOG_INTERVAL_MS = 1000;

/**
 * What a backend reports failures through. Upstream logs every failure with every impacted event;
 * a webhook that is down under load would then log thousands of lines a second, so this logs the
 * first failure in full and then summarises what was suppressed, at most once a second.
 */
export class PluginErrors {
  private lastLogged = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly metrics: AuditMetrics,
    private readonly log: ((m: string) => void) | undefined,
  ) {}

  report(plugin: string, err: Error | string, impacted: readonly AuditEvent[]): void {
    if (impacted.length === 0) return;
    this.metrics.pluginErrors(plugin, impacted.length);
    if (this.log === undefined) return;
    const now = Date.now();
    if (now - this.lastLogged < LOG_INTERVAL_MS) {
      this.suppressed += impacted.length;
      return;
    }
    this.lastLogged = now;
    const message = typeof err === 'string' ? err : err.message;
    let text = `Error in audit plugin '${plugin}' affecting ${impacted.length} audit events: ${message}`;
    if (this.suppressed > 0) text += ` (and ${this.suppressed} more events failed since the last message)`;
    this.suppressed = 0;
    text += '\nImpacted events:\n';
    // A few events say what failed; thousands would only flood the log.
    for (const ev of impacted.slice(0, 10)) text += `${eventString(ev)}\n`;
    if (impacted.length > 10) text += `... ${impacted.length - 10} more\n`;
    this.log(text);
  }
}
