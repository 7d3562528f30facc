// What the legacy token cleaner does with one Secret, as upstream decides it: only an
// auto-generated legacy token (the token type, named by an existing account of the annotated uid
// that still lists it) older than the clean-up period, not used within it (its last-used day, when
// it has one, before the period began) and mounted by no Pod of its namespace is touched: first
// labelled invalid since today, then, once that label is older than the period, deleted. Days are
// UTC `YYYY-MM-DD`, compared as text; a malformed last-used day keeps the token, a malformed
// invalid-since day is written anew.

import type { ApiObject } from '../../machinery/object.ts';
import type { ServiceAccountNames } from '../../naming/service-accounts.ts';
import { stringMap } from '../controller-support.ts';
import { secretReferences } from '../serviceaccount-token/token-secret.ts';

export type CleanerNames = Pick<
  ServiceAccountNames,
  'tokenSecretType' | 'nameAnnotation' | 'uidAnnotation' | 'legacyLastUsedLabel' | 'legacyInvalidSinceLabel'
>;

export type Verdict =
  | { action: 'keep'; reason: string }
  | { action: 'label'; invalidSince: string }
  | { action: 'delete'; lastUsed: string; invalidSince: string };

/** `YYYY-MM-DD` of `ms` in UTC (Go's 2006-01-02). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The start (ms, UTC) of a `YYYY-MM-DD` day as Go's time.Parse reads it strictly; undefined otherwise. */
export function parseDay(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return undefined;
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  return t.getTime();
}

export interface VerdictInputs {
  now: number;
  cleanUpPeriodMs: number;
  /** The account the Secret's name annotation names, from the cache (undefined: none). */
  account: ApiObject | undefined;
  /** Secrets the Pods of the Secret's namespace refer to. */
  mounted: () => Set<string>;
  names: CleanerNames;
}

export function legacyTokenVerdict(secret: ApiObject, i: VerdictInputs): Verdict {
  const { names } = i;
  if (secret.type !== names.tokenSecretType) return { action: 'keep', reason: 'not a token' };
  const preserveCreatedOnOrAfter = i.now - i.cleanUpPeriodMs;
  const preserveUsedOnOrAfter = utcDay(preserveCreatedOnOrAfter);
  const meta = secret.metadata ?? {};
  // A missing creation time is Go's zero time, before anything.
  const created = Date.parse(String(meta.creationTimestamp ?? ''));
  if (!Number.isNaN(created) && created >= preserveCreatedOnOrAfter)
    return { action: 'keep', reason: 'recent' };
  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null)
    return { action: 'keep', reason: 'being deleted' };
  const labels = stringMap(meta.labels);
  const lastUsed = labels[names.legacyLastUsedLabel];
  if (lastUsed !== undefined) {
    if (parseDay(lastUsed) === undefined) return { action: 'keep', reason: 'malformed last-used day' };
    if (lastUsed >= preserveUsedOnOrAfter) return { action: 'keep', reason: 'used recently' };
  }
  const ann = stringMap(meta.annotations);
  const sa = i.account;
  const saUid = ann[names.uidAnnotation] ?? '';
  if ((ann[names.nameAnnotation] ?? '') === '' || sa === undefined)
    return { action: 'keep', reason: 'no account' };
  if (saUid !== '' && saUid !== sa.metadata?.uid) return { action: 'keep', reason: 'no account' };
  if (!secretReferences(sa).has(String(meta.name ?? '')))
    return { action: 'keep', reason: 'not auto-generated' };
  if (i.mounted().has(String(meta.name ?? ''))) return { action: 'keep', reason: 'mounted by a pod' };
  const invalidSince = labels[names.legacyInvalidSinceLabel] ?? '';
  if (parseDay(invalidSince) === undefined) return { action: 'label', invalidSince: utcDay(i.now) };
  if (invalidSince >= preserveUsedOnOrAfter) return { action: 'keep', reason: 'invalidated recently' };
  return { action: 'delete', lastUsed: lastUsed ?? '', invalidSince };
}
