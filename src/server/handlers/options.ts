// Query parameters shared by the write handlers (dryRun) and the read handlers (selectors, limit,
// resourceVersion), validated with upstream's messages.

import { invalid as invalidField, newPath, notSupported } from '../../machinery/field-errors.ts';
import { badRequest, invalid } from '../../machinery/status.ts';
import type { ReadAt } from '../../storage/interface.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerEnv } from './env.ts';

/** `?dryRun=All` (repeatable); any other value is 422 against the options kind. */
export function dryRunOf(
  ctx: RequestContext,
  env: HandlerEnv,
  optionsKind: string,
  fromBody: unknown = [],
): boolean {
  const values = [...ctx.query.getAll('dryRun'), ...(Array.isArray(fromBody) ? fromBody.map(String) : [])];
  const bad = values.filter((v) => v !== 'All');
  if (bad.length > 0) {
    throw invalid({ group: env.metaGroups[0], kind: optionsKind }, '', [
      notSupported(newPath('dryRun'), values, ['All']),
    ]);
  }
  return values.length > 0;
}

export interface ListParams {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  at?: ReadAt;
  /** For watches: the revision to start after; undefined means from the current state. */
  revision?: number;
  allowBookmarks: boolean;
  timeoutSeconds?: number;
}

function intParam(ctx: RequestContext, name: string): number | undefined {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

function parseRevision(rv: string, listOptions: string): number {
  if (!/^\d+$/.test(rv)) {
    throw invalid({ group: '', kind: listOptions }, '', [
      invalidField(newPath('resourceVersion'), rv, 'must be a non-negative integer'),
    ]);
  }
  return Number(rv);
}

export function listParamsOf(ctx: RequestContext, env: HandlerEnv): ListParams {
  const q = ctx.query;
  const limit = intParam(ctx, 'limit');
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const params: ListParams = {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    continue: q.get('continue') || undefined,
    allowBookmarks: TRUE.has(q.get('allowWatchBookmarks') ?? ''),
    timeoutSeconds: intParam(ctx, 'timeoutSeconds'),
  };
  const optionsKind = { group: env.metaGroups[0], kind: 'ListOptions' };
  if (match !== '' && rv === '') {
    throw invalid(optionsKind, '', [
      invalidField(
        newPath('resourceVersionMatch'),
        match,
        'resourceVersionMatch is forbidden unless resourceVersion is provided',
      ),
    ]);
  }
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    throw invalid(optionsKind, '', [
      notSupported(newPath('resourceVersionMatch'), match, ['Exact', 'NotOlderThan']),
    ]);
  }
  if (rv !== '' && rv !== '0') {
    const revision = parseRevision(rv, 'ListOptions');
    params.revision = revision;
    if (params.continue === undefined) {
      params.at = match === 'Exact' ? { kind: 'exact', revision } : { kind: 'notOlderThan', revision };
    }
  }
  return params;
}
