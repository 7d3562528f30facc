// A served kind, complete: its resource names, the strategy the generic store follows, its compiled
// schema and its table columns. API groups under src/apis/ export these; the server is built from them.

import type { TableColumn } from '../codec/table.ts';
import type { KindSchema } from '../schema/types.ts';
import type { ResourceInfo } from './resource.ts';
import type { Strategy } from './strategy.ts';

export interface KindDefinition {
  resource: ResourceInfo;
  strategy: Strategy;
  schema: KindSchema;
  /** Table columns; absent means the default Name / Created At table. */
  table?: TableColumn[];
}
