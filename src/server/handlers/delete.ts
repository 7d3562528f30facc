// DELETE of one object: DeleteOptions from the body or the query (dryRun, preconditions,
// gracePeriodSeconds, propagationPolicy); 200 with the object or a Success Status.

import { parseMediaType } from '../../codec/media-type.ts';
import { DecodeError } from '../../codec/serializers.ts';
import { invalid as invalidField, newPath, notSupported } from '../../machinery/field-errors.ts';
import { badRequest, invalid } from '../../machinery/status.ts';
import { PROPAGATION_POLICIES, type PropagationPolicy } from '../../registry/deletion-propagation.ts';
import type { Preconditions } from '../../storage/interface.ts';
import type { RequestContext } from '../context.ts';
import { readBody } from './body.ts';
import { admitFor, type HandlerEnv, type ResourceHandler } from './env.ts';
import { dryRunOf } from './options.ts';
import { chooseOutput, respondObject } from './output.ts';

interface DeleteOptionsBody {
  dryRun?: unknown;
  preconditions?: Preconditions | null;
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  ignoreStoreReadErrorWithClusterBreakingPotential?: unknown;
}

/** The feature gate behind the unsafe delete of undecodable objects. */
const UNSAFE_DELETE_GATE = 'AllowUnsafeMalformedObjectDeletion';
const UNSAFE_DELETE = 'ignoreStoreReadErrorWithClusterBreakingPotential';

export interface DeleteOptions {
  dryRun: boolean;
  preconditions?: Preconditions;
  propagationPolicy?: PropagationPolicy;
  ignoreStoreReadError: boolean;
  /** Seconds a graceful deletion waits; kinds without graceful deletion ignore it. */
  gracePeriodSeconds?: number;
}

/** The deprecated orphanDependents flag, from the body or the query. */
function orphanDependentsOf(ctx: RequestContext, body: DeleteOptionsBody): boolean | undefined {
  if (typeof body.orphanDependents === 'boolean') return body.orphanDependents;
  const q = ctx.query.get('orphanDependents');
  return q === null || q === '' ? undefined : q === 'true';
}

/** The DeleteOptions of a delete or deletecollection; an empty body means none. */
export async function deleteOptionsOf(ctx: RequestContext, env: HandlerEnv): Promise<DeleteOptions> {
  const raw = await readBody(ctx);
  const type = parseMediaType(String(ctx.req.headers['content-type'] ?? ''))?.essence;
  // A protobuf or CBOR DeleteOptions (client-go sends its own content type) reads as its JSON shape.
  const binary = env.codecs.builtin.serializers.find((s) => s.binary && s.mediaType === type);
  const text = binary === undefined ? raw.toString('utf8').trim() : '';
  let body: DeleteOptionsBody = {};
  if (binary?.binary && raw.length > 0) {
    try {
      body = binary.decodeChecked(raw).value as DeleteOptionsBody;
    } catch (err) {
      if (err instanceof DecodeError) throw badRequest(err.message);
      throw err;
    }
    if (body === null || typeof body !== 'object') body = {};
  } else if (text !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('the body of a delete must be a DeleteOptions object');
    }
    body = parsed as DeleteOptionsBody;
  }
  const grace = body.gracePeriodSeconds ?? ctx.query.get('gracePeriodSeconds');
  if (grace !== undefined && grace !== null && grace !== '' && !/^-?\d+$/.test(String(grace))) {
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(String(grace))}: invalid syntax`);
  }
  const optionsKind = { group: env.metaGroups[0], kind: 'DeleteOptions' };
  const rawPolicy = body.propagationPolicy ?? ctx.query.get('propagationPolicy') ?? '';
  const orphan = orphanDependentsOf(ctx, body);
  const errs = [];
  if (rawPolicy !== '' && !(PROPAGATION_POLICIES as readonly unknown[]).includes(rawPolicy)) {
    errs.push(
      notSupported(newPath('propagationPolicy'), rawPolicy, ['Foreground', 'Background', 'Orphan', 'nil']),
    );
  }
  if (rawPolicy !== '' && orphan !== undefined) {
    errs.push(
      invalidField(
        newPath('propagationPolicy'),
        rawPolicy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  // With the gate off the option does not exist: upstream drops it before validation.
  const unsafe =
    env.gate(UNSAFE_DELETE_GATE) && (body[UNSAFE_DELETE] === true || ctx.query.get(UNSAFE_DELETE) === 'true');
  if (unsafe) {
    const path = newPath(UNSAFE_DELETE);
    const together = (other: string) => invalidField(path, true, `cannot be set together with .${other}`);
    const dryRunGiven =
      ctx.query.getAll('dryRun').length > 0 || (Array.isArray(body.dryRun) && body.dryRun.length > 0);
    if (dryRunGiven) errs.push(together('dryRun'));
    if (rawPolicy !== '') errs.push(together('propagationPolicy'));
    if (orphan !== undefined) errs.push(together('orphanDependents'));
    if (grace !== undefined && grace !== null && grace !== '') errs.push(together('gracePeriodSeconds'));
    if (body.preconditions !== undefined && body.preconditions !== null) errs.push(together('preconditions'));
  }
  if (errs.length > 0) throw invalid(optionsKind, '', errs);
  const propagationPolicy =
    rawPolicy !== ''
      ? (rawPolicy as PropagationPolicy)
      : orphan === undefined
        ? undefined
        : orphan
          ? 'Orphan'
          : 'Background';
  const dryRun = dryRunOf(ctx, env, 'DeleteOptions', body.dryRun ?? []);
  const pre = body.preconditions ?? undefined;
  const preconditions: Preconditions | undefined =
    pre === undefined
      ? undefined
      : { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined };
  const gracePeriodSeconds =
    grace === undefined || grace === null || grace === '' ? undefined : Number(grace);
  return { dryRun, preconditions, propagationPolicy, ignoreStoreReadError: unsafe, gracePeriodSeconds };
}

export const deleteHandler: ResourceHandler = async (ctx, env, t) => {
  const choice = chooseOutput(ctx, env, t, false);
  const { dryRun, preconditions, propagationPolicy, ignoreStoreReadError, gracePeriodSeconds } =
    await deleteOptionsOf(ctx, env);
  const out = await t.served.store.delete(t.namespace, t.name, {
    dryRun,
    preconditions,
    propagationPolicy,
    ignoreStoreReadError,
    gracePeriodSeconds,
    admit: admitFor(ctx, env, t, 'DELETE', dryRun),
  });
  respondObject(ctx, t, 200, out, choice);
};
