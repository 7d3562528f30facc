// Turns a manager's name into its identifier: the operation, the served version for updates, and
// the subresource written through. An empty name is "unknown".

import type { JsonObject } from '../value.ts';
import { type Managed, managerIdentifier } from './managed.ts';
import type { Manager, Written } from './manager.ts';

export class ManagerInfo implements Manager {
  constructor(
    private readonly inner: Manager,
    private readonly apiVersion: string,
    private readonly subresource: string,
  ) {}

  private id(manager: string, operation: 'Apply' | 'Update'): string {
    return managerIdentifier({
      manager: manager === '' ? 'unknown' : manager,
      operation,
      apiVersion: this.apiVersion,
      subresource: this.subresource,
    });
  }

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    return this.inner.update(live, next, managed, this.id(manager, 'Update'));
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    return this.inner.apply(live, config, managed, this.id(manager, 'Apply'), force);
  }
}
