// Latency of JWT authenticators, as upstream's OIDC authenticator records it: only tokens an
// authenticator claims (its issuer), split by success or failure and by the issuer's hash, never
// the issuer itself. The token cache sits in front, so this counts cache misses only. A member's
// series are made once per issuer and kept.

import type { Histogram } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { metricHash } from '../apiserver-id.ts';

type Series = ReturnType<Histogram<'result' | 'jwt_issuer_hash'>['labels']>;

export interface IssuerLatency {
  success: Series;
  failure: Series;
}

export class JwtMetrics {
  private readonly latency: Histogram<'result' | 'jwt_issuer_hash'>;
  private readonly byIssuer = new Map<string, IssuerLatency>();

  constructor(registry: MetricsRegistry) {
    this.latency = registry.histogram({
      name: 'apiserver_authentication_jwt_authenticator_latency_seconds',
      help: 'Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
      stability: 'ALPHA',
      labelNames: ['result', 'jwt_issuer_hash'],
      // Prometheus' default buckets with a 1ms start, as upstream's.
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
  }

  /** The series of one issuer (made on first use). */
  forIssuer(issuer: string): IssuerLatency {
    let s = this.byIssuer.get(issuer);
    if (s === undefined) {
      const hash = metricHash(issuer);
      s = { success: this.latency.labels('success', hash), failure: this.latency.labels('failure', hash) };
      this.byIssuer.set(issuer, s);
    }
    return s;
  }
}
