// Answering with objects and lists in the representation the client asked for: the object itself
// (JSON, YAML, protobuf or CBOR), a Table of it with the kind's columns, or its metadata alone
// (PartialObjectMetadata, what metadata-only informers such as the garbage collector's ask for).

import { negotiateOutput, type OutputChoice } from '../../codec/negotiation.ts';
import { JSON_SERIALIZER } from '../../codec/serializers.ts';
import { buildTable } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ListObject } from '../../registry/generic-store.ts';
import { auditResponse } from '../audit/request-audit.ts';
import type { RequestContext } from '../context.ts';
import { writeEncoded } from '../respond.ts';
import { canWriteEncoded, writeEncodedList } from './encoded-list.ts';
import { codecsOf, type HandlerEnv, type Target } from './env.ts';

export function chooseOutput(
  ctx: RequestContext,
  env: HandlerEnv,
  t: Target,
  tables: boolean,
  list = false,
): OutputChoice {
  return negotiateOutput(ctx.req.headers.accept, {
    metaGroups: env.metaGroups,
    tables,
    list,
    codecs: codecsOf(env, t),
  });
}

/** An object reduced to its metadata, as upstream's PartialObjectMetadata. */
export function partialMetadata(obj: ApiObject, group: string, version: string): ApiObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `${group}/${version}`, metadata: obj.metadata };
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
  if (choice.conversion?.as === 'PartialObjectMetadata') {
    writeEncoded(
      ctx,
      status,
      partialMetadata(obj, choice.conversion.group, choice.conversion.version),
      choice.serializer,
    );
    return;
  }
  writeEncoded(ctx, status, obj, choice.serializer);
}

/** A list, or a Table of its items carrying the list's metadata. */
export async function respondList(
  ctx: RequestContext,
  t: Target,
  list: ListObject,
  choice: OutputChoice,
): Promise<void> {
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
  if (choice.conversion?.as === 'PartialObjectMetadata') {
    const { group, version } = choice.conversion;
    const partial = {
      kind: 'PartialObjectMetadataList',
      apiVersion: `${group}/${version}`,
      metadata: list.metadata,
      items: list.items.map((i) => partialMetadata(i, group, version)),
    };
    writeEncoded(ctx, 200, partial, choice.serializer);
    return;
  }
  if (choice.serializer === JSON_SERIALIZER && canWriteEncoded(ctx, list)) {
    auditResponse(ctx, 200, list);
    await writeEncodedList(ctx, list, list.runs);
    return;
  }
  writeEncoded(ctx, 200, list, choice.serializer);
}
