// Metrics of the JWT authenticators under upstream's names. Latency: only tokens an authenticator
// claims (its issuer), split by success or failure and by the issuer's hash, never the issuer
// itself; the token cache sits in front, so this counts cache misses only. Key sets: the time of
// each issuer's last successful and failed JWKS fetch and the hash of the last key set fetched,
// split by issuer hash and server identity hash; an issuer a reload removes loses its series.
// Series are made once per issuer and kept.

import type { Gauge, Histogram } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { metricHash } from '../apiserver-id.ts';

type Series = ReturnType<Histogram<'result' | 'jwt_issuer_hash'>['labels']>;

export interface IssuerLatency {
  success: Series;
  failure: Series;
}

export class JwtMetrics {
  private readonly latency: Histogram<'result' | 'jwt_issuer_hash'>;
  private readonly fetchTimestamp: Gauge<'result' | 'jwt_issuer_hash' | 'apiserver_id_hash'>;
  private readonly keySetInfo: Gauge<'jwt_issuer_hash' | 'apiserver_id_hash' | 'hash'>;
  private readonly byIssuer = new Map<string, IssuerLatency>();
  /** The key set hash each issuer's info series names. */
  private readonly keySetHashes = new Map<string, string>();
  /** Issuers whose key set fetches have been stamped. */
  private readonly fetched = new Set<string>();
  private readonly idHash: string;

  /** `apiServerId` is the server's identity (apiserver-id.ts); only its hash is exposed. */
  constructor(registry: MetricsRegistry, apiServerId: string) {
    this.idHash = metricHash(apiServerId);
    this.latency = registry.histogram({
      name: 'apiserver_authentication_jwt_authenticator_latency_seconds',
      help: 'Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
      stability: 'ALPHA',
      labelNames: ['result', 'jwt_issuer_hash'],
      // Prometheus' default buckets with a 1ms start, as upstream's.
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.fetchTimestamp = registry.gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds',
      help: 'Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
      stability: 'ALPHA',
      labelNames: ['result', 'jwt_issuer_hash', 'apiserver_id_hash'],
    });
    this.keySetInfo = registry.gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info',
      help: 'Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
      stability: 'ALPHA',
      labelNames: ['jwt_issuer_hash', 'apiserver_id_hash', 'hash'],
    });
  }

  /** The latency series of one issuer (made on first use). */
  forIssuer(issuer: string): IssuerLatency {
    let s = this.byIssuer.get(issuer);
    if (s === undefined) {
      const hash = metricHash(issuer);
      s = { success: this.latency.labels('success', hash), failure: this.latency.labels('failure', hash) };
      this.byIssuer.set(issuer, s);
    }
    return s;
  }

  /** One JWKS fetch of `issuer`: stamped by result; a success names the key set's hash. */
  keySetFetch(
    issuer: string,
    result: 'success' | 'failure',
    body?: string,
    nowSeconds = Date.now() / 1000,
  ): void {
    const issuerHash = metricHash(issuer);
    if (result === 'success' && body !== undefined) {
      const hash = metricHash(body);
      const old = this.keySetHashes.get(issuer);
      if (old !== undefined && old !== hash) this.keySetInfo.remove(issuerHash, this.idHash, old);
      this.keySetHashes.set(issuer, hash);
      this.keySetInfo.labels(issuerHash, this.idHash, hash).set(1);
    }
    this.fetched.add(issuer);
    this.fetchTimestamp.labels(result, issuerHash, this.idHash).set(nowSeconds);
  }

  /** Drops the key set series of issuers no longer configured (after a reload). */
  keepOnly(issuers: ReadonlySet<string>): void {
    for (const issuer of [...this.fetched]) {
      if (issuers.has(issuer)) continue;
      const issuerHash = metricHash(issuer);
      const hash = this.keySetHashes.get(issuer);
      if (hash !== undefined) this.keySetInfo.remove(issuerHash, this.idHash, hash);
      this.keySetHashes.delete(issuer);
      this.fetched.delete(issuer);
      for (const result of ['success', 'failure'])
        this.fetchTimestamp.remove(result, issuerHash, this.idHash);
    }
  }
}
