// The metrics of a reloaded configuration file (--authentication-config, --authorization-config),
// under upstream's names: reloads by status and the time of the last one, both split by the
// server's identity hash, and an info series naming the hash of the configuration in force. The
// info series is set when the server starts with a file and moves with each applied reload.

import type { Counter, Gauge } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { metricHash } from '../apiserver-id.ts';

/** Whose file: the metric names and help texts follow it. */
export type ReloadSubject = 'authentication' | 'authorization';

export type ReloadStatus = 'success' | 'failure';

export class ConfigReloadMetrics {
  private readonly reloads: Counter<'status' | 'apiserver_id_hash'>;
  private readonly lastTimestamp: Gauge<'status' | 'apiserver_id_hash'>;
  private readonly info: Gauge<'apiserver_id_hash' | 'hash'>;
  private readonly idHash: string;

  /** `apiServerId` is the server's identity (apiserver-id.ts); only its hash is exposed. */
  constructor(registry: MetricsRegistry, subject: ReloadSubject, apiServerId: string) {
    const n = `apiserver_${subject}_config_controller`;
    this.idHash = metricHash(apiServerId);
    this.reloads = registry.counter({
      name: `${n}_automatic_reloads_total`,
      help: `Total number of automatic reloads of ${subject} configuration split by status and apiserver identity.`,
      stability: 'BETA',
      labelNames: ['status', 'apiserver_id_hash'],
    });
    this.lastTimestamp = registry.gauge({
      name: `${n}_automatic_reload_last_timestamp_seconds`,
      help: `Timestamp of the last automatic reload of ${subject} configuration split by status and apiserver identity.`,
      stability: 'BETA',
      labelNames: ['status', 'apiserver_id_hash'],
    });
    this.info = registry.gauge({
      name: `${n}_last_config_info`,
      help: `Information about the last applied ${subject} configuration with hash as label, split by apiserver identity.`,
      stability: 'ALPHA',
      labelNames: ['apiserver_id_hash', 'hash'],
    });
  }

  /** One reload attempt's outcome, stamped with the current time in seconds. */
  reload(status: ReloadStatus, nowSeconds: number = Date.now() / 1000): void {
    this.reloads.labels(status, this.idHash).inc();
    this.lastTimestamp.labels(status, this.idHash).set(nowSeconds);
  }

  /** The configuration now in force (its text is hashed): one info series at a time. */
  configInForce(text: string): void {
    this.info.reset();
    this.info.labels(this.idHash, metricHash(text)).set(1);
  }
}
