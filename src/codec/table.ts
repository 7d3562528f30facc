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
