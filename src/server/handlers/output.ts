// Answering with objects and lists in the representation the client asked for: the object itself
// (JSON or YAML), or a Table of it with the kind's columns.

import { negotiateOutput, type OutputChoice } from '../../codec/negotiation.ts';
import { buildTable } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ListObject } from '../../registry/generic-store.ts';
import type { RequestContext } from '../context.ts';
import { writeEncoded } from '../respond.ts';
import type { HandlerEnv, Target } from './env.ts';

export function chooseOutput(ctx: RequestContext, env: HandlerEnv, tables: boolean): OutputChoice {
  return negotiateOutput(ctx.req.headers.accept, { metaGroups: env.metaGroups, tables });
}

/** An object, or a one-row Table of it. */
export function respondObject(
  ctx: RequestContext,
  t: Target,
  status: number,
  obj: ApiObject,
  choice: OutputChoice,
): void {
  if (choice.conversion?.as === 'Table') {
    const table = buildTable([obj], t.served.kind.table, {
      group: choice.conversion.group,
      version: choice.conversion.version,
      includeObject: ctx.query.get('includeObject') ?? undefined,
      listMeta: { resourceVersion: obj.metadata?.resourceVersion ?? '' },
    });
    writeEncoded(ctx, status, table, choice.serializer);
    return;
  }
  writeEncoded(ctx, status, obj, choice.serializer);
}

/** A list, or a Table of its items carrying the list's metadata. */
export function respondList(ctx: RequestContext, t: Target, list: ListObject, choice: OutputChoice): void {
  if (choice.conversion?.as === 'Table') {
    const apiVersion = list.apiVersion;
    const kind = t.served.kind.resource.kind;
    const items = list.items.map((i) => ({ apiVersion, kind, ...i }));
    const table = buildTable(items, t.served.kind.table, {
      group: choice.conversion.group,
      version: choice.conversion.version,
      includeObject: ctx.query.get('includeObject') ?? undefined,
      listMeta: list.metadata,
    });
    writeEncoded(ctx, 200, table, choice.serializer);
    return;
  }
  writeEncoded(ctx, 200, list, choice.serializer);
}
