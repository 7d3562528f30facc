// Query parameters shared by the write handlers (dryRun) and the read handlers (selectors, limit,
// resourceVersion), validated with upstream's messages.

import {
  aggregateMessage,
  type FieldError,
  forbidden,
  invalid as invalidField,
  newPath,
  notSupported,
  required,
  tooLong,
} from '../../machinery/field-errors.ts';
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

/** Upstream's limit on a field manager's name. */
const FIELD_MANAGER_MAX_LENGTH = 128;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function fieldManagerErrors(name: string): FieldError[] {
  const path = newPath('fieldManager');
  const errs: FieldError[] = [];
  if (name.length > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let offset = 0;
  for (const ch of name) {
    if (!PRINTABLE.test(ch)) {
      const code = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalidField(path, name, `invalid character U+${code} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch);
  }
  return errs;
}

export interface WriteOptionsQuery {
  /** `?fieldManager=`, '' when absent. */
  fieldManager: string;
  /** `?force=`: only for apply patches. */
  force: boolean | undefined;
}

/**
 * The field manager and force of a write, checked as upstream checks its options kind: apply
 * needs a field manager, and only apply may force.
 */
export function writeOptionsOf(
  ctx: RequestContext,
  env: HandlerEnv,
  optionsKind: string,
  apply = false,
): WriteOptionsQuery {
  const fieldManager = ctx.query.get('fieldManager') ?? '';
  const force = boolParam(ctx, 'force');
  const errs: FieldError[] = [];
  if (optionsKind === 'PatchOptions' && !apply && force !== undefined) {
    errs.push(forbidden(newPath('force'), 'may not be specified for non-apply patch'));
  }
  if (apply && fieldManager === '')
    errs.push(required(newPath('fieldManager'), 'is required for apply patch'));
  errs.push(...fieldManagerErrors(fieldManager));
  if (errs.length > 0) throw invalid({ group: env.metaGroups[0], kind: optionsKind }, '', errs);
  return { fieldManager, force };
}

/** Who a non-apply write is recorded under: the field manager, else the User-Agent's product. */
export function updateManagerOf(ctx: RequestContext, fieldManager: string): string {
  if (fieldManager !== '') return fieldManager;
  return String(ctx.req.headers['user-agent'] ?? '').split('/')[0];
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
  /** For watches: `sendInitialEvents`, when given. */
  sendInitialEvents?: boolean;
}

function intParam(ctx: RequestContext, name: string): number | undefined {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}

/**
 * A watch's timeout. Upstream arms a timer with a negative timeoutSeconds too, and that timer has
 * already fired: the watch answers 200 and ends at once. The handler treats anything but a
 * positive timeout as "none given", so a negative one becomes the smallest positive timeout.
 */
function watchTimeoutOf(seconds: number | undefined): number | undefined {
  return seconds !== undefined && seconds < 0 ? Number.MIN_VALUE : seconds;
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function boolParam(ctx: RequestContext, name: string): boolean | undefined {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw badRequest(
    `invalid value for ${name}: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`,
  );
}

function parseRevision(rv: string, listOptions: string): number {
  if (!/^\d+$/.test(rv)) {
    throw invalid({ group: '', kind: listOptions }, '', [
      invalidField(newPath('resourceVersion'), rv, 'must be a non-negative integer'),
    ]);
  }
  return Number(rv);
}

/**
 * The query of a list or watch, checked as upstream's ListOptions validation checks it, and the
 * read it asks for per the resourceVersion tables: `unset` is the most recent state, `0` any state
 * (the cache's), a number "not older than" it, or exactly it for Exact and for a first page.
 */
export function listParamsOf(ctx: RequestContext, env: HandlerEnv, forWatch = false): ListParams {
  const q = ctx.query;
  const limit = intParam(ctx, 'limit');
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const sendInitialEvents = boolParam(ctx, 'sendInitialEvents');
  const params: ListParams = {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    continue: q.get('continue') || undefined,
    allowBookmarks: TRUE.has(q.get('allowWatchBookmarks') ?? ''),
    timeoutSeconds: watchTimeoutOf(intParam(ctx, 'timeoutSeconds')),
    sendInitialEvents,
  };
  const matchPath = newPath('resourceVersionMatch');
  const errs: FieldError[] = [];
  const badCombinations: FieldError[] = [];
  if (forWatch) {
    if (sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') {
        errs.push(
          forbidden(matchPath, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
        );
      }
      if (!env.gate('WatchList')) {
        errs.push(
          forbidden(
            newPath('sendInitialEvents'),
            'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ),
        );
      }
    }
    if (match !== '') {
      if (sendInitialEvents === undefined) {
        errs.push(
          forbidden(
            matchPath,
            'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
          ),
        );
      }
      if (match !== 'NotOlderThan') errs.push(notSupported(matchPath, match, ['NotOlderThan']));
      if (params.continue !== undefined)
        errs.push(forbidden(matchPath, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match !== '') {
      if (rv === '') {
        const err = forbidden(
          matchPath,
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        );
        errs.push(err);
        badCombinations.push(err);
      }
      if (params.continue !== undefined)
        errs.push(forbidden(matchPath, 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan')
        errs.push(notSupported(matchPath, match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && rv === '0') {
        const err = forbidden(matchPath, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
        errs.push(err);
        badCombinations.push(err);
      }
    }
    if (sendInitialEvents !== undefined)
      errs.push(forbidden(newPath('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  }
  // The spec ("Errors", and the list table's Invalid cells) answers a resourceVersionMatch that
  // does not fit the resourceVersion with 400, where upstream answers 422; the spec wins.
  if (badCombinations.length > 0) throw badRequest(aggregateMessage(errs));
  if (errs.length > 0) throw invalid({ group: env.metaGroups[0], kind: 'ListOptions' }, '', errs);

  if (params.continue !== undefined && rv !== '' && rv !== '0') {
    throw badRequest('specifying resource version is not allowed when using continue');
  }
  const revision = rv === '' ? undefined : parseRevision(rv, 'ListOptions');
  if (forWatch) {
    params.revision = revision === 0 ? undefined : revision;
    // A streaming list reads its initial state: most recent when unset, else not older than.
    if (sendInitialEvents === true && revision !== undefined) params.at = { kind: 'notOlderThan', revision };
    return params;
  }
  if (params.continue !== undefined || revision === undefined) return params;
  const exact = match === 'Exact' || (match === '' && revision !== 0 && params.limit !== undefined);
  params.at = exact ? { kind: 'exact', revision } : { kind: 'notOlderThan', revision };
  return params;
}
