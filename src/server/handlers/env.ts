// What every resource handler works with: the served resources, admission, the naming profile, and
// the target of the request (resource, namespace, name, subresource) that routing resolved.

import type { AdmissionChain } from '../../admission/chain.ts';
import type { AdmissionAttributes, Operation } from '../../admission/types.ts';
import type { CodecSet } from '../../codec/negotiation.ts';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { ServerCodecs } from '../codecs.ts';
import { addAuditAnnotation, type RequestContext } from '../context.ts';
import type { ServedResource, ServedResources } from '../served-resources.ts';
import type { WatchBudget } from './watch-budget.ts';

export interface HandlerEnv {
  profile: NamingProfile;
  /** Groups a client may name the meta API by in Accept (`g=`): the profile's and upstream's. */
  metaGroups: readonly string[];
  served: ServedResources;
  /** The encodings served, built once per server. */
  codecs: ServerCodecs;
  admission: AdmissionChain;
  /** Whether a feature gate is on (`--feature-gates`, else the gate's default). */
  gate(name: string): boolean;
  /** Watches without timeoutSeconds last between this and twice this. */
  minRequestTimeoutSeconds: number;
  /** Bounds what watches whose clients do not read may hold; none means unbounded. */
  watchBudget?: WatchBudget;
  /** The server's metrics registry (watch events, deprecated APIs, ... are recorded there). */
  metrics?: MetricsRegistry;
}

export interface Target {
  served: ServedResource;
  namespace: string;
  name: string;
  subresource: string;
}

/**
 * The encodings of a resource's endpoints. Every kind served today is built in and has protobuf
 * messages; custom resources and aggregated types would take `codecs.withoutProtobuf`.
 */
export function codecsOf(env: HandlerEnv, _t: Pick<Target, 'served'>): CodecSet {
  return env.codecs.builtin;
}

export type ResourceHandler = (ctx: RequestContext, env: HandlerEnv, t: Target) => Promise<void>;

/** The store's admission hook for one request; an update that creates is admitted as a create. */
export function admitFor(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  operation: Operation,
  dryRun: boolean,
): (obj: ApiObject, old: ApiObject | null) => Promise<void> {
  // A write through an alias group is admitted as one of the canonical group: one rule covers both.
  const r = (t.served.aliasOf ?? t.served).kind.resource;
  return (obj, old) => {
    const a: AdmissionAttributes = {
      operation: operation === 'UPDATE' && old === null ? 'CREATE' : operation,
      group: r.group,
      version: r.version,
      resource: r.resource,
      subresource: t.subresource,
      kind: r.kind,
      namespace: t.namespace,
      name: t.name !== '' ? t.name : String(obj.metadata?.name ?? ''),
      namespaced: r.namespaced,
      object: operation === 'DELETE' ? undefined : obj,
      oldObject: old ?? undefined,
      user: ctx.user,
      dryRun,
      addAnnotation: (key, value) => addAuditAnnotation(ctx, key, value),
    };
    return env.admission.validate(a);
  };
}
