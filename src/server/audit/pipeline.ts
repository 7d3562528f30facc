// A server's audit: the loaded policy's evaluator, the backend, and the counters upstream keeps
// (events sent, the level chosen per request, requests refused because the backend would not take
// their first event). openAudit builds it from AuditOptions at start: bad options, an unreadable
// or invalid policy, or a backend that cannot be made stop the start with upstream's message.
// Audit is on only with both a policy and a backend, as upstream decorates nothing otherwise.

import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import type { NamingProfile } from '../../naming/index.ts';
import type { RequestContext } from '../context.ts';
import { type AuditMetrics, auditMetrics } from './backends/metrics.ts';
import type { AuditBackend } from './event-types.ts';
import { nowMicros } from './micro-time.ts';
import type { AuditOptions } from './options.ts';
import { AuditOptionsError, aggregateErrors, validateAuditOptions } from './options-validation.ts';
import { type AuditAttributes, PolicyRuleEvaluator, type RequestAuditConfig } from './policy-checker.ts';
import { AuditPolicyError, type LoadedPolicy, loadAuditPolicyFile } from './policy-file.ts';
import { auditGroup, type Policy } from './policy-types.ts';
import {
  type AuditSink,
  attachRequestAudit,
  auditingStarted,
  auditingStopped,
  RequestAudit,
  requestAuditOf,
} from './request-audit.ts';

export type AuditBackendFactory = (
  options: AuditOptions,
  deps: { metrics: MetricsRegistry; profile: NamingProfile; log?: (m: string) => void },
) => Promise<AuditBackend | undefined>;

export interface AuditPipelineDeps {
  profile: NamingProfile;
  metrics?: MetricsRegistry;
}

export class AuditPipeline implements AuditSink {
  readonly apiVersion: string;
  private readonly evaluator: PolicyRuleEvaluator;
  private readonly metrics?: AuditMetrics;
  private stopped = false;

  constructor(
    policy: Policy,
    readonly backend: AuditBackend,
    deps: AuditPipelineDeps,
  ) {
    this.evaluator = new PolicyRuleEvaluator(policy);
    this.apiVersion = `${auditGroup(deps.profile)}/v1`;
    // Shared with the backends, which count their errors in the same registry.
    this.metrics = deps.metrics === undefined ? undefined : auditMetrics(deps.metrics);
    auditingStarted();
  }

  /** At arrival: the request's record, with its Audit-ID and arrival time. */
  begin(ctx: RequestContext, auditID: string): RequestAudit {
    const ra = new RequestAudit(ctx, auditID, nowMicros());
    attachRequestAudit(ctx, ra);
    return ra;
  }

  recordOf(ctx: RequestContext): RequestAudit | undefined {
    return requestAuditOf(ctx);
  }

  /** The policy's answer for the request as it stands (its user, if any, and its request info). */
  evaluate(ctx: RequestContext): RequestAuditConfig {
    const info = ctx.info;
    const attrs: AuditAttributes = {
      user: ctx.user === undefined ? undefined : { name: ctx.user.username, groups: ctx.user.groups },
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      namespace: info.namespace,
      apiGroup: info.apiGroup,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
    };
    const config = this.evaluator.evaluate(attrs);
    this.metrics?.observePolicyLevel(config.level);
    return config;
  }

  observeEvent(): void {
    this.metrics?.observeEvent();
  }

  observeRejected(): void {
    this.metrics?.requestRejected();
  }

  /** Flushes and closes the backend; requests still running record nothing more. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    auditingStopped();
    await this.backend.shutdown();
  }
}

export interface OpenAuditDeps extends AuditPipelineDeps {
  /** Makes the log and webhook backends from the options (backends/index.ts). */
  createBackend?: AuditBackendFactory;
  log?: (m: string) => void;
}

/**
 * The pipeline the options ask for, or undefined when audit is off (no policy, or no backend).
 * Throws AuditOptionsError or AuditPolicyError with upstream's message.
 */
export async function openAudit(
  options: AuditOptions | undefined,
  deps: OpenAuditDeps,
): Promise<AuditPipeline | undefined> {
  if (options === undefined) return undefined;
  const errs = validateAuditOptions(options, deps.profile);
  if (errs.length > 0) throw new AuditOptionsError(aggregateErrors(errs));
  let policy = options.policy;
  if (policy === undefined && (options.policyFile ?? '') !== '') {
    let loaded: LoadedPolicy;
    try {
      loaded = loadAuditPolicyFile(options.policyFile as string, deps.profile);
    } catch (err) {
      if (err instanceof AuditPolicyError) {
        throw new AuditPolicyError(`loading audit policy file: ${err.message}`);
      }
      throw err;
    }
    for (const w of loaded.warnings) deps.log?.(w);
    policy = loaded.policy;
  }
  // Upstream makes no backend without a policy: nothing would reach it.
  if (policy === undefined) return undefined;
  let backend = options.backend;
  if (backend === undefined && deps.createBackend !== undefined && deps.metrics !== undefined) {
    backend = await deps.createBackend(options, {
      metrics: deps.metrics,
      profile: deps.profile,
      log: deps.log,
    });
  }
  if (backend === undefined) return undefined;
  return new AuditPipeline(policy, backend, deps);
}
