// The Lease a leader elector contends for (client-go's LeaseLock): reads it into a leader election
// record, creates it, and writes a record back as an update carrying the resourceVersion last read
// or written, so two electors racing for it are serialised by the server's optimistic concurrency.
// Times travel as MicroTime (RFC 3339 with six fractional digits, UTC).

import type { ApiObject, ObjectMeta } from '../../machinery/object.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';
import type { GroupVersionResource, ResourceClient } from '../api.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends ApiObject {
  metadata?: ObjectMeta;
  spec?: LeaseSpec;
}

/** The leader election view of a Lease; times in ms since the epoch (0 when unset). */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
  strategy?: string;
  preferredHolder?: string;
}

/** Leases of the profile's coordination group (`coordination.k8s.io/v1` under the upstream profile). */
export function leaseResource(profile: NamingProfile): GroupVersionResource {
  return { group: groupName(profile, 'coordination'), version: 'v1', resource: 'leases' };
}

/** MicroTime: `2006-01-02T15:04:05.000000Z`. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A MicroTime or Time string as ms since the epoch; 0 when absent or unreadable. */
export function parseMicroTime(s: string | undefined): number {
  if (!s) return 0;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Seconds-precision RFC 3339, as the record's metav1.Time fields serialise. */
const secondsTime = (ms: number) => (ms === 0 ? null : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z'));

export function specToRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  const s = spec ?? {};
  const r: LeaderElectionRecord = {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: parseMicroTime(s.acquireTime),
    renewTime: parseMicroTime(s.renewTime),
    leaderTransitions: s.leaseTransitions ?? 0,
  };
  if (s.strategy) r.strategy = s.strategy;
  if (s.preferredHolder) r.preferredHolder = s.preferredHolder;
  return r;
}

export function recordToSpec(r: LeaderElectionRecord): LeaseSpec {
  const spec: LeaseSpec = {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: formatMicroTime(r.acquireTime),
    renewTime: formatMicroTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
  if (r.preferredHolder) spec.preferredHolder = r.preferredHolder;
  if (r.strategy) spec.strategy = r.strategy;
  return spec;
}

/**
 * The record as upstream compares it to notice a change: its JSON form, where times have
 * whole-second precision.
 */
export function rawRecord(r: LeaderElectionRecord): string {
  return JSON.stringify({
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: secondsTime(r.acquireTime),
    renewTime: secondsTime(r.renewTime),
    leaderTransitions: r.leaderTransitions,
    strategy: r.strategy ?? '',
    preferredHolder: r.preferredHolder ?? '',
  });
}

export class LeaseLock {
  private lease: Lease | undefined;

  constructor(
    /** Leases in the lock's namespace. */
    private readonly leases: ResourceClient<Lease>,
    readonly name: string,
    readonly identity: string,
    private readonly labels?: Record<string, string>,
  ) {}

  /** `namespace/name`. */
  describe(): string {
    return `${this.leases.namespace ?? ''}/${this.name}`;
  }

  async get(): Promise<{ record: LeaderElectionRecord; raw: string }> {
    const lease = await this.leases.get(this.name);
    this.lease = lease;
    const record = specToRecord(lease.spec);
    return { record, raw: rawRecord(record) };
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    const metadata: ObjectMeta = { name: this.name };
    if (this.leases.namespace !== undefined) metadata.namespace = this.leases.namespace;
    if (this.labels !== undefined) metadata.labels = { ...this.labels };
    this.lease = await this.leases.create({ metadata, spec: recordToSpec(record) });
  }

  /** Writes `record` over the Lease last read or written; fails with Conflict if it changed since. */
  async update(record: LeaderElectionRecord): Promise<void> {
    const current = this.lease;
    if (current === undefined) throw new Error('lease not initialized, call get or create first');
    const metadata: ObjectMeta = { ...current.metadata };
    if (this.labels !== undefined) metadata.labels = { ...current.metadata?.labels, ...this.labels };
    this.lease = await this.leases.update({ ...current, metadata, spec: recordToSpec(record) });
  }
}
