// The authentication filter's metrics, as upstream's request filter records them on every request:
// attempts and latency by result, and authenticated requests by a coarse username (a handful of
// well-known identities by name, email-like names as one value, everything else as `other`, so
// the label stays small). Label children are made once and kept: this runs on every request.

import type { Counter, Histogram } from 'prom-client';
import { exponentialBuckets, type MetricsRegistry } from '../../machinery/metrics/index.ts';
import { componentName, type NamingProfile, namingProfile } from '../../naming/profile.ts';

/** Upstream's result label: `error` when an authenticator failed on a credential, `failure` when none applied. */
export type AuthenticationResult = 'success' | 'failure' | 'error';

type Child<M extends { labels(...v: string[]): unknown }> = ReturnType<M['labels']>;

interface ResultSeries {
  attempts: Child<Counter<'result'>>;
  duration: Child<Histogram<'result'>>;
}

export class AuthenticationMetrics {
  private readonly byResult = new Map<AuthenticationResult, ResultSeries>();
  private readonly byUser = new Map<string, Child<Counter<'username'>>>();
  private readonly users: Counter<'username'>;
  private readonly attempts: Counter<'result'>;
  private readonly duration: Histogram<'result'>;
  /** The names kept as they are (upstream's list, the system namespace under the profile's name). */
  private readonly known: ReadonlySet<string>;

  constructor(registry: MetricsRegistry, profile: NamingProfile = namingProfile('spec')) {
    this.users = registry.counter({
      name: 'authenticated_user_requests',
      help: 'Counter of authenticated requests broken out by username.',
      stability: 'ALPHA',
      labelNames: ['username'],
    });
    this.attempts = registry.counter({
      name: 'authentication_attempts',
      help: 'Counter of authenticated attempts.',
      stability: 'ALPHA',
      labelNames: ['result'],
    });
    this.duration = registry.histogram({
      name: 'authentication_duration_seconds',
      help: 'Authentication duration in seconds broken out by result.',
      stability: 'ALPHA',
      labelNames: ['result'],
      buckets: exponentialBuckets(0.001, 2, 15),
    });
    this.known = new Set([
      'admin',
      'client',
      'kube_proxy',
      'kubelet',
      `system:serviceaccount:${componentName(profile, 'system')}:default`,
    ]);
  }

  /** One authentication: its result, how long it took, and (on success) who it was. */
  record(result: AuthenticationResult, seconds: number, username?: string): void {
    let s = this.byResult.get(result);
    if (s === undefined) {
      s = { attempts: this.attempts.labels(result), duration: this.duration.labels(result) };
      this.byResult.set(result, s);
    }
    if (result === 'success' && username !== undefined) {
      const label = this.compressUsername(username);
      let u = this.byUser.get(label);
      if (u === undefined) {
        u = this.users.labels(label);
        this.byUser.set(label, u);
      }
      u.inc();
    }
    s.attempts.inc();
    s.duration.observe(seconds);
  }

  /** Upstream's compressUsername: a bounded label for any user name. */
  compressUsername(username: string): string {
    if (this.known.has(username)) return username;
    if (username.includes('@')) return 'email_id';
    return 'other';
  }
}
