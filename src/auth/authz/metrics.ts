// Authorization metrics under upstream's names: terminal decisions of each configured authorizer
// (by its type and name: the AuthorizationConfiguration's, or for --authorization-mode the mode
// and its lower-cased name, `default` for the webhook), the authorization webhooks' round trips,
// fail-opens and match conditions, and the request filter's attempts and latency. Series are made once per label
// combination and kept: decisions are counted on every request.

import type { Counter, Histogram } from 'prom-client';
import {
  type CounterSeries,
  exponentialBuckets,
  FastCounter,
  FastHistogram,
  type HistogramSeries,
  type MetricsRegistry,
} from '../../machinery/metrics/index.ts';
import type { Attributes, Authorizer, RuleResolver, Verdict } from './types.ts';
import { isRuleResolver } from './union.ts';

type CounterChild = ReturnType<Counter<string>['labels']>;
type HistogramChild = ReturnType<Histogram<string>['labels']>;

/** Prometheus' default buckets (upstream's DefBuckets). */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A cache of label children by their joined values. */
class Children<C> {
  private readonly map = new Map<string, C>();
  constructor(private readonly make: (...values: string[]) => C) {}
  get(...values: string[]): C {
    const key = values.join('\u0000');
    let c = this.map.get(key);
    if (c === undefined) {
      c = this.make(...values);
      this.map.set(key, c);
    }
    return c;
  }
}

/** What a round trip to an authorization webhook came to (upstream's result label). */
export type WebhookResult = 'success' | 'timeout' | 'error' | 'canceled';

export class AuthorizationMetrics {
  private readonly decisions: FastCounter;
  private readonly evaluations: Children<CounterChild>;
  private readonly durations: Children<HistogramChild>;
  private readonly failOpens: Children<CounterChild>;
  private readonly matchErrors: Children<CounterChild>;
  private readonly matchExclusions: Children<CounterChild>;
  private readonly matchSeconds: Children<HistogramChild>;

  constructor(registry: MetricsRegistry) {
    // Counted on every request: plain series records, no label hashing per call.
    this.decisions = new FastCounter(
      {
        name: 'apiserver_authorization_decisions_total',
        help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
        stability: 'ALPHA',
        labelNames: ['type', 'name', 'decision'],
      },
      registry,
    );
    const evaluations = registry.counter({
      name: 'apiserver_authorization_webhook_evaluations_total',
      help: 'Round-trips to authorization webhooks.',
      stability: 'ALPHA',
      labelNames: ['name', 'result'],
    });
    const durations = registry.histogram({
      name: 'apiserver_authorization_webhook_duration_seconds',
      help: 'Request latency in seconds.',
      stability: 'ALPHA',
      labelNames: ['name', 'result'],
      buckets: DEFAULT_BUCKETS,
    });
    const failOpens = registry.counter({
      name: 'apiserver_authorization_webhook_evaluations_fail_open_total',
      help: 'NoOpinion results due to webhook timeout or error.',
      stability: 'ALPHA',
      labelNames: ['name', 'result'],
    });
    const matchErrors = registry.counter({
      name: 'apiserver_authorization_match_condition_evaluation_errors_total',
      help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
      stability: 'ALPHA',
      labelNames: ['type', 'name'],
    });
    const matchExclusions = registry.counter({
      name: 'apiserver_authorization_match_condition_exclusions_total',
      help: 'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.',
      stability: 'ALPHA',
      labelNames: ['type', 'name'],
    });
    const matchSeconds = registry.histogram({
      name: 'apiserver_authorization_match_condition_evaluation_seconds',
      help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.',
      stability: 'ALPHA',
      labelNames: ['type', 'name'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25],
    });
    this.matchErrors = new Children((...v) => matchErrors.labels(...v));
    this.matchExclusions = new Children((...v) => matchExclusions.labels(...v));
    this.matchSeconds = new Children((...v) => matchSeconds.labels(...v));
    this.evaluations = new Children((...v) => evaluations.labels(...v));
    this.durations = new Children((...v) => durations.labels(...v));
    this.failOpens = new Children((...v) => failOpens.labels(...v));
  }

  /**
   * The authorizer with its allows and denies counted (no opinion is not terminal, so not
   * counted). Keeps the rule listing of an authorizer that has one.
   */
  instrument(type: string, name: string, inner: Authorizer): Authorizer {
    // A series appears with its first decision, as upstream's does.
    let allowed: CounterSeries | undefined;
    let denied: CounterSeries | undefined;
    const count = (v: Verdict): Verdict => {
      if (v.decision === 'allow') {
        allowed ??= this.decisions.series(type, name, 'allowed');
        allowed.value++;
      } else if (v.decision === 'deny') {
        denied ??= this.decisions.series(type, name, 'denied');
        denied.value++;
      }
      return v;
    };
    const authorize = (a: Attributes): Verdict | Promise<Verdict> => {
      const v = inner.authorize(a);
      return v instanceof Promise ? v.then(count) : count(v);
    };
    if (isRuleResolver(inner)) {
      const resolver: Authorizer & RuleResolver = {
        authorize,
        rulesFor: (user, namespace) => inner.rulesFor(user, namespace),
      };
      return resolver;
    }
    return { authorize };
  }

  /** One round trip to the webhook named `name` (each retry is one). */
  webhookRoundTrip(name: string, result: WebhookResult, seconds: number): void {
    this.evaluations.get(name, result).inc();
    this.durations.get(name, result).observe(seconds);
  }

  /** One evaluation of a webhook's match conditions (only webhooks have them). */
  matchConditionEvaluation(name: string, seconds: number): void {
    this.matchSeconds.get('Webhook', name).observe(seconds);
  }

  /** A match condition failed to evaluate. */
  matchConditionError(name: string): void {
    this.matchErrors.get('Webhook', name).inc();
  }

  /** A match condition was false: the webhook was not called. */
  matchConditionExclusion(name: string): void {
    this.matchExclusions.get('Webhook', name).inc();
  }

  /** A webhook that failed answered no opinion (failure policy NoOpinion) rather than deny. */
  webhookFailOpen(name: string, result: WebhookResult): void {
    this.failOpens.get(name, result).inc();
  }
}

/** The filter metrics' result label: an allow wins over an error, an error over the decision, as upstream's. */
export function authorizationResult(v: Verdict): 'allowed' | 'error' | 'denied' | 'no-opinion' {
  if (v.decision === 'allow') return 'allowed';
  if (v.error !== undefined) return 'error';
  return v.decision === 'deny' ? 'denied' : 'no-opinion';
}

/**
 * The authorization filter's metrics (upstream's request filter records them for every request it
 * authorizes): attempts and latency by result. The server's filter records into these.
 */
export class AuthorizationAttemptMetrics {
  private readonly attempts = new Map<string, CounterSeries>();
  private readonly latency = new Map<string, HistogramSeries>();
  private readonly latencyHistogram: FastHistogram;

  constructor(registry: MetricsRegistry) {
    const attempts = new FastCounter(
      {
        name: 'authorization_attempts_total',
        help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
        stability: 'ALPHA',
        labelNames: ['result'],
      },
      registry,
    );
    this.latencyHistogram = new FastHistogram(
      {
        name: 'authorization_duration_seconds',
        help: 'Authorization duration in seconds broken out by result.',
        stability: 'ALPHA',
        labelNames: ['result'],
        buckets: exponentialBuckets(0.001, 2, 15),
      },
      registry,
    );
    // Four results: their series are made as they first occur and kept.
    this.seriesOf = (result) => {
      let a = this.attempts.get(result);
      if (a === undefined) {
        a = attempts.series(result);
        this.attempts.set(result, a);
        this.latency.set(result, this.latencyHistogram.series(result));
      }
      return [a, this.latency.get(result) as HistogramSeries];
    };
  }

  private readonly seriesOf: (result: string) => [CounterSeries, HistogramSeries];

  /** One authorization of a request. */
  record(v: Verdict, seconds: number): void {
    const [count, latency] = this.seriesOf(authorizationResult(v));
    count.value++;
    this.latencyHistogram.observe(latency, seconds);
  }
}
