// The contract every layer of the field manager implements: an update records what a write
// changed, an apply merges a configuration. Layers wrap one another (field-manager.ts stacks them).

import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';

export interface Written {
  /** The object to store; undefined from an apply that changes nothing. */
  object: JsonObject | undefined;
  managed: Managed;
}

export interface Manager {
  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written;
  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written;
}
