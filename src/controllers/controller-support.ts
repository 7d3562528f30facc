// What the system controllers built on the client share: the core resources they watch, how they
// read an API failure (status code, reason, cause), the naming profile and configuration sections
// of their context, and the life of one controller (informers synced, workers over a queue, stop
// that waits for the work in progress). Imports client/ contracts, machinery/ and naming/ only.

import type { EventHandler, GroupVersionResource, SharedInformer } from '../client/api.ts';
import { parseDuration } from '../machinery/duration.ts';
import type { ApiObject } from '../machinery/object.ts';
import { type NamingProfile, namingProfile } from '../naming/profile.ts';
import type { ControllerContext, RunningController } from './controller.ts';

const core = (resource: string): GroupVersionResource => ({ group: '', version: 'v1', resource });

export const NAMESPACES = core('namespaces');
export const SERVICE_ACCOUNTS = core('serviceaccounts');
export const SECRETS = core('secrets');
export const CONFIG_MAPS = core('configmaps');
export const PODS = core('pods');

interface StatusLike {
  code?: number;
  reason?: string;
  details?: { causes?: { reason?: string }[] };
}

/** The Status an API failure carries (machinery's ApiError), or undefined for other errors. */
function statusOf(err: unknown): StatusLike | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const s = (err as { status?: unknown }).status;
  return s !== null && typeof s === 'object' ? (s as StatusLike) : undefined;
}

export function statusCode(err: unknown): number | undefined {
  const s = statusOf(err);
  if (s !== undefined && typeof s.code === 'number') return s.code;
  const c = (err as { code?: unknown } | null)?.code;
  return typeof c === 'number' ? c : undefined;
}

export const isNotFound = (err: unknown): boolean => statusCode(err) === 404;
export const isConflict = (err: unknown): boolean =>
  statusCode(err) === 409 && statusOf(err)?.reason !== 'AlreadyExists';
export const isAlreadyExists = (err: unknown): boolean => statusOf(err)?.reason === 'AlreadyExists';

/** Whether the failure's details name `reason` among their causes (upstream's HasStatusCause). */
export function hasStatusCause(err: unknown, reason: string): boolean {
  return (statusOf(err)?.details?.causes ?? []).some((c) => c?.reason === reason);
}

/** The cause a create in a namespace being deleted is refused with. */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function namingOf(ctx: Pick<ControllerContext, 'naming'>): NamingProfile {
  return ctx.naming ?? namingProfile('spec');
}

/** `namespace/name`, or `name` for cluster-scoped objects: the informers' cache key. */
export function keyOf(obj: ApiObject): string {
  const ns = obj.metadata?.namespace;
  const name = String(obj.metadata?.name ?? '');
  return ns ? `${ns}/${name}` : name;
}

export function nameOf(obj: ApiObject): string {
  return String(obj.metadata?.name ?? '');
}

export function namespaceOf(obj: ApiObject): string {
  return String(obj.metadata?.namespace ?? '');
}

/** A string-valued map of an object (labels, annotations, ConfigMap data); {} when absent or odd. */
export function stringMap(v: unknown): Record<string, string> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === 'string') out[k] = x;
  return out;
}

/**
 * One section of the manager's configuration (`SAController`, ...) with its fields unread ({} when
 * absent): `T`, the section's type, only names the fields, so a misspelt one does not compile.
 */
export function configSection<T extends object = Record<string, unknown>>(
  config: unknown,
  name: string,
): Partial<Record<keyof T, unknown>> {
  if (config === null || typeof config !== 'object') return {};
  const s = (config as Record<string, unknown>)[name];
  return s !== null && typeof s === 'object' ? (s as Partial<Record<keyof T, unknown>>) : {};
}

/**
 * A duration field in milliseconds: a Go duration string (`8760h0m0s`), a number of
 * milliseconds, or a `{ Duration }` object; `fallback` when absent or unreadable.
 */
export function durationField(v: unknown, fallback: number): number {
  try {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v !== '') return parseDuration(v);
    if (v !== null && typeof v === 'object') {
      const d = (v as Record<string, unknown>).Duration ?? (v as Record<string, unknown>).duration;
      if (d !== undefined) return durationField(d, fallback);
    }
  } catch {
    // Validation of the configuration happens before controllers start; here a bad value is absent.
  }
  return fallback;
}

export function stringField(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function intField(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Adds `handler` to each informer; the returned function removes them all. */
export function watchAll(pairs: readonly [SharedInformer, EventHandler, number?][]): () => void {
  const regs = pairs.map(([informer, handler, resync]) => informer.addEventHandler(handler, resync));
  return () => {
    for (const r of regs) r.remove();
  };
}

/**
 * Runs one controller: `run` (waiting for its informers, then working) until the context's signal
 * or stop() ends it. stop() resolves once `run` has returned; a run that fails is logged and
 * reported by check().
 */
export function runController(
  ctx: Pick<ControllerContext, 'signal' | 'log'>,
  name: string,
  run: (signal: AbortSignal) => Promise<void>,
  cleanup: () => void,
): RunningController {
  const own = new AbortController();
  const onAbort = () => own.abort();
  if (ctx.signal.aborted) own.abort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  let failure: Error | undefined;
  const done = (async () => {
    try {
      await run(own.signal);
    } catch (err) {
      if (!own.signal.aborted) {
        failure = err instanceof Error ? err : new Error(String(err));
        ctx.log.error(`${name} stopped`, { err: failure.message });
      }
    } finally {
      cleanup();
      ctx.signal.removeEventListener('abort', onAbort);
    }
  })();
  return {
    check() {
      if (failure !== undefined) throw failure;
    },
    async stop() {
      own.abort();
      await done;
    },
  };
}

/** Resolves once every informer has its initial list; rejects if `signal` aborts first. */
export async function waitForInformers(
  informers: readonly SharedInformer[],
  signal: AbortSignal,
): Promise<void> {
  await Promise.all(informers.map((i) => i.waitForSync(signal)));
}
