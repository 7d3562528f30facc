// Calls to a deprecated API version, as upstream's installer and request metrics mark them: a
// Warning naming the version, when it goes away and what replaces it; the audit annotations
// `<domain>/deprecated: "true"` and, when a removal release is planned, `<domain>/removed-release`;
// and the gauge apiserver_requested_deprecated_apis set to 1 for the endpoint. Upstream decides
// once per endpoint, when it installs the routes; here a kind's signal is worked out on its first
// call and kept, and a kind with no lifecycle costs a request one property read.

import type { Gauge } from 'prom-client';
import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import {
  deprecatedApiAnnotationKey,
  removedReleaseAnnotationKey,
} from '../naming/deprecated-api-annotations.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { ApiLifecycle, KindDefinition } from '../registry/kind.ts';
import { addAuditAnnotation, type RequestContext } from './context.ts';
import { API_MAJOR, API_MINOR } from './version.ts';
import { addWarnings } from './warnings.ts';

type Labels = 'group' | 'version' | 'resource' | 'subresource' | 'removed_release';

interface MajorMinor {
  major: number;
  minor: number;
}

/** What every call of a deprecated kind carries, worked out once. */
export interface DeprecationSignal {
  warning: string;
  /** `major.minor`, or '' when no removal is planned (the metric's label then is empty too). */
  removedRelease: string;
}

/** `1.22` (a leading `v` and a patch level allowed) as numbers; undefined when it is no version. */
function parseRelease(v: string): MajorMinor | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(v.trim());
  return m === null ? undefined : { major: Number(m[1]), minor: Number(m[2]) };
}

const CURRENT: MajorMinor = { major: Number(API_MAJOR), minor: Number.parseInt(API_MINOR, 10) };

/**
 * Upstream's IsDeprecated: a version is deprecated once the current release reaches the one that
 * deprecated it; a lifecycle with no (or a zero) deprecation release deprecates nothing.
 */
export function isDeprecated(lifecycle: ApiLifecycle, current: MajorMinor = CURRENT): boolean {
  const d = parseRelease(lifecycle.deprecated);
  if (d === undefined || (d.major === 0 && d.minor === 0)) return false;
  if (current.major === 0 && current.minor === 0) return true;
  return d.major < current.major || (d.major === current.major && d.minor <= current.minor);
}

/** The removal release as upstream prints it (`1.25`), or '' when none is planned. */
export function removedReleaseOf(lifecycle: ApiLifecycle): string {
  const r = lifecycle.removed === undefined ? undefined : parseRelease(lifecycle.removed);
  return r === undefined || (r.major === 0 && r.minor === 0) ? '' : `${r.major}.${r.minor}`;
}

/** `group/version`, or the bare version for the core group, as Go's GroupVersion.String(). */
const groupVersion = (group: string, version: string) => (group === '' ? version : `${group}/${version}`);

/**
 * Upstream's warning text: `<group>/<version> <Kind> is deprecated in v1.X+`, then
 * `, unavailable in v1.Y+` when a removal is planned and `; use <group>/<version> <Kind>` when
 * there is a replacement.
 */
export function deprecationWarning(
  kind: Pick<KindDefinition['resource'], 'group' | 'version' | 'kind'>,
  lifecycle: ApiLifecycle,
): string {
  const d = parseRelease(lifecycle.deprecated);
  if (d === undefined || (d.major === 0 && d.minor === 0)) return '';
  let text = `${groupVersion(kind.group, kind.version)} ${kind.kind} is deprecated in v${d.major}.${d.minor}+`;
  const removed = removedReleaseOf(lifecycle);
  if (removed !== '') text += `, unavailable in v${removed}+`;
  const r = lifecycle.replacement;
  if (r !== undefined && (r.group !== '' || r.version !== '' || r.kind !== '')) {
    text += `; use ${groupVersion(r.group, r.version)} ${r.kind}`;
  }
  return text;
}

const SIGNALS = new WeakMap<KindDefinition, DeprecationSignal | null>();

/** The signal of a kind's calls, or undefined when the version is not (yet) deprecated. */
export function deprecationSignalOf(kind: KindDefinition): DeprecationSignal | undefined {
  const lifecycle = kind.lifecycle;
  if (lifecycle === undefined) return undefined;
  let s = SIGNALS.get(kind);
  if (s === undefined) {
    s = isDeprecated(lifecycle)
      ? { warning: deprecationWarning(kind.resource, lifecycle), removedRelease: removedReleaseOf(lifecycle) }
      : null;
    SIGNALS.set(kind, s);
  }
  return s ?? undefined;
}

interface DeprecatedApisMetric {
  gauge: Gauge<Labels>;
  /** Label children by endpoint, so a repeated call only sets a value. */
  children: Map<string, ReturnType<Gauge<Labels>['labels']>>;
}

const METRICS = new WeakMap<MetricsRegistry, DeprecatedApisMetric>();

/** apiserver_requested_deprecated_apis of a registry, defined on first use (once per registry). */
export function deprecatedApisMetric(registry: MetricsRegistry): DeprecatedApisMetric {
  let m = METRICS.get(registry);
  if (m === undefined) {
    m = {
      gauge: registry.gauge({
        name: 'apiserver_requested_deprecated_apis',
        help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
        stability: 'STABLE',
        labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      }),
      children: new Map(),
    };
    METRICS.set(registry, m);
  }
  return m;
}

/** Where a deprecated call was made: the served resource's names and the subresource. */
export interface DeprecatedEndpoint {
  group: string;
  version: string;
  resource: string;
  subresource: string;
}

/** Sets the gauge of one endpoint to 1, as upstream does on every call of a deprecated endpoint. */
export function markDeprecatedCall(
  registry: MetricsRegistry,
  e: DeprecatedEndpoint,
  removedRelease: string,
): void {
  const m = deprecatedApisMetric(registry);
  const key = `${e.group}\0${e.version}\0${e.resource}\0${e.subresource}`;
  let child = m.children.get(key);
  if (child === undefined) {
    child = m.gauge.labels({
      group: e.group,
      version: e.version,
      resource: e.resource,
      subresource: e.subresource,
      removed_release: removedRelease,
    });
    m.children.set(key, child);
  }
  child.set(1);
}

/** The audit annotations of a deprecated call, as upstream adds them. */
export function annotateDeprecatedCall(
  ctx: RequestContext,
  profile: NamingProfile,
  removedRelease: string,
): void {
  addAuditAnnotation(ctx, deprecatedApiAnnotationKey(profile), 'true');
  if (removedRelease !== '') addAuditAnnotation(ctx, removedReleaseAnnotationKey(profile), removedRelease);
}

/**
 * Marks a call of a deprecated endpoint: the Warning, the audit annotations and the gauge. Upstream
 * adds the warning before its handler runs and the rest once it has answered; both happen for every
 * routed call, whatever its outcome, so doing all of it up front answers the same.
 */
export function signalDeprecatedCall(
  ctx: RequestContext,
  signal: DeprecationSignal,
  profile: NamingProfile,
  endpoint: DeprecatedEndpoint,
  registry: MetricsRegistry | undefined,
): void {
  if (signal.warning !== '') addWarnings(ctx.warnings, [signal.warning]);
  annotateDeprecatedCall(ctx, profile, signal.removedRelease);
  if (registry !== undefined) markDeprecatedCall(registry, endpoint, signal.removedRelease);
}
