// Who is asking: the authenticator chain decides; a bad credential (or none, with anonymous
// access off) is a 401 before anything else runs. Every attempt is counted and timed, and every
// authenticated request counted by its folded user name, under upstream's metric names, in the
// registry the chain carries. This runs on every request, so the series are plain records (the
// server's fast metrics) made once per label value.

import type { AuthenticationResult } from '../../auth/authn/metrics.ts';
import type { AuthnChain } from '../../auth/authn/union.ts';
import {
  type CounterSeries,
  exponentialBuckets,
  FastCounter,
  FastHistogram,
  type HistogramSeries,
  type MetricsRegistry,
} from '../../machinery/metrics/index.ts';
import { unauthorized } from '../../machinery/status.ts';
import type { Filter } from '../context.ts';
import { peerCertificateOf } from '../listener.ts';

/** One set of series per chain: a second filter over the same chain records into the same ones. */
const metricsOfChain = new WeakMap<AuthnChain, AuthenticationMetrics>();

function metricsOf(chain: AuthnChain): AuthenticationMetrics | undefined {
  if (chain.metrics === undefined) return undefined;
  let m = metricsOfChain.get(chain);
  if (m === undefined) {
    m = new AuthenticationMetrics(chain.metrics, chain.foldUsername);
    metricsOfChain.set(chain, m);
  }
  return m;
}

export function authentication(chain: AuthnChain): Filter {
  const metrics = metricsOf(chain);
  return async (ctx, next) => {
    const started = metrics === undefined ? 0 : performance.now();
    const outcome = await chain.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peerCertificateOf(ctx.req),
      path: pathOf(ctx.url),
    });
    if (metrics !== undefined) {
      const seconds = (performance.now() - started) / 1000;
      if (outcome.ok) metrics.record('success', seconds, outcome.user.username);
      else metrics.record(outcome.errored ? 'error' : 'failure', seconds);
    }
    if (!outcome.ok) throw unauthorized('Unauthorized');
    ctx.user = outcome.user;
    await next();
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

interface ResultSeries {
  attempts: CounterSeries;
  duration: HistogramSeries;
}

/** authentication_attempts, authentication_duration_seconds and authenticated_user_requests. */
export class AuthenticationMetrics {
  private readonly users: FastCounter;
  private readonly attempts: FastCounter;
  private readonly duration: FastHistogram;
  private readonly byResult = new Map<AuthenticationResult, ResultSeries>();
  private readonly byUser = new Map<string, CounterSeries>();

  constructor(
    registry: MetricsRegistry,
    private readonly fold: (username: string) => string,
  ) {
    this.users = new FastCounter(
      {
        name: 'authenticated_user_requests',
        help: 'Counter of authenticated requests broken out by username.',
        stability: 'ALPHA',
        labelNames: ['username'],
      },
      registry,
    );
    this.attempts = new FastCounter(
      {
        name: 'authentication_attempts',
        help: 'Counter of authenticated attempts.',
        stability: 'ALPHA',
        labelNames: ['result'],
      },
      registry,
    );
    this.duration = new FastHistogram(
      {
        name: 'authentication_duration_seconds',
        help: 'Authentication duration in seconds broken out by result.',
        stability: 'ALPHA',
        labelNames: ['result'],
        buckets: exponentialBuckets(0.001, 2, 15),
      },
      registry,
    );
  }

  /** One authentication: its result, how long it took, and (on success) who it was. */
  record(result: AuthenticationResult, seconds: number, username?: string): void {
    let s = this.byResult.get(result);
    if (s === undefined) {
      s = { attempts: this.attempts.series(result), duration: this.duration.series(result) };
      this.byResult.set(result, s);
    }
    s.attempts.value++;
    this.duration.observe(s.duration, seconds);
    if (result === 'success' && username !== undefined) {
      const label = this.fold(username);
      let u = this.byUser.get(label);
      if (u === undefined) {
        u = this.users.series(label);
        this.byUser.set(label, u);
      }
      u.value++;
    }
  }
}
