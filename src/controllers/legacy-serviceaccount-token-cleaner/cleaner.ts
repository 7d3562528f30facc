// The legacy service account token cleaner's loop, as upstream's: once its caches have synced, and
// then every sync interval (a day), it reads when the API server began tracking legacy token use
// (the `since` day of the tracking ConfigMap in the system namespace; no run until a full clean-up
// period has passed after that day) and takes each Secret's verdict: label it invalid since today
// (a merge patch carrying the uid, so a Secret replaced meanwhile is not touched), or delete it
// (with its resourceVersion as precondition). A write that meets a conflict re-reads the Secret
// and decides again; other failures are logged and left for the next run.

import type { ApiClient, Clock, SharedInformer } from '../../client/api.ts';
import { realClock, sleep } from '../../client/work-queue/clock.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import {
  CONFIG_MAPS,
  isConflict,
  isNotFound,
  keyOf,
  messageOf,
  nameOf,
  namespaceOf,
  SECRETS,
  stringMap,
  waitForInformers,
} from '../controller-support.ts';
import { formatDuration } from '../manager/config/go-duration.ts';
import { podSecretNames } from './pod-secrets.ts';
import { type CleanerNames, legacyTokenVerdict, parseDay, type Verdict } from './verdict.ts';

/** Upstream's DefaultCleanerSyncInterval. */
export const DEFAULT_CLEANER_SYNC_INTERVAL_MS = 24 * 3600_000;
const WRITE_ATTEMPTS = 5;
const DAY_MS = 24 * 3600_000;

export interface LegacyTokenCleanerOptions {
  client: ApiClient;
  serviceAccounts: SharedInformer;
  secrets: SharedInformer;
  /** Absent when the server serves no Pods: then no token counts as mounted. */
  pods?: SharedInformer;
  names: CleanerNames & {
    systemNamespace: string;
    trackingConfigMap: string;
    trackingKey: string;
  };
  /** How long a token must be unused (and then invalid) before it goes; more than 0. */
  cleanUpPeriodMs: number;
  syncIntervalMs?: number;
  log: ControllerLogger;
  clock?: Clock;
}

export interface RunReport {
  /** Why the run did nothing, when it did nothing. */
  skipped?: string;
  labelled: string[];
  deleted: string[];
}

export class LegacyTokenCleaner {
  private readonly clock: Clock;

  constructor(private readonly o: LegacyTokenCleanerOptions) {
    if (!(o.cleanUpPeriodMs > 0))
      throw new Error(`invalid CleanUpPeriod: ${formatDuration(o.cleanUpPeriodMs)}`);
    this.clock = o.clock ?? realClock;
  }

  /** The first moment tokens count as tracked: the day after the tracking began, at 00:00 UTC. */
  async trackedSince(): Promise<number> {
    const n = this.o.names;
    const cm = await this.o.client.resource(CONFIG_MAPS, n.systemNamespace).get(n.trackingConfigMap);
    const since = stringMap(cm.data)[n.trackingKey];
    if (since === undefined) throw new Error('configMap does not have since label');
    const day = parseDay(since);
    if (day === undefined) throw new Error(`error parsing trackedSince time: ${JSON.stringify(since)}`);
    return day + DAY_MS;
  }

  /** One pass over every Secret. */
  async evaluate(): Promise<RunReport> {
    const report: RunReport = { labelled: [], deleted: [] };
    const now = this.clock.now();
    let tracked: number;
    try {
      tracked = await this.trackedSince();
    } catch (err) {
      report.skipped = `getting the latest possible tracked-since time: ${messageOf(err)}`;
      this.o.log.error(report.skipped);
      return report;
    }
    if (now < tracked + this.o.cleanUpPeriodMs) {
      report.skipped = 'not tracked for a full clean-up period yet';
      return report;
    }
    const mountedByNamespace = new Map<string, Set<string>>();
    for (const secret of this.o.secrets.lister.list()) {
      if (secret.type !== this.o.names.tokenSecretType) continue;
      try {
        const done = await this.act(secret, now, mountedByNamespace);
        if (done === 'label') report.labelled.push(keyOf(secret));
        if (done === 'delete') report.deleted.push(keyOf(secret));
      } catch (err) {
        this.o.log.error('cleaning a legacy service account token failed', {
          secret: keyOf(secret),
          err: messageOf(err),
        });
      }
    }
    return report;
  }

  async run(signal: AbortSignal): Promise<void> {
    const informers = [this.o.serviceAccounts, this.o.secrets];
    if (this.o.pods !== undefined) informers.push(this.o.pods);
    await waitForInformers(informers, signal);
    while (!signal.aborted) {
      await this.evaluate();
      await sleep(this.clock, this.o.syncIntervalMs ?? DEFAULT_CLEANER_SYNC_INTERVAL_MS, signal);
    }
  }

  private verdict(secret: ApiObject, now: number, mountedByNamespace: Map<string, Set<string>>): Verdict {
    const ns = namespaceOf(secret);
    const saName = stringMap(secret.metadata?.annotations)[this.o.names.nameAnnotation] ?? '';
    return legacyTokenVerdict(secret, {
      now,
      cleanUpPeriodMs: this.o.cleanUpPeriodMs,
      account: saName === '' ? undefined : this.o.serviceAccounts.lister.get(`${ns}/${saName}`),
      mounted: () => {
        let names = mountedByNamespace.get(ns);
        if (names === undefined) {
          names = new Set();
          for (const pod of this.o.pods?.lister.list(ns) ?? [])
            for (const n of podSecretNames(pod)) names.add(n);
          mountedByNamespace.set(ns, names);
        }
        return names;
      },
      names: this.o.names,
    });
  }

  /** Applies the verdict on `cached`; on a conflict decides again on the Secret as it now is. */
  private async act(
    cached: ApiObject,
    now: number,
    mountedByNamespace: Map<string, Set<string>>,
  ): Promise<'label' | 'delete' | undefined> {
    const secrets = this.o.client.resource(SECRETS, namespaceOf(cached));
    let secret = cached;
    for (let attempt = 1; ; attempt++) {
      const v = this.verdict(secret, now, mountedByNamespace);
      try {
        if (v.action === 'keep') return undefined;
        if (v.action === 'label') {
          this.o.log.info('Mark the auto-generated service account token as invalid', {
            invalidSince: v.invalidSince,
            secret: keyOf(secret),
          });
          await secrets.patch(nameOf(secret), 'merge', {
            kind: 'Secret',
            apiVersion: 'v1',
            metadata: {
              name: nameOf(secret),
              namespace: namespaceOf(secret),
              uid: secret.metadata?.uid,
              labels: { [this.o.names.legacyInvalidSinceLabel]: v.invalidSince },
            },
          });
          return 'label';
        }
        this.o.log.info('Delete auto-generated service account token', {
          secret: keyOf(secret),
          creationTime: secret.metadata?.creationTimestamp,
          lastUsed: v.lastUsed,
          invalidSince: v.invalidSince,
        });
        const rv = secret.metadata?.resourceVersion;
        await secrets.delete(nameOf(secret), rv ? { preconditions: { resourceVersion: rv } } : {});
        return 'delete';
      } catch (err) {
        if (isNotFound(err)) return undefined;
        if (!isConflict(err) || attempt >= WRITE_ATTEMPTS) throw err;
      }
      try {
        secret = await secrets.get(nameOf(secret));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    }
  }
}
