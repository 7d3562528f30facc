// The Table representation (meta v1 Table): column definitions and one row per object. Kinds declare
// their columns; kinds without any get the default Name / Created At table.

import type { ApiObject } from '../machinery/object.ts';

export interface TableColumn {
  name: string;
  /** OpenAPI type of the cells: string, integer, number, boolean, date. */
  type: string;
  format?: string;
  description: string;
  /** 0 shows by default; higher priorities appear with `-o wide`. */
  priority?: number;
  /** The cell of one object. */
  cell(obj: ApiObject): unknown;
}

export interface TableOptions {
  /** The meta group and version the client asked the Table in (`g=` and `v=` of its Accept). */
  group: string;
  version: string;
  /** `Object` embeds each object, `None` nothing, `Metadata` (the default) its metadata only. */
  includeObject?: string;
  /** Leave out columnDefinitions (watch events after the first). */
  noHeaders?: boolean;
  /** List metadata (resourceVersion, continue, remainingItemCount) of the source list. */
  listMeta?: Record<string, unknown>;
}

/** The default table of kinds without their own columns: Name and Created At. */
export const DEFAULT_COLUMNS: TableColumn[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    cell: (obj) => obj.metadata?.name ?? '',
  },
  {
    name: 'Created At',
    type: 'date',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    cell: (obj) => obj.metadata?.creationTimestamp ?? null,
  },
];

function rowObject(obj: ApiObject, apiVersion: string, include: string | undefined): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} };
}

/** A Table of `objects` (each carrying its apiVersion and kind) with the kind's columns. */
export function buildTable(
  objects: readonly ApiObject[],
  columns: readonly TableColumn[] | undefined,
  opts: TableOptions,
): Record<string, unknown> {
  const cols = columns ?? DEFAULT_COLUMNS;
  const apiVersion = `${opts.group}/${opts.version}`;
  const table: Record<string, unknown> = {
    kind: 'Table',
    apiVersion,
    metadata: opts.listMeta ?? {},
  };
  if (!opts.noHeaders) {
    table.columnDefinitions = cols.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description,
      priority: c.priority ?? 0,
    }));
  }
  table.rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: cols.map((c) => c.cell(obj)) };
    const embedded = rowObject(obj, apiVersion, opts.includeObject);
    if (embedded !== undefined) row.object = embedded;
    return row;
  });
  return table;
}
